package spdx

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

const (
	commitBash = "4ef8b1f01b5d7198feaa49116232f53ccf0c372d4c3fd8e7a0d3004db6b703f0"
	commitProd = "0123456789abcdef0123456789abcdef01234567"
)

// pocketProduct is a small farm-built product: RPMs with and without git sources, a noarch
// one, an epoch, a "+" in a version, a license that is not an expression and a checksum.
func pocketProduct() ProductSBOM {
	git := func(repo, branch, commit string) *GitRef {
		return &GitRef{BaseURL: "https://src.pocketforge.test", Org: "pool", Repo: repo, Branch: branch, Commit: commit}
	}
	return ProductSBOM{
		Name: "Pocket", Version: "1.0", Arch: "x86_64", Build: "Build1.1",
		DistURL:            "obs://pocketforge.test/Pocket:1.0/product/f5bf48aa40cad7891eb709fcf1fde128-000product",
		Git:                &GitRef{BaseURL: "https://src.pocketforge.test", Org: "products", Repo: "Pocket", Branch: "1.0", Commit: commitProd},
		Created:            time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("CET", 3600)),
		Tool:               "pocketforge-1.0",
		LicenseListVersion: "3.26",
		Distro:             "pocket-1.0",
		Packages: []ShippedRPM{
			{Name: "legacy-tool", Version: "1.0", Release: "2.1", Arch: "x86_64", License: "GPL v2 or later",
				Supplier: "Pocketforge", Summary: "A tool from before git", SourceRPM: "legacy-tool-1.0-2.1.src.rpm",
				DistURL:  "obs://pocketforge.test/devel:tools/standard/fb5686bf1d6707c8ad8d4ed8e7ba1c7d-legacy-tool",
				Filename: "legacy-tool-1.0-2.1.x86_64.rpm"},
			{Name: "bash-sh", Version: "5.2.37", Release: "1.1", Arch: "noarch", License: "GPL-3.0-or-later",
				Supplier: "Pocketforge", Summary: "/bin/sh as bash", SourceRPM: "bash-5.2.37-1.1.src.rpm",
				Git:      git("bash", "factory", commitBash),
				DistURL:  "obs://pocketforge.test/Pocket:1.0/standard/f8c5e317181f2a996d657c1de88107f0-bash",
				Filename: "bash-sh-5.2.37-1.1.noarch.rpm"},
			{Name: "bash", Version: "5.2.37", Release: "1.1", Arch: "x86_64", License: "GPL-3.0-or-later",
				Supplier: "Pocketforge", Summary: "The GNU Bourne Again shell", Homepage: "https://www.gnu.org/software/bash/",
				SourceRPM: "bash-5.2.37-1.1.src.rpm", Git: git("bash", "factory", commitBash),
				DistURL:   "obs://pocketforge.test/Pocket:1.0/standard/f8c5e317181f2a996d657c1de88107f0-bash",
				Filename:  "bash-5.2.37-1.1.x86_64.rpm",
				Checksums: []Checksum{{"SHA256", "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"}}},
			{Name: "libstdc++6", Epoch: 1, Version: "14.2.0+git1", Release: "3.1", Arch: "x86_64",
				License: "GPL-3.0-or-later WITH GCC-exception-3.1", Supplier: "Pocketforge",
				Git:      git("gcc14", "", "abcdef0123456789"),
				DistURL:  "obs://pocketforge.test/devel:gcc/standard/0123456789abcdef0123456789abcdef-gcc14",
				Filename: "libstdc++6-14.2.0+git1-3.1.x86_64.rpm"},
		},
	}
}

// write runs WriteDocument over p.
func write(t *testing.T, p ProductSBOM) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteDocument(&b, p); err != nil {
		t.Fatalf("WriteDocument: %v", err)
	}
	return b.Bytes()
}

