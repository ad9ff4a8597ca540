package spdx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzParseDocument checks that ParseDocument never panics, never accepts what is not JSON,
// names the source in every error, and reads the same whether the input arrives at once or a
// byte at a time (every refill boundary of the lexer).
func FuzzParseDocument(f *testing.F) {
	f.Add(testdata(f, "SYNTHETIC_obs-product-shape.spdx.json"))
	f.Add(testdata(f, "spdx-examples_example11_sbom.spdx.json"))
	f.Add(doc3(f, obj{"type": "SpdxDocument", "rootElement": []string{"r"}},
		pkg3("r", "P-1-x86_64-Build1", "", obj{"externalRef": []obj{dist3("obs://a/b/c/00-d")}}),
		pkg3("b", "bash", "1:5-1", obj{"software_packageUrl": bashPurl, "externalRef": []obj{ref3("vcs", bashVCS)}})))
	f.Add([]byte(`{"spdxVersion":"SPDX-2.3","name":"a\u00e9\ud800","packages":[{"name":"x","externalRefs":[{"referenceType":"purl","referenceLocator":"pkg:rpm/a/x@1?arch=%41"}]}]}`))
	f.Add([]byte(`{"spdxVersion":"SPDX-2.3","x":[1e5,-0.5,true,false,null,{"a":[]}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		p, err := ParseDocument(bytes.NewReader(doc), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error without the source: %v", err)
			}
		} else {
			if !json.Valid(doc) {
				t.Fatalf("accepted invalid JSON: %+v", p)
			}
			if p.FullName == "" {
				t.Fatal("product without a name")
			}
			for _, pkg := range p.Packages {
				if pkg.Name == "" {
					t.Fatalf("package without a name: %+v", pkg)
				}
			}
		}
		p2, err2 := ParseDocument(iotest.OneByteReader(bytes.NewReader(doc)), "fuzz")
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() || !reflect.DeepEqual(p, p2) {
			t.Fatalf("byte at a time differs:\n%+v, %v\n%+v, %v", p, err, p2, err2)
		}
	})
}

// FuzzParseVCS checks that ParseVCS never panics and that what it accepts is usable: a URL
// with scheme and host, a repository name, and a commit that is lower-case hex.
func FuzzParseVCS(f *testing.F) {
	for _, s := range []string{bashVCS, "https://src.suse.de/products/SLES?subdir=000release-packages#16.0",
		"https://github.com/a/b.git#DEADBEEF", "git@github.com:a/b", "https://h/%zz", "http://[::1]:80/a/b?trackingbranch=%ZZ#x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, locator string) {
		v, ok := ParseVCS(locator)
		if !ok {
			if v != (VCS{}) {
				t.Fatalf("not ok but %+v", v)
			}
			return
		}
		if !strings.Contains(v.URL, "://") || v.Repo == "" || v.Org == "" {
			t.Fatalf("accepted %q as %+v", locator, v)
		}
		if v.Commit != "" && (len(v.Commit) < minCommitHex || !isHex(v.Commit) || strings.ToLower(v.Commit) != v.Commit) {
			t.Fatalf("commit %q of %q", v.Commit, locator)
		}
	})
}

// FuzzParseDistURL checks that an accepted disturl is exactly its parts put back together.
func FuzzParseDistURL(f *testing.F) {
	f.Add("obs://build.opensuse.org/openSUSE:Leap:16.0:Products/product/f5bf48aa40cad7891eb709fcf1fde128-000productcompose:leap_oss")
	f.Add("obs://a/b/c/d/0-x-y")
	f.Fuzz(func(t *testing.T, s string) {
		instance, project, repo, srcmd5, pkg, ok := ParseDistURL(s)
		if ok && "obs://"+instance+"/"+project+"/"+repo+"/"+srcmd5+"-"+pkg != strings.TrimSpace(s) {
			t.Fatalf("%q split into %q %q %q %q %q", s, instance, project, repo, srcmd5, pkg)
		}
	})
}

// FuzzParseProductName checks that the parts of a product name come from the name.
func FuzzParseProductName(f *testing.F) {
	f.Add("openSUSE-Tumbleweed-DVD-x86_64-Snapshot20240401")
	f.Add("Leap-16.1-aarch64-ppc64le-s390x-x86_64-Build50.2")
	f.Fuzz(func(t *testing.T, full string) {
		name, version, arch, build := ParseProductName(full)
		if full != "" && name == "" {
			t.Fatalf("%q: empty name", full)
		}
		for _, part := range []string{name, version, arch, build} {
			if !strings.Contains(full, part) {
				t.Fatalf("%q: part %q is not in the name", full, part)
			}
		}
	})
}

// FuzzParseRepodataXML feeds primary and filelists bytes straight to their parsers and joins
// them (the checksums of ParseRepodata would stop most mutations before them): no panic, and
// no package without a name or file name.
func FuzzParseRepodataXML(f *testing.F) {
	f.Add([]byte(primaryXML(testRPMs)), []byte(filelistsXML(testRPMs)))
	f.Add([]byte(`<metadata><package><name>a</name><checksum>1</checksum><location href="a/b.rpm"/></package></metadata>`),
		[]byte(`<filelists><package pkgid="1"><file>/x</file><file type="dir">/d</file></package></filelists>`))
	lim := defaultLimits
	lim.xmlToken, lim.rpms, lim.files = 4096, 1000, 10000
	f.Fuzz(func(t *testing.T, primary, filelists []byte) {
		pr, err := parsePrimary(bytes.NewReader(primary), lim, nil)
		if err != nil {
			return
		}
		fl, err := parseFilelists(bytes.NewReader(filelists), lim, nil)
		if err != nil {
			return
		}
		if err := pr.join(fl, lim); err != nil {
			return
		}
		for _, r := range pr.rpms {
			if r.Name == "" || r.Filename == "" {
				t.Fatalf("incomplete package %+v", r)
			}
		}
	})
}
