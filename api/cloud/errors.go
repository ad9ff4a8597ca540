// Package cloud serves the cloud platform API (/v4, /v4beta, /oauth): accounts, billing, users
// and grants, OAuth clients and managed databases, in the real service's JSON wire format.
package cloud

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store"
)

// Prefixes are the paths the cloud API owns; errors under them are rendered by RenderError.
var Prefixes = []string{"/v4", "/v4beta", "/oauth"}

// apiError is one element of the cloud error body.
type apiError struct {
	Reason string `json:"reason"`
	Field  string `json:"field,omitempty"`
}

// RenderError writes err as the cloud API does: {"errors":[{"reason":"…","field":"…"}]} with
// Content-Type exactly application/json. Duplicates are 400 here, as the real service answers
// a taken label or username; a missing resource reads "Not found", word for word.
func RenderError(c *fiber.Ctx, err error) error {
	var errs *Errors
	if errors.As(err, &errs) {
		return c.Status(errs.Status).JSON(fiber.Map{"errors": errs.List})
	}
	status := kit.Status(err)
	if errors.Is(err, store.ErrExists) {
		status = http.StatusBadRequest
	}
	reason := kit.Reason(err, status)
	switch status {
	case http.StatusNotFound:
		reason = "Not found"
	case http.StatusTooManyRequests:
		reason = "Too many requests"
	}
	return c.Status(status).JSON(fiber.Map{"errors": []apiError{{Reason: reason, Field: kit.Field(err)}}})
}

// Errors carries several problems at once: the cloud API reports as many as it can in one answer.
type Errors struct {
	Status int
	List   []apiError
}

// Error joins the reasons.
func (e *Errors) Error() string {
	s := ""
	for i, x := range e.List {
		if i > 0 {
			s += "; "
		}
		s += x.Reason
	}
	return s
}

// Add records one problem about field ("" for none).
func (e *Errors) Add(field, reason string) { e.List = append(e.List, apiError{reason, field}) }

// Err returns e as an error, or nil when it holds no problem.
func (e *Errors) Err() error {
	if len(e.List) == 0 {
		return nil
	}
	if e.Status == 0 {
		e.Status = http.StatusBadRequest
	}
	return e
}
