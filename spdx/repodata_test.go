package spdx

import (
	"crypto/sha1"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParseRepodata(t *testing.T) {
	sha1Of := func(b []byte) string { s := sha1.Sum(b); return hex.EncodeToString(s[:]) }
	plainPrimary, plainFilelists := []byte(primaryXML(testRPMs)), []byte(filelistsXML(testRPMs))
	tests := []struct {
		name string
		data func([]dataSpec) []dataSpec
	}{
		{"gzip data", func(d []dataSpec) []dataSpec { return d }},
		{"plain xml data", func(d []dataSpec) []dataSpec {
			d[0].href, d[0].content = "repodata/primary.xml", plainPrimary
			d[1].href, d[1].content = "repodata/filelists.xml", plainFilelists
			return d
		}},
		{"no checksums", func(d []dataSpec) []dataSpec { d[0].checksum, d[1].checksum = "-", "-"; return d }},
		{"old sha name for SHA-1", func(d []dataSpec) []dataSpec {
			d[0].sumType, d[0].checksum = "sha", sha1Of(d[0].content)
			return d
		}},
		{"upper-case checksum", func(d []dataSpec) []dataSpec {
			d[0].checksum = strings.ToUpper(buildChecksum(d[0].content))
			return d
		}},
		{"data outside repodata but inside the root", func(d []dataSpec) []dataSpec { d[0].href = "meta/primary.xml.gz"; return d }},
		{"other data types and a second primary ignored", func(d []dataSpec) []dataSpec {
			return append(d, dataSpec{typ: "other", href: "repodata/other.xml.zst", content: []byte("x")},
				dataSpec{typ: "primary_db", href: "repodata/primary.sqlite.bz2", content: []byte("x")},
				dataSpec{typ: "primary", href: "repodata/missing.xml.gz"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRepodata(buildRepo(tt.data(testRepo(t))), "repo/repodata")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, wantRPMs) {
				t.Errorf("got  %+v\nwant %+v", got, wantRPMs)
			}
		})
	}
}

// TestParseRepodataSharedPkgid checks that files go to every primary entry with their pkgid.
func TestParseRepodataSharedPkgid(t *testing.T) {
	twice := []testRPM{testRPMs[1], testRPMs[1]}
	twice[1].href = "mirror/bash-doc-5.2.37-1.1.noarch.rpm"
	d := testRepo(t)
	d[0].content = gz(t, primaryXML(twice))
	d[1].content = gz(t, filelistsXML(testRPMs[1:]))
	got, err := ParseRepodata(buildRepo(d), "repo/repodata")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !reflect.DeepEqual(got[0], wantRPMs[1]) || !reflect.DeepEqual(got[1], wantRPMs[1]) {
		t.Errorf("got %+v", got)
	}
}

func buildChecksum(b []byte) string {
	fsys := buildRepo([]dataSpec{{typ: "x", href: "x", content: b}})
	s := string(fsys["repo/repodata/repomd.xml"].Data)
	i := strings.Index(s, `"sha256">`) + len(`"sha256">`)
	return s[i : i+64]
}

// TestParseRepodataErrors feeds broken repositories and checks that each error names the file
// and the problem.
func TestParseRepodataErrors(t *testing.T) {
	bigFile := []testRPM{testRPMs[0]}
	bigFile[0].files = []testFile{{strings.Repeat("/very/long/path", 20), ""}}
	deep := strings.Replace(primaryXML(testRPMs), "<summary>", "<summary><a><b><c><d></d></c></b></a>", 1)
	entity := `<?xml version="1.0"?><!DOCTYPE metadata [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` +
		`<metadata><package><name>&xxe;</name></package></metadata>`
	corruptCRC := gz(t, primaryXML(testRPMs))
	corruptCRC[len(corruptCRC)-6] ^= 0xff
	unknownPkgid := []testRPM{testRPMs[0]}
	unknownPkgid[0].pkgid = strings.Repeat("ff", 32)
	tests := []struct {
		name  string
		fsys  func() fstest.MapFS
		dir   string
		limit func(*limits)
		want  string
	}{
		{"no repomd.xml", func() fstest.MapFS { return fstest.MapFS{} }, "", nil, "open repo/repodata/repomd.xml: file does not exist"},
		{"repomd.xml not XML", func() fstest.MapFS {
			return fstest.MapFS{"repo/repodata/repomd.xml": {Data: []byte("{}")}}
		}, "", nil, "repo/repodata/repomd.xml: not a repomd.xml: no XML element"},
		{"repomd.xml of another kind", func() fstest.MapFS {
			return fstest.MapFS{"repo/repodata/repomd.xml": {Data: []byte("<metalink/>")}}
		}, "", nil, "repo/repodata/repomd.xml: not a repomd.xml: the root element is <metalink>"},
		{"repomd.xml too large", repo(t, nil), "", func(l *limits) { l.repomdBytes = 100 }, "repo/repodata/repomd.xml: larger than 100 bytes"},
		{"dir is the root", repo(t, nil), ".", nil, "not a repodata directory below a repository root"},
		{"missing primary", repo(t, func(d []dataSpec) []dataSpec { return d[1:] }), "", nil, "repo/repodata/repomd.xml: no primary data"},
		{"missing filelists", repo(t, func(d []dataSpec) []dataSpec { return d[:1] }), "", nil, "repo/repodata/repomd.xml: no filelists data"},
		{"href pointing outside with ../", repo(t, func(d []dataSpec) []dataSpec { d[0].href = "../../etc/primary.xml.gz"; return d }), "", nil,
			`repo/repodata/repomd.xml: primary data: href "../../etc/primary.xml.gz" leaves the repository`},
		{"href cleaning to outside", repo(t, func(d []dataSpec) []dataSpec { d[1].href = "repodata/../../x.xml.gz"; return d }), "", nil,
			`filelists data: href "repodata/../../x.xml.gz" leaves the repository`},
		{"absolute href", repo(t, func(d []dataSpec) []dataSpec { d[0].href = "/etc/passwd.xml"; return d }), "", nil, `href "/etc/passwd.xml" leaves the repository`},
		{"href is a URL", repo(t, func(d []dataSpec) []dataSpec { d[0].href = "https://mirror.example/p.xml.gz"; return d }), "", nil, "is a URL: only local repositories are read"},
		{"xml:base", repo(t, func(d []dataSpec) []dataSpec { d[0].base = "https://mirror.example/"; return d }), "", nil, `xml:base "https://mirror.example/"`},
		{"no href", repo(t, func(d []dataSpec) []dataSpec { d[0].href = ""; return d }), "", nil, "primary data: no location href"},
		{"data file missing", repo(t, func(d []dataSpec) []dataSpec { d[1].href = "repodata/gone.xml.gz"; d[1].content = nil; return d }), "", nil,
			"open repo/repodata/gone.xml.gz: file does not exist"},
		{"checksum mismatch", repo(t, func(d []dataSpec) []dataSpec { d[0].checksum = strings.Repeat("0", 64); return d }), "", nil,
			"repo/repodata/0001-primary.xml.gz: sha256 checksum mismatch: repomd.xml says " + strings.Repeat("0", 64) + ", the file has "},
		{"checksum mismatch wins over the parse error", repo(t, func(d []dataSpec) []dataSpec {
			d[1].content, d[1].checksum = []byte("not gzip"), strings.Repeat("1", 64)
			return d
		}), "", nil, "repo/repodata/0002-filelists.xml.gz: sha256 checksum mismatch"},
		{"unsupported checksum type", repo(t, func(d []dataSpec) []dataSpec { d[0].sumType = "crc32"; return d }), "", nil,
			`repo/repodata/repomd.xml: primary data: unsupported checksum type "crc32"`},
		{"gzip corrupt", repo(t, func(d []dataSpec) []dataSpec { d[0].content = []byte("this is not gzip at all"); return d }), "", nil,
			"repo/repodata/0001-primary.xml.gz: gzip: invalid header"},
		{"gzip CRC wrong", repo(t, func(d []dataSpec) []dataSpec { d[0].content = corruptCRC; return d }), "", nil,
			"repo/repodata/0001-primary.xml.gz: gzip: invalid checksum"},
		{"gzip truncated", repo(t, func(d []dataSpec) []dataSpec { d[1].content = d[1].content[:len(d[1].content)/2]; return d }), "", nil,
			"repo/repodata/0002-filelists.xml.gz: truncated: unexpected EOF"},
		{"zstd", repo(t, func(d []dataSpec) []dataSpec { d[0].href = "repodata/p.xml.zst"; return d }), "", nil,
			"repo/repodata/p.xml.zst: unsupported compression .zst (only gzip and plain XML are read)"},
		{"xz", repo(t, func(d []dataSpec) []dataSpec { d[1].href = "repodata/f.xml.xz"; return d }), "", nil, "unsupported compression .xz"},
		{"unknown extension", repo(t, func(d []dataSpec) []dataSpec { d[0].href = "repodata/p.sqlite"; return d }), "", nil, `unknown compression ".sqlite"`},
		{"truncated primary XML", repo(t, func(d []dataSpec) []dataSpec { d[0].content = gz(t, primaryXML(testRPMs)[:400]); return d }), "", nil,
			"repo/repodata/0001-primary.xml.gz: XML syntax error on line"},
		{"primary without closing root", repo(t, func(d []dataSpec) []dataSpec {
			d[0].content = gz(t, strings.TrimSuffix(primaryXML(testRPMs), "</metadata>\n"))
			return d
		}), "", nil, "unexpected EOF"},
		{"primary with the wrong root", repo(t, func(d []dataSpec) []dataSpec { d[0].content = gz(t, filelistsXML(testRPMs)); return d }), "", nil,
			"0001-primary.xml.gz: not a metadata document: the root element is <filelists>"},
		{"empty primary", repo(t, func(d []dataSpec) []dataSpec { d[0].content = gz(t, ""); return d }), "", nil, "0001-primary.xml.gz: no <metadata> element"},
		{"package without a name", repo(t, func(d []dataSpec) []dataSpec {
			d[0].content = gz(t, strings.Replace(primaryXML(testRPMs), "<name>bash-doc</name>", "", 1))
			return d
		}), "", nil, "0001-primary.xml.gz: line 17: package without a name"},
		{"package without a checksum", repo(t, func(d []dataSpec) []dataSpec {
			d[0].content = gz(t, strings.Replace(primaryXML(testRPMs), `<checksum type="sha256" pkgid="YES">`+testRPMs[0].pkgid+`</checksum>`, "", 1))
			return d
		}), "", nil, "package bash without a checksum (pkgid)"},
		{"package without a location", repo(t, func(d []dataSpec) []dataSpec {
			d[0].content = gz(t, strings.Replace(primaryXML(testRPMs), `<location href="x86_64/bash-5.2.37-1.1.x86_64.rpm"/>`, "", 1))
			return d
		}), "", nil, "package bash without a location href"},
		{"filelists pkgid not in primary", repo(t, func(d []dataSpec) []dataSpec { d[1].content = gz(t, filelistsXML(unknownPkgid)); return d }), "", nil,
			`0002-filelists.xml.gz: line 3: package bash: pkgid "` + strings.Repeat("ff", 32) + `" is not in primary.xml`},
		{"filelists with the wrong root", repo(t, func(d []dataSpec) []dataSpec { d[1].content = gz(t, primaryXML(testRPMs)); return d }), "", nil,
			"not a filelists document: the root element is <metadata>"},
		{"external entity not expanded", repo(t, func(d []dataSpec) []dataSpec { d[0].content = gz(t, entity); return d }), "", nil,
			"invalid character entity &xxe;"},
		{"too many packages", repo(t, nil), "", func(l *limits) { l.rpms = 1 }, "0001-primary.xml.gz: more than 1 packages (MaxRepodataPackages)"},
		{"too many files", repo(t, nil), "", func(l *limits) { l.files = 2 }, "0002-filelists.xml.gz: more than 2 files (MaxRepodataFiles)"},
		{"token too long", repo(t, func(d []dataSpec) []dataSpec { d[1].content = gz(t, filelistsXML(bigFile)); return d }), "",
			func(l *limits) { l.xmlToken = 200 }, "0002-filelists.xml.gz: line 5: a token longer than 200 bytes"},
		{"nested too deep", repo(t, func(d []dataSpec) []dataSpec { d[0].content = gz(t, deep); return d }), "",
			func(l *limits) { l.xmlDepth = 5 }, "0001-primary.xml.gz: line 8: elements nested deeper than 5"},
		{"decompresses too large", repo(t, nil), "", func(l *limits) { l.xmlBytes = 500 }, "0001-primary.xml.gz: decompresses to more than 500 bytes (MaxRepodataXMLBytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := defaultLimits
			if tt.limit != nil {
				tt.limit(&lim)
			}
			dir := tt.dir
			if dir == "" {
				dir = "repo/repodata"
			}
			rpms, err := parseRepodata(tt.fsys(), dir, lim)
			if err == nil {
				t.Fatalf("no error; rpms %+v", rpms)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\nwant it to contain %q", err, tt.want)
			}
			if rpms != nil {
				t.Errorf("partial result %+v returned with the error", rpms)
			}
		})
	}
}

// repo returns a builder of the default repository changed by edit.
func repo(t *testing.T, edit func([]dataSpec) []dataSpec) func() fstest.MapFS {
	return func() fstest.MapFS {
		d := testRepo(t)
		if edit != nil {
			d = edit(d)
		}
		return buildRepo(d)
	}
}

// TestParseRepodataAllocs bounds the allocations of a parse per file: what is kept (a string
// per file, a few per package) and little else, however much of primary.xml is read past.
// With encoding/xml it made 18 per file.
func TestParseRepodataAllocs(t *testing.T) {
	const n, files = 200, 20
	rpms := generatedRPMs(n, files)
	fsys := buildRepo([]dataSpec{
		{typ: "primary", href: "repodata/primary.xml", content: []byte(primaryXML(rpms))},
		{typ: "filelists", href: "repodata/filelists.xml", content: []byte(filelistsXML(rpms))},
	})
	allocs := testing.AllocsPerRun(5, func() {
		if got, err := ParseRepodata(fsys, "repo/repodata"); err != nil || len(got) != n {
			t.Fatalf("%d packages, %v", len(got), err)
		}
	})
	if perFile := allocs / (n * files); perFile > 2 {
		t.Errorf("%.0f allocations, %.2f per file", allocs, perFile)
	}
}
