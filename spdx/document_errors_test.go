package spdx

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestParseDocumentErrors feeds broken documents and checks that each error names the source
// and says what is wrong.
func TestParseDocumentErrors(t *testing.T) {
	synthetic := testdata(t, "SYNTHETIC_obs-product-shape.spdx.json")
	root := rootPkg("P-1-x86_64-Build1")
	ok := func(pkgs ...obj) []obj { return append([]obj{root}, pkgs...) }
	tests := []struct {
		name  string
		doc   []byte
		limit func(*limits)
		want  string
	}{
		{"empty input", nil, nil, "not an SPDX document: empty input"},
		{"white space only", []byte(" \n"), nil, "not an SPDX document: empty input"},
		{"top level array", []byte(`[{"spdxVersion":"SPDX-2.3"}]`), nil, "not an SPDX document: the top level is an array, not an object"},
		{"top level string", []byte(`"SPDX-2.3"`), nil, "not an SPDX document: the top level is a string"},
		{"truncated JSON", synthetic[:len(synthetic)/2], nil, "truncated JSON: the input ends at byte 3491 inside the document"},
		{"truncated in a string", []byte(`{"spdxVersion":"SPDX-2.3","name":"Po`), nil, "truncated JSON"},
		{"truncated in a literal", []byte(`{"spdxVersion":"SPDX-2.3","x":nu`), nil, "truncated JSON"},
		{"wrong spdxVersion", doc2(t, "P", ok(), obj{"spdxVersion": "SPDX-3.0"}), nil, `not an SPDX document: spdxVersion "SPDX-3.0" is not SPDX-2.x`},
		{"spdxVersion not a string", []byte(`{"spdxVersion":2.3}`), nil, "spdxVersion is a number, want a string"},
		{"no version at all (CycloneDX)", []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","components":[]}`), nil, "not an SPDX document: neither spdxVersion nor an SPDX 3 @context"},
		{"packages not an array", doc2(t, "P", nil, obj{"packages": obj{"name": "bash"}}), nil, "packages: not an array but an object"},
		{"package not an object", doc2(t, "P", nil, obj{"packages": []any{root, "bash"}}), nil, "packages[1]: the package is a string, want an object"},
		{"package without name", doc2(t, "P", ok(rpm2("bash", "1-1"), obj{"SPDXID": "SPDXRef-x", "versionInfo": "1"}), nil), nil, "packages[2]: no name"},
		{"name not a string", doc2(t, "P", ok(obj{"name": 12, "SPDXID": "SPDXRef-x"}), nil), nil, "packages[1]: name is a number, want a string"},
		{"externalRefs not an array", doc2(t, "P", ok(obj{"name": "x", "externalRefs": obj{}}), nil), nil, "packages[1]: externalRefs is an object, want an array"},
		{"externalRef not an object", doc2(t, "P", ok(obj{"name": "x", "externalRefs": []any{true}}), nil), nil, "packages[1]: externalRefs[0] is a boolean, want an object"},
		{"broken purl", doc2(t, "P", ok(rpm2("bash", "1-1", purlRef("pkg:rpm"))), nil), nil, `packages[1]: bash: purl "pkg:rpm": no name`},
		{"purl with a bad escape", doc2(t, "P", ok(rpm2("bash", "1-1", purlRef("pkg:rpm/suse/bash@1-1?arch=x86%G4"))), nil), nil, `packages[1]: bash: purl "pkg:rpm/suse/bash@1-1?arch=x86%G4": qualifier arch: invalid URL escape`},
		{"purl without scheme", doc2(t, "P", ok(rpm2("bash", "1-1", purlRef("rpm/suse/bash"))), nil), nil, `no "pkg:" scheme`},
		{"relationships not an array", doc2(t, "P", []obj{{"name": "a", "SPDXID": "a"}}, obj{"relationships": "none"}), nil, "relationships: not an array but a string"},
		{"relationship not an object", doc2(t, "P", []obj{{"name": "a", "SPDXID": "a"}}, obj{"relationships": []any{1}}), nil, "relationships[0]: the relationship is a number, want an object"},
		{"documentDescribes not strings", doc2(t, "P", nil, obj{"documentDescribes": []any{1}}), nil, "documentDescribes[0]: documentDescribes is a number, want a string"},
		{"no root and no name", doc2(t, "", []obj{rpm2("bash", "1-1")}, obj{"name": nil}), nil, "no root package and no document name"},
		{"root without name, document without name", doc2(t, "", []obj{{"SPDXID": rootSPDXID, "name": ""}}, nil), nil, "packages[0]: no name"},
		{"missing comma", []byte(`{"spdxVersion":"SPDX-2.3" "name":"x"}`), nil, `invalid JSON at byte 26: expected ',' or '}' after an object member, found '"'`},
		{"missing colon", []byte(`{"spdxVersion" "SPDX-2.3"}`), nil, "expected ':' after an object key"},
		{"trailing comma", []byte(`{"spdxVersion":"SPDX-2.3","packages":[{"name":"a"},]}`), nil, "packages[1]: invalid JSON at byte 51: expected a value, found ']'"},
		{"trailing comma in skipped value", []byte(`{"spdxVersion":"SPDX-2.3","files":[1,]}`), nil, "expected a value, found ']'"},
		{"bad number", []byte(`{"spdxVersion":"SPDX-2.3","x":01}`), nil, "expected ',' or '}' after an object member, found '1'"},
		{"bad literal", []byte(`{"spdxVersion":"SPDX-2.3","x":nil}`), nil, "invalid literal, expected null"},
		{"invalid escape", []byte(`{"spdxVersion":"SPDX-2.3","name":"a\x"}`), nil, `invalid escape "\\x" in a string`},
		{"control character", []byte("{\"spdxVersion\":\"SPDX-2.3\",\"name\":\"a\tb\"}"), nil, "invalid JSON at byte 35: control character 0x09 in a string"},
		{"non-string key", []byte(`{spdxVersion:"SPDX-2.3"}`), nil, "expected a string key, found 's'"},
		{"data after the document", append(doc2(t, "P", ok(), nil), []byte("{}")...), nil, "invalid JSON: data after the document"},
		{"deep nesting", []byte(`{"spdxVersion":"SPDX-2.3","x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`), nil, "nested deeper than 512 levels"},
		{"@context not SPDX 3", []byte(`{"@context":"https://schema.org","@graph":[]}`), nil, `@context "https://schema.org" does not name SPDX 3`},
		{"both SPDX 2 and 3", []byte(`{"spdxVersion":"SPDX-2.3","@context":"https://spdx.org/rdf/3.0.1/spdx-context.jsonld"}`), nil, "both SPDX 2 and SPDX 3 keys"},
		{"@graph not an array", []byte(`{"@context":"https://spdx.org/rdf/3.0.1/spdx-context.jsonld","@graph":{}}`), nil, "@graph: not an array but an object"},
		{"SPDX 3 package without name", doc3(t, obj{"type": "software_Package", "spdxId": "urn:x"}), nil, "@graph[0]: no name"},
		{"SPDX 3 name not a string", doc3(t, obj{"type": "software_Package", "spdxId": "urn:x", "name": 1}), nil, "@graph[0]: name is a number, want a string"},
		{"SPDX 3 locator not strings", doc3(t, obj{"type": "software_Package", "name": "x", "externalRef": []obj{{"locator": []int{1}}}}), nil, "@graph[0]: externalRef.locator is a number, want a string"},
		{"SPDX 3 broken purl", doc3(t, obj{"type": "software_Package", "name": "x", "software_packageUrl": "pkg:"}), nil, `@graph[0]: x: purl "pkg:": no type`},
		{"SPDX 3 without root or name", doc3(t, obj{"type": "SpdxDocument"}), nil, "no root package and no document name"},
		{"too many packages", doc2(t, "P", ok(rpm2("a", "1"), rpm2("b", "1")), nil), func(l *limits) { l.docPackages = 2 }, "packages[2]: more than 2 packages (MaxDocumentPackages)"},
		{"too many SPDX 3 packages", doc3(t, pkg3("a", "a", "1", nil), pkg3("b", "b", "1", nil)), func(l *limits) { l.docPackages = 1 }, "@graph[1]: more than 1 packages"},
		{"too large", synthetic, func(l *limits) { l.docBytes = 1000 }, "the document is larger than 1000 bytes (MaxDocumentBytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := defaultLimits
			if tt.limit != nil {
				tt.limit(&lim)
			}
			p, err := parseDocument(bytes.NewReader(tt.doc), "bad.spdx.json", lim)
			if err == nil {
				t.Fatalf("no error; product %+v", p)
			}
			if !strings.HasPrefix(err.Error(), "bad.spdx.json: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\nwant it to start with the source and contain %q", err, tt.want)
			}
			if !reflect.DeepEqual(p, Product{}) {
				t.Errorf("partial product %+v returned with the error", p)
			}
		})
	}
}

// failingReader returns data, then an error that is not the end of input.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestParseDocumentReadError checks that a failing reader's error is wrapped, not mistaken
// for truncation, so the caller can tell a network error from a broken file.
func TestParseDocumentReadError(t *testing.T) {
	boom := errors.New("connection reset")
	_, err := ParseDocument(&failingReader{data: []byte(`{"spdxVersion":"SPDX-2.3","packages":[`), err: boom}, "net.spdx.json")
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "net.spdx.json: ") {
		t.Errorf("error %v, want it to wrap %v and name the source", err, boom)
	}
	if _, err := ParseDocument(&failingReader{err: io.ErrUnexpectedEOF}, "x"); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error %v, want io.ErrUnexpectedEOF wrapped", err)
	}
}
