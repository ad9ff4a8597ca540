// Package values owns the deployment values of the load-balancer chart (a controller and a
// per-node speaker): the JSON Schema (draft-07) written from the spec, the chart's default values,
// and the validator that tells an operator, offline and at once, whether a values file is valid
// and, if not, exactly where and why — what `helm lint` would say, without helm or a cluster.
//
// Both documents are embedded, the schema is compiled from the embedded bytes only (no $ref or
// $schema is ever fetched), and a values file is read as helm reads one: YAML or JSON, merged over
// the defaults before it is validated. The package imports nothing of pocketforge's.
package values

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MaxSize is the largest values document read, in bytes (1 MiB), by `pocketforge values validate`
// and POST /deploy/values/validate alike. A real values file is a few KiB; the bound keeps a
// mistaken upload (a log, an image) from costing memory and time.
const MaxSize = 1 << 20

// ErrTooLarge is returned for a document over MaxSize; HTTP answers it with 413.
var ErrTooLarge = fmt.Errorf("values document larger than %d bytes (1 MiB)", MaxSize)

// schemaURL is the name the embedded schema is compiled under; it is never fetched.
const schemaURL = "file:///values.schema.json"

//go:embed values.schema.json
var schemaJSON []byte

//go:embed defaults.yaml
var defaultsYAML []byte

// Schema returns the values schema (JSON Schema draft-07) as served and printed. It is a copy,
// so a caller cannot change what the validator compiled.
func Schema() []byte { return bytes.Clone(schemaJSON) }

// DefaultsYAML returns the chart's default values as YAML, the document a values file is merged
// over. It is a copy for the same reason as Schema's.
func DefaultsYAML() []byte { return bytes.Clone(defaultsYAML) }

// Options say how Validate reads a document.
type Options struct {
	// NoDefaults validates the document alone instead of merged over the defaults. Helm never
	// does that (it validates the coalesced values), so required keys the defaults provide are
	// then reported missing; it is for checking a complete values file on its own.
	NoDefaults bool
	// Format is how the document is read; the zero value, Auto, tells YAML and JSON apart by content.
	Format Format
}

// Validate reads data (YAML or JSON, at most MaxSize bytes), merges it over the defaults as helm
// does (unless opts.NoDefaults) and validates the result against the schema. It returns every
// violation, sorted by path (none means valid), or an error when data is not a values document:
// ErrTooLarge, or a *ParseError naming the line and column. It never panics, whatever data holds.
func Validate(data []byte, opts Options) ([]Violation, error) {
	doc, err := ParseAs(data, opts.Format)
	if err != nil {
		return nil, err
	}
	if !opts.NoDefaults {
		defaults, err := loadDefaults()
		if err != nil {
			return nil, err
		}
		doc = Merge(defaults, doc)
	}
	return Check(doc)
}

// Check validates already-parsed values (maps of string to any, []any, json.Number, string, bool,
// nil — what Parse returns) against the schema, with no merging. It exists so that callers that
// build values themselves see the same violations as a file would get.
func Check(doc map[string]any) ([]Violation, error) {
	sch, err := compiled()
	if err != nil {
		return nil, err
	}
	err = sch.Validate(doc)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, fmt.Errorf("validating values: %w", err)
	}
	return flatten(ve, doc), nil
}

// compiled is the schema compiled once from the embedded bytes. The compiler's loader refuses
// every URL: the schema is self-contained, and a self-contained appliance must never fetch a
// $ref over the network (the draft-07 metaschema is built into the library).
var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("embedded values schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseLoader(refuseLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("embedded values schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("embedded values schema: %w", err)
	}
	return sch, nil
})

// refuseLoader is the compiler's only loader: it loads nothing, so a $ref to anything but the
// embedded document is an error at compile time rather than a network request.
type refuseLoader struct{}

// Load refuses url.
func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema references are resolved from the embedded schema only; refusing to load %s", url)
}

// loadDefaults is the embedded defaults parsed once. Merge never modifies its inputs, so every
// validation shares this one copy.
var loadDefaults = sync.OnceValues(func() (map[string]any, error) {
	doc, err := Parse(defaultsYAML)
	if err != nil {
		return nil, fmt.Errorf("embedded default values: %w", err)
	}
	return doc, nil
})

// Violation is one way a document breaks the schema.
type Violation struct {
	// Path is the JSON pointer (RFC 6901) of the value concerned, "/speaker/memberlist/mlBindPort";
	// for a missing required key, the path the key would have; "" is the whole document.
	Path string `json:"path"`
	// Rule is the schema keyword that failed: type, required, enum, minimum, maximum,
	// additionalProperties, …
	Rule string `json:"rule"`
	// Message says what was found and what the schema wants, "got string \"yes\", want boolean".
	Message string `json:"message"`

	tokens []string // Path, unescaped, for sorting array indexes numerically
}

// String renders the violation as the CLI prints it: "/path: rule: message".
func (v Violation) String() string {
	path := v.Path
	if path == "" {
		path = "/"
	}
	return path + ": " + v.Rule + ": " + v.Message
}

// ParseError says why a document is not a values document, and where.
type ParseError struct {
	// Line and Column are 1-based; 0 when the parser could not tell.
	Line, Column int
	// Msg is the problem, "duplicate key \"speaker\" (first at line 3, column 1)".
	Msg string
}

// Error renders "line 3, column 5: msg", leaving out what is unknown.
func (e *ParseError) Error() string {
	var b strings.Builder
	switch {
	case e.Line > 0 && e.Column > 0:
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	b.WriteString(e.Msg)
	return b.String()
}
