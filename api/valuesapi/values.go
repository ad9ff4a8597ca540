package valuesapi

import (
	"errors"
	"mime"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/values"
)

// handlers hold the two documents, copied once: they never change while the binary runs.
type handlers struct {
	schemaJSON   []byte
	defaultsYAML []byte
}

func newHandlers() *handlers {
	return &handlers{schemaJSON: values.Schema(), defaultsYAML: values.DefaultsYAML()}
}

// schema answers GET /deploy/values/schema.json with the JSON Schema, typed as one
// (application/schema+json), so editors and validators that fetch it by URL know what it is.
func (h *handlers) schema(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "application/schema+json")
	return c.Send(h.schemaJSON)
}

// defaults answers GET /deploy/values/defaults.yaml with the default values, a starting point
// for a values file.
func (h *handlers) defaults(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "application/yaml")
	return c.Send(h.defaultsYAML)
}

// result is the body of a validation: 200 whether or not the values are valid, because the
// request succeeded; the verdict is in valid and errors.
type result struct {
	Valid  bool               `json:"valid"`
	Errors []values.Violation `json:"errors"`
}

// parseFailure is the 400 body for a document that is not values: the explorer's {"error"} plus
// where the problem is, when known.
type parseFailure struct {
	Error  string `json:"error"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// validate answers POST /deploy/values/validate: the body is a values file (YAML or JSON, by
// Content-Type when it names one, else by content), merged over the defaults unless
// ?defaults=false.
func (h *handlers) validate(c *fiber.Ctx) error {
	body := c.Body()
	if len(body) > values.MaxSize {
		return kit.Errorf(http.StatusRequestEntityTooLarge, "values document of %d bytes; the limit is %d bytes (1 MiB)", len(body), values.MaxSize)
	}
	opts := values.Options{Format: formatOf(c.Get(fiber.HeaderContentType))}
	switch d := c.Query("defaults"); d {
	case "", "true", "1":
	case "false", "0":
		opts.NoDefaults = true
	default:
		return kit.Errorf(http.StatusBadRequest, "defaults must be true or false, not %q", d)
	}
	vs, err := values.Validate(body, opts)
	var pe *values.ParseError
	switch {
	case errors.As(err, &pe):
		return c.Status(http.StatusBadRequest).JSON(parseFailure{Error: pe.Error(), Line: pe.Line, Column: pe.Column})
	case errors.Is(err, values.ErrTooLarge):
		return kit.Errorf(http.StatusRequestEntityTooLarge, "%v", err)
	case err != nil:
		return err // the embedded schema failed to compile: a 500, logged
	}
	if vs == nil {
		vs = []values.Violation{}
	}
	return c.JSON(result{Valid: len(vs) == 0, Errors: vs})
}

// formatOf maps a request's Content-Type to how its body is read: a JSON type is read as JSON
// only (so a broken body gets JSON's error), a YAML type as YAML, anything else — curl's default
// form type, none at all — by its content.
func formatOf(contentType string) values.Format {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return values.Auto
	}
	switch {
	case mt == "application/json", mt == "text/json", strings.HasSuffix(mt, "+json"):
		return values.JSON
	case strings.HasSuffix(mt, "/yaml"), strings.HasSuffix(mt, "/x-yaml"), strings.HasSuffix(mt, "+yaml"):
		return values.YAML
	}
	return values.Auto
}
