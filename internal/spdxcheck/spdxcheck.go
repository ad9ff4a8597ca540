// Package spdxcheck validates SPDX 2.3 JSON documents against the official schema, for the
// tests of everything that writes one (the spdx package's writer, the farm's product builds,
// the end-to-end tests of the binary). The schema is read from the source tree
// (spdx/testdata/spdx-schema-2.3.json, spdx/spdx-spec at tag v2.3), so this package serves
// tests only; nothing in the binary imports it.
package spdxcheck

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the schema's $id.
const schemaURL = "http://spdx.org/rdf/terms/2.3"

var schema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		return nil, fmt.Errorf("spdxcheck: cannot locate the source tree")
	}
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "spdx", "testdata", "spdx-schema-2.3.json"))
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
})

// Validate reports whether b is JSON that validates against the SPDX 2.3 JSON schema.
func Validate(b []byte) error {
	sch, err := schema()
	if err != nil {
		return fmt.Errorf("SPDX schema: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return sch.Validate(inst)
}
