package spdx

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/spdxcheck"
)

// validSPDX fails t unless b validates against the SPDX 2.3 JSON schema and keeps the rules of
// the specification that schema does not encode (its 2.3.1 successor adds some of them as
// patterns): idstring SPDXIDs, unique, relationships between elements that exist, a UTC
// creation time, an absolute documentNamespace without "#", locators without spaces, and every
// LicenseRef- used declared.
func validSPDX(t *testing.T, b []byte) {
	t.Helper()
	if err := spdxcheck.Validate(b); err != nil {
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
	bad := doc2(t, "X-1-x86_64-Build1", []obj{{"name": "a", "SPDXID": "SPDXRef-a"}},
		obj{"creationInfo": obj{"created": "2026-01-01T00:00:00Z", "creators": []string{"Tool: x"}}})
	if err := spdxcheck.Validate(bad); err == nil {
		t.Fatal("a package without downloadLocation validates")
	}
	// And the synthetic generate_sbom document, the shape the writer copies, passes.
	validSPDX(t, testdata(t, "SYNTHETIC_obs-product-shape.spdx.json"))
}
