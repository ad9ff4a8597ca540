package explorerstore

import (
	"encoding/json"
	"path"
	"testing"
)

// decodeCases are package records decodePackage must read exactly as encoding/json does:
// what Import writes (json.Marshal of a Package, strings needing escapes included) and what it
// never writes but an older release or a hand-edited file might hold.
func decodeCases() [][]byte {
	var out [][]byte
	for _, p := range []Package{
		{},
		{Name: "bash", Arch: "x86_64", Version: "5.2-1.1", Filename: "bash-5.2-1.1.x86_64.rpm", VCSURL: "https://src.test/pool/bash",
			VCSOrg: "pool", VCSRepo: "bash", TrackingBranch: "main", CommitHash: "aaaaaaaa11111111", DistURL: "obs://build.test/Pocket:1.0/standard/aaaa-bash"},
		{Name: `qu"ote`, Arch: `back\slash`, Version: "tab\there", Filename: "<html>&amp;", VCSURL: "line\u2028sep"},
		{Name: "ünïcödé", Arch: "日本語", Version: "emoji 🐚", Filename: "bad \xff utf-8", VCSURL: "nul \x00 byte"},
	} {
		b, err := json.Marshal(p)
		if err != nil {
			panic(err)
		}
		out = append(out, b)
	}
	for _, s := range []string{
		`{"arch":"x86_64","name":"bash","version":"1","filename":"f","vcs_url":"","vcs_org":"","vcs_repo":"","tracking_branch":"","commit_hash":"","disturl":""}`,
		`{"name":"bash"}`,
		`{ "name" : "bash", "arch":"x86_64","version":"1","filename":"f","vcs_url":"","vcs_org":"","vcs_repo":"","tracking_branch":"","commit_hash":"","disturl":""}`,
		`{"name":"bash","arch":"x86_64","version":"1","filename":"f","vcs_url":"","vcs_org":"","vcs_repo":"","tracking_branch":"","commit_hash":"","disturl":"","extra":1}`,
		`{"name":"bash","arch":"x86_64","version":"1","filename":"f","vcs_url":"","vcs_org":"","vcs_repo":"","tracking_branch":"","commit_hash":"","disturl":""}x`,
		`{"name":"bash","arch":"x86_64","version":"1","filename":"f","vcs_url":"","vcs_org":"","vcs_repo":"","tracking_branch":"","commit_hash":"","disturl":"}`,
		`{"name":"b` + "\x01" + `","arch":"","version":"","filename":"","vcs_url":"","vcs_org":"","vcs_repo":"","tracking_branch":"","commit_hash":"","disturl":""}`,
		`{"name":"b` + "\xc3" + `","arch":"","version":"","filename":"","vcs_url":"","vcs_org":"","vcs_repo":"","tracking_branch":"","commit_hash":"","disturl":""}`,
		`{"name":null,"arch":"","version":"","filename":"","vcs_url":"","vcs_org":"","vcs_repo":"","tracking_branch":"","commit_hash":"","disturl":""}`,
		`{}`, `{`, `}`, ``, `null`, `[]`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// checkDecode: decodePackage and json.Unmarshal agree on v — both fail, or both give the same
// Package.
func checkDecode(t *testing.T, v []byte) {
	t.Helper()
	var want Package
	wantErr := json.Unmarshal(v, &want)
	got, err := decodePackage(v)
	if (err != nil) != (wantErr != nil) || (err == nil && got != want) {
		t.Errorf("decodePackage(%q) = %+v, %v; encoding/json gives %+v, %v", v, got, err, want, wantErr)
	}
}

// TestDecodePackage: the fast record reader reads what encoding/json reads, and takes the fast
// way for the records Import writes whose strings need no unescaping.
func TestDecodePackage(t *testing.T) {
	for _, v := range decodeCases() {
		checkDecode(t, v)
	}
	plain, _ := json.Marshal(Package{Name: "bash", Arch: "x86_64", VCSURL: "https://src.test/pool/bash", DistURL: "obs://x/y"})
	if _, ok := decodePackageFast(plain); !ok {
		t.Errorf("a record as Import writes it took the slow way: %s", plain)
	}
}

// FuzzDecodePackage: for any bytes, the fast reader agrees with encoding/json.
func FuzzDecodePackage(f *testing.F) {
	for _, v := range decodeCases() {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v []byte) { checkDecode(t, v) })
}

// TestAppendPackage: the hand-written encoder writes exactly json.Marshal's bytes, escapes,
// invalid UTF-8 and line separators included (decodePackage and older readers rely on that
// shape).
func TestAppendPackage(t *testing.T) {
	for _, s := range []string{"", "bash", `qu"ote`, `back\slash`, "tab\there", "<html>&amp;", "line\u2028sep", "para\u2029",
		"ünïcödé", "日本語", "emoji 🐚", "bad \xff utf-8", "nul \x00 byte", "\x7f del", "\x1f", "cut \xe6\x97"} {
		p := Package{Name: s, Arch: "x86_64", Version: s, Filename: "f.rpm", VCSURL: s, VCSOrg: "o", VCSRepo: s,
			TrackingBranch: "main", CommitHash: s, DistURL: s}
		want, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendPackage([]byte("x"), p); string(got) != "x"+string(want) {
			t.Errorf("%q:\n got %s\nwant %s", s, got[1:], want)
		}
	}
}

// TestBasename: the byte basename of the basename index is path.Base.
func TestBasename(t *testing.T) {
	for _, f := range []string{"/", "//", "a", "/a", "a/", "/usr/bin/bash", "/usr/bin/", "usr//lib//", "/x/y z/ü"} {
		if got, want := string(basename([]byte(f))), path.Base(f); got != want {
			t.Errorf("basename(%q) = %q, want %q", f, got, want)
		}
	}
}
