package spdx

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

const (
	bashPurl = "pkg:rpm/suse/bash@5.2.37-160000.2.2?arch=x86_64&upstream=bash-5.2.37-160000.2.2.src.rpm&distro=opensuse-leap-16.0"
	bashVCS  = "https://src.suse.de/pool/bash?trackingbranch=slfo-1.2#" + commit64
	bashDist = "obs://build.suse.de/SUSE:SLFO:1.2/standard/f8c5e317181f2a996d657c1de88107f0-bash"
	prodDist = "obs://build.opensuse.org/openSUSE:Leap:16.0:Products/product/f5bf48aa40cad7891eb709fcf1fde128-000productcompose:leap_oss"
)

// TestParseDocumentSynthetic reads the synthetic generate_sbom product end to end.
func TestParseDocumentSynthetic(t *testing.T) {
	got := parse(t, testdata(t, "SYNTHETIC_obs-product-shape.spdx.json"))
	bash := Package{Name: "bash", Arch: "x86_64", Version: "5.2.37-160000.2.2", Filename: "bash-5.2.37-160000.2.2.x86_64.rpm",
		VCSURL: "https://src.suse.de/pool/bash", VCSOrg: "pool", VCSRepo: "bash", TrackingBranch: "slfo-1.2", CommitHash: commit64,
		DistURL: bashDist}
	bashSh := bash
	bashSh.Name, bashSh.Arch, bashSh.Filename = "bash-sh", "noarch", "bash-sh-5.2.37-160000.2.2.noarch.rpm"
	want := Product{
		FullName: "Leap-16.0-x86_64-Build42.1", Name: "Leap", Version: "16.0", Arch: "x86_64", BuildNumber: "Build42.1",
		DistURL: prodDist,
		Packages: []Package{bash, bashSh,
			{Name: "0ad", Arch: "x86_64", Version: "0.27.0-bp160.1.3", Filename: "0ad-0.27.0-bp160.1.3.x86_64.rpm",
				VCSURL: "https://src.opensuse.org/pool/0ad", VCSOrg: "pool", VCSRepo: "0ad", TrackingBranch: "leap-16.0",
				CommitHash: "dfe6769f35354c382e073cdf630ddfff4dd7b0a835fa38d769e319c523f14820",
				DistURL:    "obs://build.opensuse.org/openSUSE:Backports:SLE-16.0/standard/daf58262231d06df04b18b5220e2f4c2-0ad"},
			{Name: "legacy-tool", Arch: "x86_64", Version: "1.0-bp160.2.1", Filename: "legacy-tool-1.0-bp160.2.1.x86_64.rpm",
				DistURL: "obs://build.opensuse.org/openSUSE:Backports:SLE-16.0/standard/fb5686bf1d6707c8ad8d4ed8e7ba1c7d-legacy-tool"},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestParseDocumentForeignProducer reads an SBOM of sigs.k8s.io/bom: no vcs or disturl
// references, the root named by documentDescribes (which also lists a file), no RPMs.
func TestParseDocumentForeignProducer(t *testing.T) {
	got := parse(t, testdata(t, "spdx-examples_example11_sbom.spdx.json"))
	want := Product{
		FullName: "hello-server-src", Name: "hello-server-src",
		Packages: []Package{
			{Name: "hyper", Version: "0.14"},
			{Name: "tokio", Version: "1.19.2"},
			{Name: "pretty_env_logger", Version: "0.4.0"},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestPackageMapping covers every row of the field mapping (explorer-notes §3.2), one package
// at a time.
func TestPackageMapping(t *testing.T) {
	tests := []struct {
		name string
		pkg  obj
		want Package
	}{
		{"all references", rpm2("bash", "5.2.37-160000.2.2", purlRef(bashPurl), vcsRef(bashVCS), distRef(bashDist)),
			Package{Name: "bash", Arch: "x86_64", Version: "5.2.37-160000.2.2", Filename: "bash-5.2.37-160000.2.2.x86_64.rpm",
				VCSURL: "https://src.suse.de/pool/bash", VCSOrg: "pool", VCSRepo: "bash", TrackingBranch: "slfo-1.2",
				CommitHash: commit64, DistURL: bashDist}},
		{"noarch", rpm2("bash-doc", "5.2-1.1", purlRef("pkg:rpm/suse/bash-doc@5.2-1.1?arch=noarch")),
			Package{Name: "bash-doc", Arch: "noarch", Version: "5.2-1.1", Filename: "bash-doc-5.2-1.1.noarch.rpm"}},
		{"epoch dropped from version and file name", rpm2("gcc13", "1:13.2-1.1", purlRef("pkg:rpm/opensuse/gcc13@13.2-1.1?epoch=1&arch=x86_64")),
			Package{Name: "gcc13", Arch: "x86_64", Version: "13.2-1.1", Filename: "gcc13-13.2-1.1.x86_64.rpm"}},
		{"url-encoded arch", rpm2("x", "1-1", purlRef("pkg:rpm/opensuse/x@1-1?arch=x86%5F64")),
			Package{Name: "x", Arch: "x86_64", Version: "1-1", Filename: "x-1-1.x86_64.rpm"}},
		{"no purl: no arch, no file name", rpm2("x", "1-1"),
			Package{Name: "x", Version: "1-1"}},
		{"purl without arch: no file name", rpm2("x", "1-1", purlRef("pkg:rpm/opensuse/x@1-1")),
			Package{Name: "x", Version: "1-1"}},
		{"no version: no file name", rpm2("x", "", purlRef("pkg:rpm/opensuse/x?arch=x86_64")),
			Package{Name: "x", Arch: "x86_64"}},
		{"not an rpm purl: arch but no .rpm name", rpm2("libselinux1-dev", "3.1-3", purlRef("pkg:deb/debian/libselinux1-dev@3.1-3?arch=s390x")),
			Package{Name: "libselinux1-dev", Arch: "s390x", Version: "3.1-3"}},
		{"vcs with 40-hex commit", rpm2("jtidy", "1-1", vcsRef("https://src.suse.de/pool/jtidy?trackingbranch=slfo-1.2#"+commit40)),
			Package{Name: "jtidy", Version: "1-1", VCSURL: "https://src.suse.de/pool/jtidy", VCSOrg: "pool", VCSRepo: "jtidy",
				TrackingBranch: "slfo-1.2", CommitHash: commit40}},
		{"vcs branch fragment", rpm2("rel", "1-1", vcsRef("https://src.suse.de/products/SLES?subdir=000release-packages#16.0")),
			Package{Name: "rel", Version: "1-1", VCSURL: "https://src.suse.de/products/SLES", VCSOrg: "products", VCSRepo: "SLES", TrackingBranch: "16.0"}},
		{"unreadable vcs left empty", rpm2("x", "1-1", vcsRef("git@github.com:foo/bar.git")),
			Package{Name: "x", Version: "1-1"}},
		{"first reference of a type wins", rpm2("x", "1-1", purlRef("pkg:rpm/o/x@1-1?arch=i586"), purlRef("pkg:rpm/o/x@1-1?arch=x86_64"),
			distRef("obs://a/P/r/0a-x"), distRef("obs://b/P/r/0b-x")),
			Package{Name: "x", Arch: "i586", Version: "1-1", Filename: "x-1-1.i586.rpm", DistURL: "obs://a/P/r/0a-x"}},
		{"reference type case", rpm2("x", "1-1", obj{"referenceType": "PURL", "referenceLocator": "pkg:rpm/o/x@1-1?arch=i586"}),
			Package{Name: "x", Arch: "i586", Version: "1-1", Filename: "x-1-1.i586.rpm"}},
		{"null fields", obj{"name": "x", "SPDXID": "SPDXRef-x", "versionInfo": nil, "externalRefs": nil},
			Package{Name: "x"}},
		{"escaped strings", obj{"name": "x\u00e9\\\"", "SPDXID": "SPDXRef-x"},
			Package{Name: "x\u00e9\\\""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parse(t, doc2(t, "P-1-x86_64-Build1", []obj{rootPkg("P-1-x86_64-Build1"), tt.pkg}, nil))
			if len(got.Packages) != 1 || got.Packages[0] != tt.want {
				t.Errorf("packages = %+v\nwant [%+v]", got.Packages, tt.want)
			}
		})
	}
}

// TestSkippedPackages checks which packages are not RPMs of the product.
func TestSkippedPackages(t *testing.T) {
	repository := obj{"name": "repository", "SPDXID": "SPDXRef-Package-rpmmd-repository-06661f5d", "versionInfo": "06661f5d",
		"sourceInfo": "acquired package info from repomd.xml", "primaryPackagePurpose": "INSTALL"}
	tests := []struct {
		name string
		pkg  obj
		kept bool
	}{
		{"rpm", rpm2("bash", "1-1"), true},
		{"repository pseudo-package", repository, false},
		{"operating system", obj{"name": "SLES", "SPDXID": "SPDXRef-os", "primaryPackagePurpose": "OPERATING-SYSTEM"}, false},
		{"a real package named repository", rpm2("repository", "1-1"), true},
		{"other purpose", obj{"name": "lib", "SPDXID": "SPDXRef-lib", "primaryPackagePurpose": "LIBRARY"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parse(t, doc2(t, "P", []obj{rootPkg("P-1-x86_64-Build1"), tt.pkg}, nil))
			if kept := len(got.Packages) == 1; kept != tt.kept {
				t.Errorf("kept = %v, want %v (%+v)", kept, tt.kept, got.Packages)
			}
		})
	}
}

// TestRootDetection checks which package names the product.
func TestRootDetection(t *testing.T) {
	a := obj{"name": "A-1-x86_64-Build1", "SPDXID": "SPDXRef-A"}
	b := obj{"name": "B-2-aarch64-Build2", "SPDXID": "SPDXRef-B"}
	describes := func(from, to, typ string) obj {
		return obj{"spdxElementId": from, "relatedSpdxElement": to, "relationshipType": typ}
	}
	tests := []struct {
		name     string
		pkgs     []obj
		extra    obj
		fullName string
		packages int
	}{
		{"SPDXRef-DOCUMENT-ROOT", []obj{a, rootPkg("Root-1-x86_64-Build1"), b}, nil, "Root-1-x86_64-Build1", 2},
		{"DOCUMENT-ROOT over documentDescribes", []obj{a, rootPkg("Root-1-x86_64-Build1")},
			obj{"documentDescribes": []string{"SPDXRef-A"}}, "Root-1-x86_64-Build1", 1},
		{"documentDescribes, first package listed", []obj{a, b},
			obj{"documentDescribes": []string{"SPDXRef-File-x", "SPDXRef-B", "SPDXRef-A"}}, "B-2-aarch64-Build2", 1},
		{"DESCRIBES relationship", []obj{a, b},
			obj{"relationships": []obj{describes("SPDXRef-A", "SPDXRef-B", "CONTAINS"), describes(documentSPDXID, "SPDXRef-B", "DESCRIBES")}}, "B-2-aarch64-Build2", 1},
		{"DESCRIBED_BY relationship", []obj{a, b},
			obj{"relationships": []obj{describes("SPDXRef-A", documentSPDXID, "DESCRIBED_BY")}}, "A-1-x86_64-Build1", 1},
		{"DESCRIBES from another element ignored", []obj{a, b},
			obj{"relationships": []obj{describes("SPDXRef-A", "SPDXRef-B", "DESCRIBES")}}, "Doc-9-x86_64-Build9", 2},
		{"described id that is no package", []obj{a, b},
			obj{"documentDescribes": []string{"SPDXRef-nothing"}}, "Doc-9-x86_64-Build9", 2},
		{"no root: the document name", []obj{a, b}, nil, "Doc-9-x86_64-Build9", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parse(t, doc2(t, "Doc-9-x86_64-Build9", tt.pkgs, tt.extra))
			if got.FullName != tt.fullName || len(got.Packages) != tt.packages {
				t.Errorf("FullName %q with %d packages, want %q with %d", got.FullName, len(got.Packages), tt.fullName, tt.packages)
			}
		})
	}
}

// TestKeyOrder checks that the root is found whatever the order of the top-level keys:
// relationships and name before the packages, spdxVersion last.
func TestKeyOrder(t *testing.T) {
	doc := `{"relationships":[{"spdxElementId":"SPDXRef-DOCUMENT","relatedSpdxElement":"SPDXRef-B","relationshipType":"DESCRIBES"}],
		"name":"Doc","files":[{"fileName":"x","checksums":[{"algorithm":"SHA1","checksumValue":"00"}]}],
		"packages":[{"name":"a","SPDXID":"SPDXRef-A"},{"name":"Pocket-1.0-x86_64-Build1.1","SPDXID":"SPDXRef-B",
		"externalRefs":[{"referenceType":"obs-disturl","referenceLocator":"obs://x/P/product/00-p"}]}],
		"spdxVersion":"SPDX-2.3"}`
	got := parse(t, []byte(doc))
	want := Product{FullName: "Pocket-1.0-x86_64-Build1.1", Name: "Pocket", Version: "1.0", Arch: "x86_64", BuildNumber: "Build1.1",
		DistURL: "obs://x/P/product/00-p", Packages: []Package{{Name: "a"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestEveryPrefixFails cuts the synthetic product at every byte: each prefix is an error, so
// a half-downloaded SBOM can never import as a smaller product.
func TestEveryPrefixFails(t *testing.T) {
	doc := bytes.TrimSpace(testdata(t, "SYNTHETIC_obs-product-shape.spdx.json"))
	for n := 0; n < len(doc); n++ {
		if p, err := ParseDocument(bytes.NewReader(doc[:n]), "cut.spdx.json"); err == nil {
			t.Fatalf("prefix of %d bytes parsed: %+v", n, p)
		}
	}
}

// TestReaders reads the fixtures through readers that split the input differently (one
// byte per Read, data returned together with io.EOF, half reads) and expects the same products:
// every refill boundary of the lexer is crossed.
func TestReaders(t *testing.T) {
	readers := []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"one byte per read", iotest.OneByteReader},
		{"data with EOF", iotest.DataErrReader},
		{"half reads", iotest.HalfReader},
	}
	for _, fixture := range []string{"SYNTHETIC_obs-product-shape.spdx.json", "spdx-examples_example11_sbom.spdx.json"} {
		doc := testdata(t, fixture)
		want := parse(t, doc)
		for _, r := range readers {
			t.Run(fixture+"/"+r.name, func(t *testing.T) {
				got, err := ParseDocument(r.wrap(bytes.NewReader(doc)), fixture)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("got %+v, %v\nwant %+v", got, err, want)
				}
			})
		}
	}
}

// TestSkippedPackageFieldOrder: a skipped package's later fields are still read (the order
// generate_sbom writes: sourceInfo before primaryPackagePurpose), so the packages after it parse.
func TestSkippedPackageFieldOrder(t *testing.T) {
	doc := `{"spdxVersion":"SPDX-2.3","SPDXID":"SPDXRef-DOCUMENT","name":"P-1-x86_64-Build1","packages":[
	 {"name":"P-1-x86_64-Build1","SPDXID":"SPDXRef-DOCUMENT-ROOT"},
	 {"name":"repository","SPDXID":"SPDXRef-r","sourceInfo":"acquired package info from repomd.xml","primaryPackagePurpose":"INSTALL"},
	 {"name":"SLES","SPDXID":"SPDXRef-os","primaryPackagePurpose":"OPERATING-SYSTEM","sourceInfo":"x"},
	 {"name":"bash","SPDXID":"SPDXRef-b","versionInfo":"1-1","externalRefs":[{"referenceCategory":"PACKAGE-MANAGER","referenceType":"purl","referenceLocator":"pkg:rpm/p/bash@1-1?arch=x86_64"}]}]}`
	got, err := ParseDocument(strings.NewReader(doc), "order.json")
	if err != nil || len(got.Packages) != 1 || got.Packages[0].Name != "bash" {
		t.Fatalf("got %+v, %v", got.Packages, err)
	}
}
