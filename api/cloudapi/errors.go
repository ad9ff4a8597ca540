// Package cloudapi serves the cloud platform API (/v4, /v4beta, /oauth): accounts, billing, users
// and grants, OAuth clients and managed databases, in the real service's JSON wire format.
package cloudapi

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
// Content-Type exactly application/json, every problem of a store.Problems at once. Duplicates are
// 400 here, as the real service answers a taken label or username; a missing resource reads "Not
// found", word for word.
func RenderError(c *fiber.Ctx, err error) error {
	var problems store.Problems
	if errors.As(err, &problems) {
		list := make([]apiError, len(problems))
		for i, p := range problems {
			list[i] = apiError{Reason: p.Reason, Field: p.Field}
		}
		return c.Status(http.StatusBadRequest).JSON(fiber.Map{"errors": list})
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
