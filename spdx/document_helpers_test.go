package spdx

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Builders of small SBOMs for table tests, shaped like generate_sbom's output.

type obj = map[string]any

// doc2 returns an SPDX 2.3 document named name with the given packages, and extra top-level
// members (which replace the defaults when they share a key).
func doc2(t testing.TB, name string, pkgs []obj, extra obj) []byte {
	t.Helper()
	d := obj{"spdxVersion": "SPDX-2.3", "dataLicense": "CC0-1.0", "SPDXID": documentSPDXID, "name": name, "packages": pkgs}
	for k, v := range extra {
		if v == nil {
			delete(d, k)
			continue
		}
		d[k] = v
	}
	return marshal(t, d)
}

// rootPkg is generate_sbom's product package.
func rootPkg(name string, refs ...obj) obj {
	return obj{"name": name, "SPDXID": rootSPDXID, "primaryPackagePurpose": "LIBRARY", "externalRefs": refs}
}

// rpm2 is an SPDX 2 package of an RPM.
func rpm2(name, version string, refs ...obj) obj {
	return obj{"name": name, "SPDXID": "SPDXRef-Package-rpm-" + name, "versionInfo": version,
		"sourceInfo": "acquired package info from RPM DB", "externalRefs": refs}
}

func purlRef(loc string) obj {
	return obj{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl", "referenceLocator": loc}
}

func vcsRef(loc string) obj {
	return obj{"referenceCategory": "OTHER", "referenceType": "vcs", "referenceLocator": loc}
}

func distRef(loc string) obj {
	return obj{"referenceCategory": "OTHER", "referenceType": "obs-disturl", "referenceLocator": loc}
}

// marshal encodes v as generate_sbom does: indented, "&" not escaped.
func marshal(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// parse runs ParseDocument over b.
func parse(t testing.TB, b []byte) Product {
	t.Helper()
	p, err := ParseDocument(bytes.NewReader(b), "test.spdx.json")
	if err != nil {
		t.Fatalf("ParseDocument: %v", err)
	}
	return p
}

// testdata reads a file of testdata/.
func testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
