// Package apidocs holds the documents that describe the appliance's APIs, embedded in the
// binary so an air-gapped install serves them too: the OpenAPI 3.1 documents of the cloud API
// (derived from the real Linode API document, keeping only the paths the appliance binds) and
// of the explorer API (written from the seed), and the build service's route list with the XML
// documents each route takes and answers. /_appliance/openapi serves them and the /docs page
// renders them; tests in package api check them against the routes actually bound.
package apidocs

import (
	_ "embed" // the documents
)

//go:embed cloud.yaml
var cloud []byte

//go:embed explorer.yaml
var explorer []byte

// Cloud is the cloud API's OpenAPI 3.1 document (YAML). The caller must not modify it.
func Cloud() []byte { return cloud }

// Explorer is the explorer API's OpenAPI 3.1 document (YAML). The caller must not modify it.
func Explorer() []byte { return explorer }

// Documents are the OpenAPI documents by the name they are served under
// (/_appliance/openapi/<name>.yaml), in the order the docs page shows them.
var Documents = []struct {
	Name  string
	Title string
	YAML  func() []byte
}{
	{"cloud", "Cloud API", Cloud},
	{"explorer", "Explorer API", Explorer},
}
