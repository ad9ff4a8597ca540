package cloudapi

import (
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store"
)

func TestRenderError(t *testing.T) {
	var multi store.Problems
	multi.Add("username", "Username must be 3-32 characters")
	multi.Add("email", "Must be a valid email address")
	cases := []struct {
		name   string
		err    error
		status int
		body   string
	}{
		{"not found sentinel", fmt.Errorf("user %q: %w", "x", store.ErrNotFound), 404, `{"errors":[{"reason":"Not found"}]}`},
		{"duplicate is 400", fmt.Errorf("username taken: %w", store.ErrExists), 400, `{"errors":[{"reason":"username taken: already exists"}]}`},
		{"field error", &kit.Error{Status: 400, Reason: "Must be one of a, b", Field: "type"}, 400, `{"errors":[{"reason":"Must be one of a, b","field":"type"}]}`},
		{"several at once", multi.Err(), 400, `{"errors":[{"reason":"Username must be 3-32 characters","field":"username"},{"reason":"Must be a valid email address","field":"email"}]}`},
		{"internal error hidden", errors.New("disk on fire"), 500, `{"errors":[{"reason":"Internal Server Error"}]}`},
		{"rate limited", fiber.ErrTooManyRequests, 429, `{"errors":[{"reason":"Too many requests"}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			app := fiber.New(fiber.Config{ErrorHandler: RenderError})
			app.Get("/", func(*fiber.Ctx) error { return c.err })
			resp, _ := app.Test(httptest.NewRequest("GET", "/", nil))
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status || string(body) != c.body || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %s %q", resp.StatusCode, body, resp.Header.Get("Content-Type"))
			}
		})
	}
	if (store.Problems{}).Err() != nil {
		t.Fatal("empty Problems must be no error")
	}
}
