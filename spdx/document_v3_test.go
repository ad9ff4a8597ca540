package spdx

import (
	"reflect"
	"testing"
)

// SPDX 3 JSON-LD as generate_sbom writes it (obs-build PR #1165; the shape the
// suse-distro-blockchain tests use).
const (
	v3Doc  = "http://open-build-service.org/spdx/x-specv3/document0"
	v3Root = "http://open-build-service.org/spdx/x-specv3/root"
)

func doc3(t testing.TB, graph ...obj) []byte {
	t.Helper()
	return marshal(t, obj{"@context": "https://spdx.org/rdf/3.0.1/spdx-context.jsonld", "@graph": graph})
}

func ref3(typ, loc string) obj {
	return obj{"type": "ExternalRef", "externalRefType": typ, "locator": []string{loc}}
}

func dist3(loc string) obj {
	return obj{"type": "ExternalRef", "externalRefType": "other", "comment": "obs-disturl", "locator": []string{loc}}
}

func pkg3(id, name, version string, extra obj) obj {
	p := obj{"type": "software_Package", "spdxId": id, "name": name, "software_packageVersion": version}
	for k, v := range extra {
		p[k] = v
	}
	return p
}

func TestParseDocumentSPDX3(t *testing.T) {
	creation := obj{"type": "CreationInfo", "@id": "_:creationinfo", "specVersion": "3.0.1", "created": "2026-01-01T00:00:00Z"}
	root := pkg3(v3Root, "Leap-16.1-aarch64-ppc64le-s390x-x86_64-Build50.2", "", obj{
		"software_primaryPurpose": "library",
		"externalRef":             []obj{dist3("obs://build.opensuse.org/openSUSE:Leap:16.1:Products/product/e36b8dcaaf3e3f0b676be182ffdb44dd-000productcompose:leap_oss")},
	})
	bash := pkg3("urn:bash", "bash", "5.2.37-160000.2.2", obj{
		"software_packageUrl": bashPurl,
		"externalRef":         []obj{ref3("vcs", bashVCS), dist3(bashDist)},
	})
	zeroad := pkg3("urn:0ad", "0ad", "2:0.27.0-bp161.1.11", obj{
		"externalIdentifier": []obj{{"type": "ExternalIdentifier", "externalIdentifierType": "packageUrl",
			"identifier": "pkg:rpm/opensuse/0ad@0.27.0-bp161.1.11?arch=x86_64"}},
		// A JSON-LD list of one may be compacted to a plain string.
		"externalRef": []obj{{"type": "ExternalRef", "externalRefType": "vcs", "locator": "https://src.opensuse.org/pool/0ad?trackingbranch=leap-16.1#" + commit64}},
	})
	repository := pkg3("urn:repo", "repository", "06661f5d", obj{"software_sourceInfo": "acquired package info from repomd.xml"})
	os := pkg3("urn:os", "SLES", "16.0", obj{"software_primaryPurpose": "operatingSystem"})
	describes := obj{"type": "Relationship", "spdxId": "urn:rel0", "relationshipType": "describes", "from": v3Doc, "to": []string{v3Root}}
	contains := obj{"type": "Relationship", "spdxId": "urn:rel1", "relationshipType": "contains", "from": v3Root, "to": []string{"urn:bash", "urn:0ad"}}
	wantPackages := []Package{
		{Name: "bash", Arch: "x86_64", Version: "5.2.37-160000.2.2", Filename: "bash-5.2.37-160000.2.2.x86_64.rpm",
			VCSURL: "https://src.suse.de/pool/bash", VCSOrg: "pool", VCSRepo: "bash", TrackingBranch: "slfo-1.2", CommitHash: commit64,
			DistURL: bashDist},
		{Name: "0ad", Arch: "x86_64", Version: "0.27.0-bp161.1.11", Filename: "0ad-0.27.0-bp161.1.11.x86_64.rpm",
			VCSURL: "https://src.opensuse.org/pool/0ad", VCSOrg: "pool", VCSRepo: "0ad", TrackingBranch: "leap-16.1", CommitHash: commit64},
	}
	leap := Product{FullName: "Leap-16.1-aarch64-ppc64le-s390x-x86_64-Build50.2", Name: "Leap", Version: "16.1",
		Arch: "aarch64-ppc64le-s390x-x86_64", BuildNumber: "Build50.2",
		DistURL:  "obs://build.opensuse.org/openSUSE:Leap:16.1:Products/product/e36b8dcaaf3e3f0b676be182ffdb44dd-000productcompose:leap_oss",
		Packages: wantPackages}

	tests := []struct {
		name  string
		graph []obj
		want  Product
	}{
		{"root through describes", []obj{creation, {"type": "SpdxDocument", "spdxId": v3Doc}, root, describes, bash, contains, zeroad, repository, os}, leap},
		{"root through rootElement", []obj{{"type": "SpdxDocument", "spdxId": v3Doc, "name": "doc", "rootElement": []string{v3Root}}, bash, zeroad, root}, leap},
		{"rootElement as a string", []obj{{"type": "SpdxDocument", "spdxId": v3Doc, "rootElement": v3Root}, root, bash, zeroad}, leap},
		{"relationship type in upper case", []obj{root, bash, zeroad, {"type": "Relationship", "relationshipType": "DESCRIBES", "from": v3Doc, "to": []string{v3Root}}}, leap},
		{"@type and @id aliases", []obj{{"@type": "SpdxDocument", "@id": v3Doc, "rootElement": []string{"urn:root2"}},
			{"@type": "software_Package", "@id": "urn:root2", "name": "Pocket-1.0-x86_64-Build1.1"}, bash},
			Product{FullName: "Pocket-1.0-x86_64-Build1.1", Name: "Pocket", Version: "1.0", Arch: "x86_64", BuildNumber: "Build1.1",
				Packages: wantPackages[:1]}},
		{"no root: the document's name", []obj{{"type": "SpdxDocument", "spdxId": v3Doc, "name": "Pocket-0.9-x86_64-Build3.1"}, bash},
			Product{FullName: "Pocket-0.9-x86_64-Build3.1", Name: "Pocket", Version: "0.9", Arch: "x86_64", BuildNumber: "Build3.1",
				Packages: wantPackages[:1]}},
		{"SPDXRef-DOCUMENT-ROOT means nothing in SPDX 3", []obj{{"type": "SpdxDocument", "name": "Doc-1-x86_64-Build1"},
			{"type": "software_Package", "spdxId": rootSPDXID, "name": "other"}},
			Product{FullName: "Doc-1-x86_64-Build1", Name: "Doc", Version: "1", Arch: "x86_64", BuildNumber: "Build1",
				Packages: []Package{{Name: "other"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parse(t, doc3(t, tt.graph...))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}
