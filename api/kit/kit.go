// Package kit holds the HTTP pieces every pocketforge API shares — the error value handlers
// return, the status table for the store's sentinels, request ids, the request journal and
// readiness — so that api (which mounts everything) and each API package (which renders its own
// error bodies) agree without importing each other.
package kit

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
)

// Error is an HTTP error a handler returns; each API renders it in its own body format.
type Error struct {
	// Status is the HTTP status.
	Status int
	// Code is a machine-readable code, for APIs that carry one (the build API's
	// <status code="…">); empty means the API's default for Status.
	Code string
	// Reason is the human-readable explanation shown to the client.
	Reason string
	// Field names the submitted field the error concerns, for APIs that carry one (cloud).
	Field string
}

// Error returns the reason.
func (e *Error) Error() string { return e.Reason }

// Errorf returns an *Error with a formatted reason.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Reason: fmt.Sprintf(format, args...)}
}

// statusOfSentinel is the one table of the store's sentinels (their doc comments name the same
// statuses). An API that renders one differently (the cloud API answers duplicates with 400)
// says so in its own renderer.
var statusOfSentinel = []struct {
	err    error
	status int
}{
	{store.ErrNotFound, http.StatusNotFound},
	{store.ErrExists, http.StatusConflict},
	{store.ErrInvalid, http.StatusBadRequest},
	{store.ErrConflict, http.StatusConflict},
	{store.ErrForbidden, http.StatusForbidden},
	{store.ErrTooLarge, http.StatusRequestEntityTooLarge},
	{store.ErrNewerSchema, http.StatusBadRequest},
	{store.ErrNotPocketforge, http.StatusBadRequest},
	{store.ErrUnavailable, http.StatusServiceUnavailable},
	{store.ErrCommitTooLarge, http.StatusRequestEntityTooLarge},
}

// Status maps err to its HTTP status: an *Error or *fiber.Error carries its own; a store sentinel
// maps by the table above; anything else is a 500.
func Status(err error) int {
	var ke *Error
	if errors.As(err, &ke) {
		return ke.Status
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fe.Code
	}
	for _, s := range statusOfSentinel {
		if errors.Is(err, s.err) {
			return s.status
		}
	}
	return http.StatusInternalServerError
}

// Reason returns the text to show the client for err with the given status. An *Error's reason
// is written for clients and shown as is; any other error at 5xx is internal and never shown (it
// is logged with the request id instead); fiber's own errors ("Cannot GET /x") are replaced by
// the status text, which every API words the same way.
func Reason(err error, status int) string {
	var ke *Error
	var fe *fault.Error
	switch {
	case errors.As(err, &ke):
		return ke.Reason
	case errors.As(err, &fe):
		return fe.Msg
	case status >= 500, isFiber(err):
		return http.StatusText(status)
	}
	return err.Error()
}

func isFiber(err error) bool {
	var fe *fiber.Error
	return errors.As(err, &fe)
}

// Field returns the field an error concerns, if any: an *Error's, or a domain's fault.Error's.
func Field(err error) string {
	var ke *Error
	if errors.As(err, &ke) {
		return ke.Field
	}
	return fault.Field(err)
}

// Code returns the machine-readable code an error carries, if any: an *Error's, or a domain's
// fault.Error's.
func Code(err error) string {
	var ke *Error
	if errors.As(err, &ke) {
		return ke.Code
	}
	return fault.Code(err)
}
