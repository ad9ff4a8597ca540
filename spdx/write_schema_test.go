package spdx

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// spdxSchemaURL is the $id of testdata/spdx-schema-2.3.json, the official SPDX 2.3 JSON schema
// (spdx/spdx-spec, schemas/spdx-schema.json at tag v2.3).
const spdxSchemaURL = "http://spdx.org/rdf/terms/2.3"

var spdxSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	raw, err := os.ReadFile(filepath.Join("testdata", "spdx-schema-2.3.json"))
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(spdxSchemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(spdxSchemaURL)
})

// validSPDX fails t unless b validates against the SPDX 2.3 JSON schema and keeps the rules of
// the specification that schema does not encode (its 2.3.1 successor adds some of them as
// patterns): idstring SPDXIDs, unique, relationships between elements that exist, a UTC
// creation time, an absolute documentNamespace without "#", locators without spaces, and every
// LicenseRef- used declared.
func validSPDX(t *testing.T, b []byte) {
	t.Helper()
	sch, err := spdxSchema()
	if err != nil {
		t.Fatalf("SPDX schema: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("output does not validate against the SPDX 2.3 schema: %v\n%s", err, b)
	}
	checkSPDXRules(t, b)
}

var (
	idPattern      = regexp.MustCompile(`^SPDXRef-[a-zA-Z0-9.-]+$`)
	createdPattern = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$`)
	licenseRefUse  = regexp.MustCompile(`LicenseRef-[a-zA-Z0-9.-]+`)
)

func checkSPDXRules(t *testing.T, b []byte) {
	t.Helper()
	var d struct {
		SPDXID            string `json:"SPDXID"`
		DocumentNamespace string `json:"documentNamespace"`
		CreationInfo      struct {
			Created string `json:"created"`
		} `json:"creationInfo"`
		Packages []struct {
			SPDXID           string `json:"SPDXID"`
			LicenseConcluded string `json:"licenseConcluded"`
			LicenseDeclared  string `json:"licenseDeclared"`
			ExternalRefs     []struct {
				Locator string `json:"referenceLocator"`
			} `json:"externalRefs"`
		} `json:"packages"`
		Extracted []struct {
			LicenseID string `json:"licenseId"`
		} `json:"hasExtractedLicensingInfos"`
		Relationships []struct {
			From string `json:"spdxElementId"`
			To   string `json:"relatedSpdxElement"`
		} `json:"relationships"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{d.SPDXID: true}
	declared := map[string]bool{}
	for _, e := range d.Extracted {
		if declared[e.LicenseID] {
			t.Errorf("license %s declared twice", e.LicenseID)
		}
		declared[e.LicenseID] = true
	}
	for _, p := range d.Packages {
		if !idPattern.MatchString(p.SPDXID) {
			t.Errorf("SPDXID %q is not an idstring", p.SPDXID)
		}
		if ids[p.SPDXID] {
			t.Errorf("SPDXID %q is used twice", p.SPDXID)
		}
		ids[p.SPDXID] = true
		for _, r := range p.ExternalRefs {
			if strings.ContainsAny(r.Locator, " \t\r\n") || r.Locator == "" {
				t.Errorf("%s: locator %q is empty or has a space", p.SPDXID, r.Locator)
			}
		}
		for _, ref := range licenseRefUse.FindAllString(p.LicenseConcluded+" "+p.LicenseDeclared, -1) {
			if !declared[ref] {
				t.Errorf("%s: %s is used but not declared", p.SPDXID, ref)
			}
		}
	}
	for _, r := range d.Relationships {
		if !ids[r.From] || !ids[r.To] {
			t.Errorf("relationship %s → %s names an element the document does not have", r.From, r.To)
		}
	}
	if !createdPattern.MatchString(d.CreationInfo.Created) {
		t.Errorf("created %q is not a UTC time to the second", d.CreationInfo.Created)
	}
	if u, err := url.Parse(d.DocumentNamespace); err != nil || !u.IsAbs() || strings.Contains(d.DocumentNamespace, "#") {
		t.Errorf("documentNamespace %q is not an absolute URI without #", d.DocumentNamespace)
	}
}

func TestSPDXSchemaRejects(t *testing.T) {
	// The validator is only worth its verdicts if it says no: a package without
	// downloadLocation breaks the schema.
	sch, err := spdxSchema()
	if err != nil {
		t.Fatal(err)
	}
	bad := doc2(t, "X-1-x86_64-Build1", []obj{{"name": "a", "SPDXID": "SPDXRef-a"}},
		obj{"creationInfo": obj{"created": "2026-01-01T00:00:00Z", "creators": []string{"Tool: x"}}})
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err == nil {
		t.Fatal("a package without downloadLocation validates")
	}
	// And the synthetic generate_sbom document, the shape the writer copies, passes.
	validSPDX(t, testdata(t, "SYNTHETIC_obs-product-shape.spdx.json"))
}
