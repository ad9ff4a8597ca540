package fault

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pocketforge/pocketforge/store"
)

// TestKindsAndCodes: a fault is its kind for errors.Is (so each API's one status table sees
// it), carries its code and field through wrapping, and Coded names a plain store error.
func TestKindsAndCodes(t *testing.T) {
	cases := []struct {
		name  string
		err   error
		kind  error
		code  string
		field string
		msg   string
	}{
		{"not found", NotFound("unknown_project", "Project not found: %s", "x"), store.ErrNotFound, "unknown_project", "", "Project not found: x"},
		{"invalid on a field", Invalid("", "bad label").OnField("label"), store.ErrInvalid, "", "label", "bad label"},
		{"forbidden, wrapped", fmt.Errorf("ctx: %w", Forbidden("project_locked", "locked")), store.ErrForbidden, "project_locked", "", "ctx: locked"},
		{"conflict", Conflict("busy", "busy"), store.ErrConflict, "busy", "", "busy"},
		{"too large", TooLarge("", "%d bytes", 9), store.ErrTooLarge, "", "", "9 bytes"},
		{"coded store error", Coded(store.NotFoundf("Package not found: k"), store.ErrNotFound, "unknown_package"), store.ErrNotFound, "unknown_package", "", "Package not found: k"},
		{"coded keeps its own code", Coded(NotFound("unknown_project", "p"), store.ErrNotFound, "unknown_package"), store.ErrNotFound, "unknown_project", "", "p"},
		{"coded passes other kinds", Coded(store.ErrInvalid, store.ErrNotFound, "unknown_package"), store.ErrInvalid, "", "", "invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !errors.Is(c.err, c.kind) || Code(c.err) != c.code || Field(c.err) != c.field || c.err.Error() != c.msg {
				t.Fatalf("is %v: %v, code %q, field %q, msg %q", c.kind, errors.Is(c.err, c.kind), Code(c.err), Field(c.err), c.err.Error())
			}
		})
	}
	if Coded(nil, store.ErrNotFound, "x") != nil || Code(errors.New("plain")) != "" {
		t.Fatal("nil and plain errors carry nothing")
	}
}
