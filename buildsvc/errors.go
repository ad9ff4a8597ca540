package buildsvc

import (
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
)

// The build service's refusals. Every one carries the service's error code; its message is a
// sentence, because osc prints it to the user.

// Invalid is a validation_failed for a document of kind ("project", "package", "link"),
// worded as the service's schema errors are: "project validation error: …".
func Invalid(kind, format string, args ...any) error {
	e := fault.Invalid("validation_failed", format, args...)
	e.Msg = kind + " validation error: " + e.Msg
	return e
}

// Forbidden is a refusal of the operation to the caller, with code.
func Forbidden(code, format string, args ...any) error {
	return fault.Forbidden(code, format, args...)
}

// BadRequest is an input the service refuses, with code.
func BadRequest(code, format string, args ...any) error {
	return fault.Invalid(code, format, args...)
}

// NotFoundAs gives a store not-found error the service's code (unknown_project, …), keeping
// its message; other errors pass unchanged.
func NotFoundAs(err error, code string) error { return fault.Coded(err, store.ErrNotFound, code) }

// LinkError is the answer to a request for the expanded tree of a broken link: the backend's
// 400 with the reason (osc prints it) and the backend's numeric code.
func LinkError(msg string) error { return fault.Invalid("400", "%s", msg) }

// NoSuchRevision and NoSuchFile are the backend's 404s, passed through with the numeric code.
func NoSuchRevision() error { return fault.NotFound("404", "no such revision") }

// NoSuchFile is the backend's 404 for a file the tree does not hold.
func NoSuchFile(name string) error { return fault.NotFound("404", "%s: no such file", name) }

// ProjectNotFound is the 404 of a missing — or hidden — project.
func ProjectNotFound(name string) error {
	return fault.NotFound("unknown_project", "Project not found: %s", name)
}
