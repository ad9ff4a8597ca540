// Package fault is the error every domain (buildsvc, cloudsvc, explorersvc) returns when a rule
// says no: the wire code its API shows (unknown_project, double_branch_package, …), the field
// it concerns (the cloud API's "field"), a message written for the user, and the store sentinel
// it wraps, which says what kind of no it is (not found, invalid, forbidden, conflict, too
// large). Domains know nothing of HTTP: each API maps the sentinel to a status in one table
// (api/kit) and renders code, field and message in its own body format.
package fault

import (
	"errors"
	"fmt"

	"github.com/pocketforge/pocketforge/store"
)

// Error is a domain's refusal. Its Kind is a store sentinel; errors.Is(err, store.ErrNotFound)
// and the like see through it.
type Error struct {
	// Kind is the store sentinel that classifies the error (store.ErrNotFound, ErrInvalid, …).
	Kind error
	// Code is the machine-readable code of the API that shows it ("unknown_project"); empty for
	// the API's default for Kind.
	Code string
	// Field names the input field the error concerns ("" for none).
	Field string
	// Msg is the sentence shown to the user.
	Msg string
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns Kind, so the sentinel tables see the error's kind.
func (e *Error) Unwrap() error { return e.Kind }

// New returns an Error of kind with code and a formatted message.
func New(kind error, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// NotFound is a missing record (store.ErrNotFound).
func NotFound(code, format string, args ...any) *Error {
	return New(store.ErrNotFound, code, format, args...)
}

// Invalid is input that breaks a rule (store.ErrInvalid).
func Invalid(code, format string, args ...any) *Error {
	return New(store.ErrInvalid, code, format, args...)
}

// Forbidden is an operation the caller may not do (store.ErrForbidden).
func Forbidden(code, format string, args ...any) *Error {
	return New(store.ErrForbidden, code, format, args...)
}

// Conflict is a record in a state that does not allow the operation (store.ErrConflict).
func Conflict(code, format string, args ...any) *Error {
	return New(store.ErrConflict, code, format, args...)
}

// TooLarge is an input over a configured size limit (store.ErrTooLarge).
func TooLarge(code, format string, args ...any) *Error {
	return New(store.ErrTooLarge, code, format, args...)
}

// OnField returns a copy of e that concerns field.
func (e *Error) OnField(field string) *Error {
	c := *e
	c.Field = field
	return &c
}

// Coded gives err the wire code when it is of kind (a store.ErrNotFound from a lookup becomes
// unknown_project), keeping its message; any other error, nil included, passes unchanged.
func Coded(err error, kind error, code string) error {
	if err == nil || !errors.Is(err, kind) {
		return err
	}
	var f *Error
	if errors.As(err, &f) && f.Code != "" {
		return err
	}
	return &Error{Kind: kind, Code: code, Msg: err.Error()}
}

// Code returns the wire code err carries, or "".
func Code(err error) string {
	var f *Error
	if errors.As(err, &f) {
		return f.Code
	}
	return ""
}

// Field returns the field err concerns, or "".
func Field(err error) string {
	var f *Error
	if errors.As(err, &f) {
		return f.Field
	}
	return ""
}
