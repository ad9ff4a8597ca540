package spdx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkParseDocument parses a generated SPDX 2.3 product of 100,000 packages shaped like
// generate_sbom's (purl, vcs and obs-disturl references, CONTAINS relationships, indented
// like the published files). The import budget is 5,000 packages/s end to end; parsing is
// meant to stay far above it (aim: 200,000/s) so indexing dominates.
func BenchmarkParseDocument(b *testing.B) {
	const n = 100_000
	doc := generatedDocument(n)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		prod, err := ParseDocument(bytes.NewReader(doc), "bench.spdx.json")
		if err != nil {
			b.Fatal(err)
		}
		if len(prod.Packages) != n {
			b.Fatalf("%d packages, want %d", len(prod.Packages), n)
		}
	}
	b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "packages/s")
}

// BenchmarkDecodeRaw is what encoding/json alone costs for the same document: one Unmarshal
// into structs holding just the fields ParseDocument reads, no mapping, no streaming. The
// lexer behind ParseDocument exists because this is too slow for the aim.
func BenchmarkDecodeRaw(b *testing.B) {
	const n = 100_000
	doc := generatedDocument(n)
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	for b.Loop() {
		var v struct {
			Packages []struct {
				SPDXID, Name, VersionInfo, SourceInfo string
				ExternalRefs                          []struct{ ReferenceType, ReferenceLocator string }
			} `json:"packages"`
		}
		if err := json.Unmarshal(doc, &v); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "packages/s")
}

// generatedDocument returns an SPDX 2.3 document with a root and n RPM packages.
func generatedDocument(n int) []byte {
	type ref = map[string]string
	pkgs := make([]map[string]any, 0, n+1)
	rels := make([]map[string]string, 0, n+1)
	pkgs = append(pkgs, map[string]any{
		"name": "Bench-1.0-x86_64-Build1.1", "SPDXID": rootSPDXID, "primaryPackagePurpose": "LIBRARY",
		"externalRefs": []ref{{"referenceCategory": "OTHER", "referenceType": "obs-disturl",
			"referenceLocator": "obs://build.example.org/Bench:1.0/product/f5bf48aa40cad7891eb709fcf1fde128-000productcompose"}},
	})
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("package-%06d", i)
		id := fmt.Sprintf("SPDXRef-Package-rpm-%s-%032x", name, i)
		version := fmt.Sprintf("1.%d-160000.2.2", i%97)
		pkgs = append(pkgs, map[string]any{
			"name": name, "SPDXID": id, "versionInfo": version,
			"supplier": "Organization: openSUSE", "originator": "Organization: openSUSE",
			"downloadLocation": "NOASSERTION", "sourceInfo": "acquired package info from RPM DB",
			"homepage": "https://example.org/" + name, "licenseConcluded": "GPL-2.0-or-later",
			"licenseDeclared": "GPL-2.0-or-later", "copyrightText": "NOASSERTION",
			"externalRefs": []ref{
				{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl",
					"referenceLocator": "pkg:rpm/opensuse/" + name + "@" + version + "?arch=x86_64&upstream=" + name + "-" + version + ".src.rpm&distro=opensuse-leap-16.0"},
				{"referenceCategory": "OTHER", "referenceType": "vcs",
					"referenceLocator": fmt.Sprintf("https://src.opensuse.org/pool/%s?trackingbranch=leap-16.0#%064x", name, i)},
				{"referenceCategory": "OTHER", "referenceType": "obs-disturl",
					"referenceLocator": fmt.Sprintf("obs://build.opensuse.org/openSUSE:Backports:SLE-16.0/standard/%032x-%s", i, name)},
			},
		})
		rels = append(rels, map[string]string{"spdxElementId": rootSPDXID, "relatedSpdxElement": id, "relationshipType": "CONTAINS"})
	}
	rels = append(rels, map[string]string{"spdxElementId": documentSPDXID, "relatedSpdxElement": rootSPDXID, "relationshipType": "DESCRIBES"})
	var doc bytes.Buffer
	enc := json.NewEncoder(&doc)
	enc.SetEscapeHTML(false) // generate_sbom writes "&" in purls as it is
	enc.SetIndent("", "  ")
	err := enc.Encode(map[string]any{
		"spdxVersion": "SPDX-2.3", "dataLicense": "CC0-1.0", "SPDXID": documentSPDXID,
		"name": "Bench-1.0-x86_64-Build1.1", "packages": pkgs, "relationships": rels,
	})
	if err != nil {
		panic(err)
	}
	return doc.Bytes()
}
