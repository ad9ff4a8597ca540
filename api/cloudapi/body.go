package cloudapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store"
)

// body is a request's JSON object, decoded field by field so that every wrong field is reported
// at once (the cloud API's rule) and unknown keys are ignored (as the real service does).
type body struct {
	fields   map[string]json.RawMessage
	problems store.Problems
}

// parseBody reads the request body as a JSON object. An empty body is an empty object (linodego
// sends {} or nothing for actions).
func parseBody(c *fiber.Ctx) (*body, error) {
	b := &body{fields: map[string]json.RawMessage{}}
	raw := bytes.TrimSpace(c.Body())
	if len(raw) == 0 {
		return b, nil
	}
	if raw[0] != '{' {
		return nil, kit.Errorf(http.StatusBadRequest, "The request body must be a JSON object")
	}
	if err := json.Unmarshal(raw, &b.fields); err != nil {
		return nil, kit.Errorf(http.StatusBadRequest, "Malformed JSON: %v", err)
	}
	return b, nil
}

// has reports whether the key was sent (even as null).
func (b *body) has(name string) bool { _, ok := b.fields[name]; return ok }

// isNull reports whether the key was sent as null.
func (b *body) isNull(name string) bool { return string(b.fields[name]) == "null" }

// decode decodes one field into dst, recording "Must be a <kind>" when it has the wrong type.
// It reports whether a non-null value was decoded.
func (b *body) decode(name, kind string, dst any) bool {
	raw, ok := b.fields[name]
	if !ok || string(raw) == "null" {
		return false
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		b.problems.Add(name, "Must be "+kind)
		return false
	}
	return true
}

// str returns a string field (nil when absent or null).
func (b *body) str(name string) *string {
	var s string
	if !b.decode(name, "a string", &s) {
		return nil
	}
	return &s
}

// boolean returns a boolean field (nil when absent or null).
func (b *body) boolean(name string) *bool {
	var v bool
	if !b.decode(name, "a boolean", &v) {
		return nil
	}
	return &v
}

// timestamp returns a time field in the cloud format (or RFC 3339), nil when absent or null.
func (b *body) timestamp(name string) *time.Time {
	s := b.str(name)
	if s == nil {
		return nil
	}
	t, err := parseCloudTime(*s)
	if err != nil {
		b.problems.Add(name, "Must be a date-time like 2026-01-02T03:04:05")
		return nil
	}
	return &t
}

// require records a missing required field.
func (b *body) require(names ...string) {
	for _, n := range names {
		if !b.has(n) || b.isNull(n) {
			b.problems.Add(n, n+" is required")
		}
	}
}

// err returns the problems found so far. Operations that check more of the input in the domain
// take b.problems instead, to report them together with their own (cloudsvc.CreateUser).
func (b *body) err() error { return b.problems.Err() }

// cloudTime is the cloud API's time layout: UTC, no zone, no fraction.
const cloudTime = "2006-01-02T15:04:05"

// formatTime renders t in the cloud layout.
func formatTime(t time.Time) string { return t.UTC().Format(cloudTime) }

// formatTimePtr renders an optional time (nil → null).
func formatTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := formatTime(*t)
	return &s
}

// parseCloudTime reads the cloud layout (UTC) or RFC 3339.
func parseCloudTime(s string) (time.Time, error) {
	if t, err := time.ParseInLocation(cloudTime, s, time.UTC); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}
