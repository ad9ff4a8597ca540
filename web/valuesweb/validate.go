package valuesweb

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/values"
	"github.com/pocketforge/pocketforge/web"
	"gopkg.in/yaml.v3"
)

// view is the validator page's data: the form as sent, and the verdict once there is one.
type view struct {
	// Text is the pasted document, drawn back into the textarea (an uploaded file is not).
	Text string
	// FileName names the uploaded file the verdict is about ("" for the textarea).
	FileName   string
	NoDefaults bool
	// Checked says a document was validated (Valid and Violations hold the verdict).
	Checked    bool
	Valid      bool
	Violations []values.Violation
	// Merged is the valid document as validated, as YAML (merged over the defaults unless
	// NoDefaults); "" when it is too large to show.
	Merged string
	// Problem says why the input could not be validated at all (not YAML, too large, empty).
	Problem string
	MaxSize int
}

// maxShown caps the merged values drawn on the page, so it stays small.
const maxShown = 64 << 10

// form draws the empty validator.
func (h *handlers) form(c *fiber.Ctx) error {
	return h.render(c, http.StatusOK, view{})
}

func (h *handlers) render(c *fiber.Ctx, status int, v view) error {
	v.MaxSize = values.MaxSize
	return h.site.Render(c, status, "Values validator", web.SectionValues, web.PageOf(valuesPage, v))
}

// validate reads the document (the uploaded file when one was chosen, else the textarea) and
// answers with values.Validate's verdict: 200 whether or not it is valid (the page worked); 400
// when it is not a values document, 413 when it is over values.MaxSize.
func (h *handlers) validate(c *fiber.Ctx) error {
	v := view{NoDefaults: c.FormValue("nodefaults") != ""}
	doc, err := h.input(c, &v)
	if err != nil {
		v.Problem = err.Error()
		status := http.StatusBadRequest
		if errors.Is(err, values.ErrTooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		return h.render(c, status, v)
	}
	vs, err := values.Validate(doc, values.Options{NoDefaults: v.NoDefaults})
	var pe *values.ParseError
	switch {
	case errors.As(err, &pe):
		v.Problem = "Not a values document: " + pe.Error()
		return h.render(c, http.StatusBadRequest, v)
	case errors.Is(err, values.ErrTooLarge):
		v.Problem = err.Error()
		return h.render(c, http.StatusRequestEntityTooLarge, v)
	case err != nil:
		return err // the embedded schema failed to compile: a 500, logged
	}
	v.Checked, v.Valid, v.Violations = true, len(vs) == 0, vs
	if v.Valid {
		v.Merged = merged(doc, v.NoDefaults)
	}
	return h.render(c, http.StatusOK, v)
}

// input returns the document to validate: the uploaded file when one was chosen, else the
// pasted text; at most values.MaxSize bytes (ErrTooLarge past it).
func (h *handlers) input(c *fiber.Ctx, v *view) ([]byte, error) {
	if fh, err := c.FormFile("file"); err == nil && fh.Filename != "" {
		v.FileName = fh.Filename
		if fh.Size > values.MaxSize {
			return nil, fmt.Errorf("%s is %d bytes: %w", fh.Filename, fh.Size, values.ErrTooLarge)
		}
		f, err := fh.Open()
		if err != nil {
			return nil, fmt.Errorf("the upload could not be read: %v", err)
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, values.MaxSize+1))
		if err != nil {
			return nil, fmt.Errorf("the upload could not be read: %v", err)
		}
		if len(data) > values.MaxSize {
			return nil, fmt.Errorf("%s: %w", fh.Filename, values.ErrTooLarge)
		}
		if len(data) == 0 {
			return nil, fmt.Errorf("%s is empty: choose a values file, or paste one", fh.Filename)
		}
		return data, nil
	}
	text := c.FormValue("values")
	if len(text) > values.MaxSize {
		return nil, values.ErrTooLarge
	}
	v.Text = text
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("paste a values file, or choose one to upload")
	}
	return []byte(text), nil
}

// defaults are the chart's default values, parsed once (values.Validate merges over the same).
var defaults = sync.OnceValues(func() (map[string]any, error) { return values.Parse(values.DefaultsYAML()) })

// merged renders the valid document as it was validated — merged over the defaults as helm
// does (values.Merge), unless noDefaults — as YAML; "" when it cannot or is too large to show.
func merged(doc []byte, noDefaults bool) string {
	m, err := values.Parse(doc)
	if err != nil {
		return ""
	}
	if !noDefaults {
		d, err := defaults()
		if err != nil {
			return ""
		}
		m = values.Merge(d, m)
	}
	out, err := yaml.Marshal(plain(m))
	if err != nil || len(out) > maxShown {
		return ""
	}
	return string(out)
}

// plain makes a parsed document printable as YAML: the parser keeps numbers as json.Number
// (exact), which yaml.v3 would print as quoted strings.
func plain(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = plain(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plain(x)
		}
		return out
	case json.Number:
		return number(v)
	}
	return v
}

// number is a json.Number printed as a YAML number, digits unchanged.
type number string

// MarshalYAML writes n as an int or a float scalar.
func (n number) MarshalYAML() (any, error) {
	tag := "!!int"
	if strings.ContainsAny(string(n), ".eE") {
		tag = "!!float"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(n)}, nil
}