func TestWriteDocumentRoundTrip(t *testing.T) {
	b := write(t, pocketProduct())
	got := parse(t, b)
	want := Product{
		FullName: "Pocket-1.0-x86_64-Build1.1", Name: "Pocket", Version: "1.0", Arch: "x86_64", BuildNumber: "Build1.1",
		DistURL: "obs://pocketforge.test/Pocket:1.0/product/f5bf48aa40cad7891eb709fcf1fde128-000product",
		Packages: []Package{
			{Name: "bash", Arch: "x86_64", Version: "5.2.37-1.1", Filename: "bash-5.2.37-1.1.x86_64.rpm",
				VCSURL: "https://src.pocketforge.test/pool/bash", VCSOrg: "pool", VCSRepo: "bash",
				TrackingBranch: "factory", CommitHash: commitBash,
				DistURL: "obs://pocketforge.test/Pocket:1.0/standard/f8c5e317181f2a996d657c1de88107f0-bash"},
			{Name: "bash-sh", Arch: "noarch", Version: "5.2.37-1.1", Filename: "bash-sh-5.2.37-1.1.noarch.rpm",
				VCSURL: "https://src.pocketforge.test/pool/bash", VCSOrg: "pool", VCSRepo: "bash",
				TrackingBranch: "factory", CommitHash: commitBash,
				DistURL: "obs://pocketforge.test/Pocket:1.0/standard/f8c5e317181f2a996d657c1de88107f0-bash"},
			{Name: "legacy-tool", Arch: "x86_64", Version: "1.0-2.1", Filename: "legacy-tool-1.0-2.1.x86_64.rpm",
				DistURL: "obs://pocketforge.test/devel:tools/standard/fb5686bf1d6707c8ad8d4ed8e7ba1c7d-legacy-tool"},
			{Name: "libstdc++6", Arch: "x86_64", Version: "14.2.0+git1-3.1", Filename: "libstdc++6-14.2.0+git1-3.1.x86_64.rpm",
				VCSURL: "https://src.pocketforge.test/pool/gcc14", VCSOrg: "pool", VCSRepo: "gcc14",
				CommitHash: "abcdef0123456789",
				DistURL:    "obs://pocketforge.test/devel:gcc/standard/0123456789abcdef0123456789abcdef-gcc14"},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back:\n got %+v\nwant %+v", got, want)
	}
}

func TestWriteDocumentValidatesAgainstSchema(t *testing.T) {
	validSPDX(t, write(t, pocketProduct()))
	// The smallest product: no references, no packages.
	validSPDX(t, write(t, ProductSBOM{Name: "Empty", Arch: "aarch64", Created: time.Unix(0, 0), Tool: "t"}))
}

func TestWriteDocumentDeterministic(t *testing.T) {
	p := pocketProduct()
	first := write(t, p)
	slices.Reverse(p.Packages)
	if again := write(t, p); !bytes.Equal(first, again) {
		t.Fatalf("the same product in another order gives other bytes:\n%s\n---\n%s", first, again)
	}
	// Any other content gives another namespace, as SPDX wants one per document version.
	ns := namespaceOf(t, first)
	if !strings.HasPrefix(ns, "http://open-build-service.org/spdx/Pocket-1.0-x86_64-Build1.1-") {
		t.Errorf("documentNamespace %q", ns)
	}
	p.Packages[0].Release = "1.2"
	if namespaceOf(t, write(t, p)) == ns {
		t.Error("a changed package keeps the namespace")
	}
	p = pocketProduct()
	p.Created = p.Created.Add(time.Second)
	if namespaceOf(t, write(t, p)) == ns {
		t.Error("another creation time keeps the namespace")
	}
}

func namespaceOf(t *testing.T, b []byte) string {
	t.Helper()
	var d struct {
		DocumentNamespace string `json:"documentNamespace"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d.DocumentNamespace
}

func TestWriteDocumentHostile(t *testing.T) {
	git := &GitRef{BaseURL: "https://git.example/", Org: "my org/ü", Repo: "a b#c?d&e", Branch: "feature/x y+z&w", Commit: "ABCDEF0123456789"}
	p := ProductSBOM{
		Name: "Pocket Ü/Linux & Co", Version: "1.0", Arch: "x86_64", Build: "Build7",
		Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Tool: "pocketforge \"dev\"",
		Distro: "pocket 1.0&x",
		Packages: []ShippedRPM{
			{Name: "with space", Version: "1 0", Release: "1", Arch: "x86_64", License: "MIT and/or \"BSD\"",
				Supplier: "Evil Corp <a@b>", Summary: "line\nbreak\t<tab> & \u2028", Git: git},
			{Name: "slash/name@v", Version: "1/2@3", Arch: "weird arch", Git: git},
			{Name: "ünïcödé-包", Version: "1.0", Release: "1", Arch: "x86_64", License: "GPL-2.0+",
				Supplier: "obs://build.example/home:me Me"},
			{Name: "nothing"}, // no version, arch, license, supplier, git or disturl
			{Name: "dup", Version: "1", Arch: "x86_64"},
			{Name: "dup", Version: "2", Arch: "x86_64"},
			{Name: "dup", Version: "2", Arch: "x86_64"}, // shipped twice
			{Name: "dup-x86_64", Version: "1", Arch: "2"},
			{Name: "lic1", Version: "1", Arch: "x86_64", License: "GPL v2"},
			{Name: "lic2", Version: "1", Arch: "x86_64", License: "GPL_v2"},
			{Name: "lic3", Version: "1", Arch: "x86_64", License: "gpl v2"},
			{Name: "lic4", Version: "1", Arch: "x86_64", License: "LicenseRef-mine"},
			{Name: "lic5", Version: "1", Arch: "x86_64", License: "(MIT OR Apache-2.0) AND BSD-3-Clause"},
		},
	}
	b := write(t, p)
	validSPDX(t, b)
	got := parse(t, b)
	if got.FullName != "Pocket Ü/Linux & Co-1.0-x86_64-Build7" || got.Name != p.Name || got.Version != "1.0" {
		t.Errorf("product read back as %q: %q %q", got.FullName, got.Name, got.Version)
	}
	if len(got.Packages) != len(p.Packages) {
		t.Fatalf("%d packages read back, want %d", len(got.Packages), len(p.Packages))
	}
	byName := map[string]Package{}
	for _, pkg := range got.Packages {
		byName[pkg.Name] = pkg
	}
	ws := byName["with space"]
	if ws.Arch != "x86_64" || ws.Version != "1 0-1" || ws.VCSOrg != "my org/ü" || ws.VCSRepo != "a b#c?d&e" ||
		ws.TrackingBranch != "feature/x y+z&w" || ws.CommitHash != "abcdef0123456789" {
		t.Errorf("with space read back as %+v", ws)
	}
	if sn := byName["slash/name@v"]; sn.Arch != "weird arch" || sn.Version != "1/2@3" {
		t.Errorf("slash/name@v read back as %+v", sn)
	}
	if u := byName["ünïcödé-包"]; u.Arch != "x86_64" || u.Filename != "ünïcödé-包-1.0-1.x86_64.rpm" {
		t.Errorf("unicode read back as %+v", u)
	}
	if n := byName["nothing"]; n != (Package{Name: "nothing"}) {
		t.Errorf("nothing read back as %+v", n)
	}
	for _, want := range []string{
		`"licenseConcluded": "LicenseRef-gpl-v2"`, `"licenseConcluded": "LicenseRef-gpl-v2-2"`,
		`"licenseConcluded": "LicenseRef-licenseref-mine"`, `"licenseConcluded": "GPL-2.0+"`,
		`"licenseConcluded": "(MIT OR Apache-2.0) AND BSD-3-Clause"`,
		`"SPDXID": "SPDXRef-Package-rpm-dup-x86-64-3"`, `"SPDXID": "SPDXRef-Package-rpm-dup-x86-64-2-2"`,
		`"SPDXID": "SPDXRef-Package-rpm-slash-name-v-weird-arch"`, `"SPDXID": "SPDXRef-Package-rpm-nothing"`,
		`"referenceLocator": "pkg:rpm/slash%2Fname%40v@1%2F2%403?arch=weird%20arch&distro=pocket%201.0%26x"`,
		`"referenceLocator": "pkg:rpm/build.example/home:me/%C3%BCn%C3%AFc%C3%B6d%C3%A9-%E5%8C%85@1.0-1?arch=x86_64&distro=pocket%201.0%26x"`,
		`"referenceLocator": "https://git.example/my%20org%2F%C3%BC/a%20b%23c%3Fd&e?trackingbranch=feature%2Fx+y%2Bz%26w#abcdef0123456789"`,
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
}

func TestWriteDocumentRefuses(t *testing.T) {
	for name, edit := range map[string]func(*ProductSBOM){
		"no product name":          func(p *ProductSBOM) { p.Name = "" },
		"name reads back as other": func(p *ProductSBOM) { p.Version = "1.0-rc1" },
		"neither arch nor build":   func(p *ProductSBOM) { p.Arch, p.Build = "", "" },
		"no creation time":         func(p *ProductSBOM) { p.Created = time.Time{} },
		"no tool":                  func(p *ProductSBOM) { p.Tool = " " },
		"nameless package":         func(p *ProductSBOM) { p.Packages[0].Name = "" },
		"commit not hex":           func(p *ProductSBOM) { p.Packages[1].Git.Commit = "main" },
		"commit too short":         func(p *ProductSBOM) { p.Packages[1].Git.Commit = "abc" },
		"git without repo":         func(p *ProductSBOM) { p.Packages[1].Git = &GitRef{BaseURL: "https://h", Org: "o"} },
		"base URL with a path":     func(p *ProductSBOM) { p.Git.BaseURL = "https://h/git" },
		"base URL with a user":     func(p *ProductSBOM) { p.Git.BaseURL = "https://me:secret@h" },
		"base URL without host":    func(p *ProductSBOM) { p.Git.BaseURL = "src.opensuse.org" },
		"disturl not obs":          func(p *ProductSBOM) { p.Packages[0].DistURL = "https://x/y/z/abc-p" },
		"disturl with a space":     func(p *ProductSBOM) { p.DistURL = "obs://h/a b/standard/abc-p" },
		"unknown checksum":         func(p *ProductSBOM) { p.Packages[2].Checksums[0].Algorithm = "CRC32" },
		"checksum not hex":         func(p *ProductSBOM) { p.Packages[2].Checksums[0].Value = "xyz" },
	} {
		t.Run(name, func(t *testing.T) {
			p := pocketProduct()
			edit(&p)
			var b bytes.Buffer
			if err := WriteDocument(&b, p); err == nil {
				t.Fatalf("no error; wrote\n%s", b.Bytes())
			}
			if b.Len() != 0 {
				t.Errorf("wrote %d bytes despite the error", b.Len())
			}
		})
	}
}

// TestWriteDocumentShape checks the writer against the synthetic generate_sbom document: the
// same product written again has the same members in the same order, at every level.
func TestWriteDocumentShape(t *testing.T) {
	sample := testdata(t, "SYNTHETIC_obs-product-shape.spdx.json")
	ours := write(t, pocketProduct())
	if got, want := memberOrder(t, ours), memberOrder(t, sample); !reflect.DeepEqual(got, want) {
		t.Errorf("member order differs from generate_sbom's:\n got %v\nwant %v", got, want)
	}
}

// memberOrder lists, for the document, its creationInfo, its root package, its first RPM
// package and its first reference and relationship, the keys in order; without the members
// the sample lacks but the writer may add (checksums, packageFileName, summary, and the
// declarations of licenses that are not expressions).
func memberOrder(t *testing.T, b []byte) [][]string {
	t.Helper()
	var d struct {
		CreationInfo  json.RawMessage   `json:"creationInfo"`
		Packages      []json.RawMessage `json:"packages"`
		Relationships []json.RawMessage `json:"relationships"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	var rpm struct {
		ExternalRefs []json.RawMessage `json:"externalRefs"`
	}
	if err := json.Unmarshal(d.Packages[1], &rpm); err != nil {
		t.Fatal(err)
	}
	extra := []string{"checksums", "packageFileName", "summary"}
	return [][]string{
		keys(t, b, []string{"hasExtractedLicensingInfos"}), keys(t, d.CreationInfo, nil), keys(t, d.Packages[0], nil),
		keys(t, d.Packages[1], extra), keys(t, rpm.ExternalRefs[0], nil), keys(t, d.Relationships[0], nil),
	}
}

// keys returns the member names of the JSON object b in order, less those in skip.
func keys(t *testing.T, b []byte, skip []string) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if k := tok.(string); !slices.Contains(skip, k) {
			out = append(out, k)
		}
	}
	return out
}

// TestWriteDocumentGolden pins the bytes of one small product; UPDATE_GOLDEN=1 rewrites
// testdata/write_golden.json after a deliberate change.
func TestWriteDocumentGolden(t *testing.T) {
	got := write(t, pocketProduct())
	path := filepath.Join("testdata", "write_golden.json")
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := testdata(t, "write_golden.json"); !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (UPDATE_GOLDEN=1 rewrites it):\n%s", path, got)
	}
}
