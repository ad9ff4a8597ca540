package explorerapi

import (
	"net/url"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// The three product searches over the generator's three large products (importGenerated: the
// tests' own data, thousands of packages with the odd names and references a search must
// handle), checked against an oracle read straight from the store's buckets (every package of
// every product), so a search that loses, invents or mislabels a package shows. TestGolden
// and TestSearchDemoWorld answer over the demo world.

// packagesQ is the packages search with q (URL-encoded here).
func packagesQ(q string) string { return "/api/products/packages?q=" + url.QueryEscape(q) }

func filesQ(q string) string { return "/api/products/files?q=" + url.QueryEscape(q) }

func vcsQ(q string) string { return "/api/products/vcs-search?q=" + url.QueryEscape(q) }

func TestSearchPackages(t *testing.T) {
	e := newEnv(t, envOptions{generated: true})
	all := allStored(t, e.db)
	if len(all) < 3000 {
		t.Fatalf("the generated data has %d packages; want the generator's three products", len(all))
	}
	// matching is the oracle: the entries whose name contains q, case-insensitively.
	matching := func(q string) []packageOut {
		var out []packageOut
		for _, p := range all {
			if strings.Contains(strings.ToLower(p.Name), strings.ToLower(q)) {
				out = append(out, p.entry())
			}
		}
		return out
	}
	// answers checks the answer is the oracle's for q, sorted, with search_term term.
	answers := func(q string, term *string, atLeast int) func(*testing.T, string) {
		return func(t *testing.T, body string) {
			got := decode[packagesOut](t, body)
			switch {
			case term == nil && got.SearchTerm != nil:
				t.Errorf("search_term %q, want null", *got.SearchTerm)
			case term != nil && (got.SearchTerm == nil || *got.SearchTerm != *term):
				t.Errorf("search_term %v, want %q", got.SearchTerm, *term)
			}
			want := matching(q)
			if got.Count != len(got.Packages) || got.Count != len(want) {
				t.Errorf("count %d with %d packages, want %d", got.Count, len(got.Packages), len(want))
			}
			if len(want) < atLeast {
				t.Errorf("the oracle has %d packages for %q, the case wants at least %d: the demo world changed", len(want), q, atLeast)
			}
			if d := sameEntries(got.Packages, want); d != "" {
				t.Errorf("packages differ from the store's:\n%s", d)
			}
			checkSorted(t, got.Packages)
		}
	}
	str := func(s string) *string { return &s }
	long := strings.Repeat("a", 300)
	e.run(t, []scenario{
		{name: "every package without q, search_term null",
			Request: apitest.Request{Path: "/api/products/packages"},
			Expect:  apitest.Expect{Status: 200, Contains: []string{`{"search_term":null,"count":`}},
			check:   answers("", nil, 3000)},
		{name: "empty q is every package, search_term empty",
			Request: apitest.Request{Path: "/api/products/packages?q="},
			Expect:  apitest.Expect{Status: 200, Contains: []string{`{"search_term":"","count":`}},
			check:   answers("", str(""), 3000)},
		{name: "exact name", Request: apitest.Request{Path: packagesQ("pocket-cli")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_term":"pocket-cli","count":3,`}},
			check:  answers("pocket-cli", str("pocket-cli"), 3)},
		{name: "case-insensitive", Request: apitest.Request{Path: packagesQ("POCKET-cli")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_term":"POCKET-cli","count":3,`}},
			check:  answers("pocket-cli", str("POCKET-cli"), 3)},
		{name: "substring", Request: apitest.Request{Path: packagesQ("ocket-c")},
			Expect: apitest.Expect{Status: 200}, check: answers("ocket-c", str("ocket-c"), 3)},
		{name: "substring of many names", Request: apitest.Request{Path: packagesQ("lib")},
			Expect: apitest.Expect{Status: 200}, check: answers("lib", str("lib"), 100)},
		{name: "two characters (shorter than a gram)", Request: apitest.Request{Path: packagesQ("vi")},
			Expect: apitest.Expect{Status: 200}, check: answers("vi", str("vi"), 3)},
		{name: "one character", Request: apitest.Request{Path: packagesQ("z")},
			Expect: apitest.Expect{Status: 200}, check: answers("z", str("z"), 1)},
		{name: "surrounding spaces are dropped", Request: apitest.Request{Path: packagesQ("  pocket-cli ")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_term":"pocket-cli"`}},
			check:  answers("pocket-cli", str("pocket-cli"), 3)},
		{name: "grams in another order do not match", Request: apitest.Request{Path: packagesQ("cli-pocket")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"cli-pocket","count":0,"packages":[]}`}},
		{name: "nothing matches: count 0 and an empty list", Request: apitest.Request{Path: packagesQ("no-such-package-xyz")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"no-such-package-xyz","count":0,"packages":[]}`}},
		{name: "regex .* is literal", Request: apitest.Request{Path: packagesQ(".*")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":".*","count":0,"packages":[]}`}},
		{name: "a lone [ is literal, not a broken regex", Request: apitest.Request{Path: packagesQ("[")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"[","count":0,"packages":[]}`}},
		{name: "[a-z] is literal", Request: apitest.Request{Path: packagesQ("[a-z]")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"[a-z]","count":0,"packages":[]}`}},
		{name: "% is literal, not a SQL wildcard", Request: apitest.Request{Path: packagesQ("%")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"%","count":0,"packages":[]}`}},
		{name: "* and ? are literal", Request: apitest.Request{Path: packagesQ("pocket*")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"pocket*","count":0,"packages":[]}`}},
		{name: "+ is literal (c++ names)", Request: apitest.Request{Path: packagesQ("c++")},
			Expect: apitest.Expect{Status: 200}, check: answers("c++", str("c++"), 2)},
		{name: "++ shorter than a gram is literal", Request: apitest.Request{Path: packagesQ("++")},
			Expect: apitest.Expect{Status: 200}, check: answers("++", str("++"), 2)},
		{name: "a lone . matches dots only", Request: apitest.Request{Path: packagesQ(".")},
			Expect: apitest.Expect{Status: 200}, check: answers(".", str("."), 1)},
		{name: "non-ASCII term matches nothing", Request: apitest.Request{Path: packagesQ("pöcket")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"pöcket","count":0,"packages":[]}`}},
		{name: "a term of 256 bytes is taken", Request: apitest.Request{Path: packagesQ(strings.Repeat("b", 256))},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":0,"packages":[]`}}},
		{name: "invalid UTF-8 is a 400", Request: apitest.Request{Path: "/api/products/packages?q=%ff%fe"},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"search term is not valid UTF-8"}`}},
		{name: "a 300-byte term is a 400", Request: apitest.Request{Path: packagesQ(long)},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"search term is longer than 256 bytes"}`}},
		{name: "a NUL is a 400", Request: apitest.Request{Path: "/api/products/packages?q=ab%00c"},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"search term contains a NUL character"}`}},
		{name: "unknown /api path is a JSON 404", Request: apitest.Request{Path: "/api/products/nope"},
			Expect: apitest.Expect{Status: 404, Exact: `{"error":"Not Found"}`}},
		{name: "POST is not allowed", Request: apitest.Request{Method: "POST", Path: "/api/products/packages"},
			Expect: apitest.Expect{Status: 405}},
	})
}

func TestSearchFiles(t *testing.T) {
	e := newEnv(t, envOptions{generated: true})
	// every checks each result and package against what a file search must answer for q.
	every := func(q string, min int, each func(t *testing.T, r fileResultOut)) func(*testing.T, string) {
		return func(t *testing.T, body string) {
			got := decode[filesOut](t, body)
			if got.SearchTerm != q {
				t.Errorf("search_term %q, want %q", got.SearchTerm, q)
			}
			if got.Count != len(got.Results) || got.Count < min {
				t.Errorf("count %d with %d results, want at least %d", got.Count, len(got.Results), min)
			}
			for i, r := range got.Results {
				if strings.Contains(q, "/") && r.FilePath != q || !strings.Contains(q, "/") && path.Base(r.FilePath) != q {
					t.Errorf("result %d is %s: not the file %q", i, r.FilePath, q)
				}
				if len(r.Packages) == 0 {
					t.Errorf("result %d (%s in %s) has no package", i, r.FilePath, r.RPMFilename)
				}
				for _, p := range r.Packages {
					if !strings.HasPrefix(r.RPMFilename, p.PackageName+"-") || !strings.HasSuffix(r.RPMFilename, "."+p.Arch+".rpm") {
						t.Errorf("result %d: package %s.%s does not ship %s", i, p.PackageName, p.Arch, r.RPMFilename)
					}
					if p.ProductName != "Pocket" || p.ProductVersion == "" || p.ProductBuild == "" {
						t.Errorf("result %d: product fields %+v", i, p)
					}
				}
				if i > 0 {
					prev := got.Results[i-1]
					if prev.FilePath > r.FilePath || prev.FilePath == r.FilePath && prev.RPMFilename >= r.RPMFilename {
						t.Errorf("results %d and %d are not sorted by path and RPM (or repeat a group)", i-1, i)
					}
				}
				if each != nil {
					each(t, r)
				}
			}
		}
	}
	// under checks a listing under a directory or path prefix: every path starts with q, the
	// nearest first (fewer "/" after q), then by path and RPM.
	under := func(q string, min int) func(*testing.T, string) {
		return func(t *testing.T, body string) {
			got := decode[filesOut](t, body)
			if got.Count != len(got.Results) || got.Count < min {
				t.Errorf("count %d with %d results, want at least %d", got.Count, len(got.Results), min)
			}
			depth := func(p string) int { return strings.Count(p[len(q):], "/") }
			for i, r := range got.Results {
				if !strings.HasPrefix(r.FilePath, q) || len(r.Packages) == 0 {
					t.Fatalf("result %d: %s (%d packages) is not under %q", i, r.FilePath, len(r.Packages), q)
				}
				if i > 0 {
					prev := got.Results[i-1]
					if depth(prev.FilePath) > depth(r.FilePath) || depth(prev.FilePath) == depth(r.FilePath) && prev.FilePath > r.FilePath {
						t.Errorf("results %d (%s) and %d (%s) are not nearest first, then by path", i-1, prev.FilePath, i, r.FilePath)
					}
				}
			}
		}
	}
	shortErr := `{"error":"search term must be at least 2 characters"}`
	e.run(t, []scenario{
		{name: "absent q is a 400", Request: apitest.Request{Path: "/api/products/files"},
			Expect: apitest.Expect{Status: 400, Exact: shortErr}},
		{name: "empty q is a 400", Request: apitest.Request{Path: "/api/products/files?q="},
			Expect: apitest.Expect{Status: 400, Exact: shortErr}},
		{name: "one character is a 400", Request: apitest.Request{Path: filesQ("a")},
			Expect: apitest.Expect{Status: 400, Exact: shortErr}},
		{name: "one character padded with spaces is a 400", Request: apitest.Request{Path: filesQ(" a ")},
			Expect: apitest.Expect{Status: 400, Exact: shortErr}},
		{name: "one two-byte character is a 400 (characters, not bytes)", Request: apitest.Request{Path: filesQ("é")},
			Expect: apitest.Expect{Status: 400, Exact: shortErr}},
		{name: "invalid UTF-8 is a 400", Request: apitest.Request{Path: "/api/products/files?q=%c3%28"},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"search term is not valid UTF-8"}`}},
		{name: "a 300-byte term is a 400", Request: apitest.Request{Path: filesQ("/" + strings.Repeat("x", 299))},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"search term is longer than 256 bytes"}`}},
		{name: "a full path: one result per RPM that ships it", Request: apitest.Request{Path: filesQ("/usr/bin/bash")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_term":"/usr/bin/bash","count":3,`}},
			check: every("/usr/bin/bash", 3, func(t *testing.T, r fileResultOut) {
				if len(r.Packages) != 1 || r.Packages[0].PackageName != "bash" {
					t.Errorf("%s: packages %+v, want bash only", r.RPMFilename, r.Packages)
				}
			})},
		{name: "a basename: every path ending in it", Request: apitest.Request{Path: filesQ("bash")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"file_path":"/usr/bin/bash"`}},
			check:  every("bash", 3, nil)},
		{name: "a basename shipped by two packages of one release", Request: apitest.Request{Path: filesQ("python3")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"package_name":"python313-base"`, `"package_name":"python311-base"`}},
			check:  every("python3", 3, nil)},
		{name: "a noarch RPM shared by products groups their packages", Request: apitest.Request{Path: filesQ("/etc/os-release")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_term":"/etc/os-release","count":2,`}},
			check: every("/etc/os-release", 2, func(t *testing.T, r fileResultOut) {
				// pocket-release is noarch: the 1.0 products (x86_64 and aarch64) ship the same RPM
				// file, so its group holds one package of each; 0.9 has one product.
				want := 1
				if strings.HasPrefix(r.RPMFilename, "pocket-release-1.0-") {
					want = 2
				}
				if len(r.Packages) != want {
					t.Errorf("%s: %d packages, want %d: %+v", r.RPMFilename, len(r.Packages), want, r.Packages)
				}
			})},
		{name: "a path prefix lists the paths that start so", Request: apitest.Request{Path: filesQ("/usr/bin/bas")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"file_path":"/usr/bin/bash"`, `"under":true`}},
			check:  under("/usr/bin/bas", 3)},
		{name: "a directory lists what lies under it, nearest first", Request: apitest.Request{Path: filesQ("/usr/bin")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"file_path":"/usr/bin/bash"`, `"under":true`}},
			check:  under("/usr/bin", 10)},
		{name: "a directory with its slash", Request: apitest.Request{Path: filesQ("/usr/")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"file_path":"/usr/bin/bash"`}},
			check:  under("/usr/", 10)},
		{name: "a page of a directory", Request: apitest.Request{Path: filesQ("/usr/bin") + "&page=2&per_page=2"},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":2,`, `"under":true,"total":`}}},
		{name: "a page past the end", Request: apitest.Request{Path: filesQ("/usr/bin") + "&page=100000"},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":0,"results":[],"under":true,"total":`}}},
		{name: "per_page over 1000 is a 400", Request: apitest.Request{Path: filesQ("/usr/bin") + "&per_page=1001"},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"per_page must be a whole number from 1 to 1000"}`}},
		{name: "page 0 is a 400", Request: apitest.Request{Path: filesQ("/usr/bin") + "&page=0"},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"page must be a whole number from 1"}`}},
		{name: "under a file is nothing", Request: apitest.Request{Path: filesQ("/usr/bin/bash/")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"/usr/bin/bash/","count":0,"results":[]}`}},
		{name: "regex characters are literal", Request: apitest.Request{Path: filesQ("ba.h")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"ba.h","count":0,"results":[]}`}},
		{name: "a basename matches case-sensitively", Request: apitest.Request{Path: filesQ("BASH")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"BASH","count":0,"results":[]}`}},
		{name: "nothing ships it", Request: apitest.Request{Path: filesQ("/no/such/file")},
			Expect: apitest.Expect{Status: 200, Exact: `{"search_term":"/no/such/file","count":0,"results":[]}`}},
	})
}

func TestSearchVCS(t *testing.T) {
	e := newEnv(t, envOptions{generated: true})
	all := allStored(t, e.db)
	// A package of a foreign (not pool/) repository and the commit of pocket-cli in 1.0.
	var foreign storedPackage
	var commit string
	for _, p := range all {
		if foreign.Name == "" && p.VCSOrg != "" && p.VCSOrg != "pool" {
			foreign = p
		}
		if p.Name == "pocket-cli" && p.TrackingBranch == "pocket-1.0" {
			commit = p.CommitHash
		}
	}
	if foreign.Name == "" || len(commit) != 64 {
		t.Fatalf("the generated data lacks a foreign repository (%+v) or pocket-cli's commit (%q)", foreign.Package, commit)
	}
	// matching is the oracle: the entries whose git tuple has every part given.
	matching := func(org, repo, branch, commit string) []packageOut {
		var out []packageOut
		eq := strings.EqualFold
		for _, p := range all {
			if p.VCSURL == "" && p.VCSRepo == "" ||
				org != "" && !eq(p.VCSOrg, org) || repo != "" && !eq(p.VCSRepo, repo) ||
				branch != "" && !eq(p.TrackingBranch, branch) ||
				commit != "" && !strings.HasPrefix(strings.ToLower(p.CommitHash), strings.ToLower(commit)) {
				continue
			}
			out = append(out, p.entry())
		}
		return out
	}
	type parsed struct{ org, repo, branch, commit string }
	answers := func(term string, want parsed, atLeast int) func(*testing.T, string) {
		return func(t *testing.T, body string) {
			got := decode[vcsOut](t, body)
			if got.SearchTerm != term {
				t.Errorf("search_term %q, want %q", got.SearchTerm, term)
			}
			for _, f := range []struct {
				name string
				got  *string
				want string
			}{{"search_org", got.SearchOrg, want.org}, {"search_repo", got.SearchRepo, want.repo},
				{"search_branch", got.SearchBranch, want.branch}, {"search_commit", got.SearchCommit, want.commit}} {
				switch {
				case f.want == "" && f.got != nil:
					t.Errorf("%s %q, want null", f.name, *f.got)
				case f.want != "" && (f.got == nil || *f.got != f.want):
					t.Errorf("%s %v, want %q", f.name, f.got, f.want)
				}
			}
			oracle := matching(want.org, want.repo, want.branch, want.commit)
			if got.Count != len(got.Packages) || got.Count != len(oracle) || len(oracle) < atLeast {
				t.Errorf("count %d with %d packages; the store has %d (the case wants at least %d)", got.Count, len(got.Packages), len(oracle), atLeast)
			}
			if d := sameEntries(got.Packages, oracle); d != "" {
				t.Errorf("packages differ from the store's:\n%s", d)
			}
			checkSorted(t, got.Packages)
		}
	}
	noForm := `{"error":"search term must be org/repo@branch, repo@branch, repo or a commit of at least 8 hex characters"}`
	noBranch := `{"error":"a branch must follow @ (org/repo@branch, repo@branch)"}`
	noOrg := `{"error":"the organization in org/repo@branch is missing or not a name"}`
	short := `{"error":"search term must be at least 2 characters"}`
	fo, fr, fb := foreign.VCSOrg, foreign.VCSRepo, foreign.TrackingBranch
	e.run(t, []scenario{
		{name: "org/repo@branch", Request: apitest.Request{Path: vcsQ("pool/pocket-cli@pocket-1.0")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":2,`}},
			check:  answers("pool/pocket-cli@pocket-1.0", parsed{"pool", "pocket-cli", "pocket-1.0", ""}, 2)},
		{name: "@ sent as %40", Request: apitest.Request{Path: "/api/products/vcs-search?q=pool/pocket-cli%40pocket-1.0"},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":2,`}},
			check:  answers("pool/pocket-cli@pocket-1.0", parsed{"pool", "pocket-cli", "pocket-1.0", ""}, 2)},
		{name: "# in place of @", Request: apitest.Request{Path: vcsQ("pool/pocket-cli#pocket-1.0")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_term":"pool/pocket-cli#pocket-1.0"`, `"count":2,`}},
			check:  answers("pool/pocket-cli#pocket-1.0", parsed{"pool", "pocket-cli", "pocket-1.0", ""}, 2)},
		{name: "repo@branch: any organization", Request: apitest.Request{Path: vcsQ("pocket-cli@pocket-0.9")},
			Expect: apitest.Expect{Status: 200},
			check:  answers("pocket-cli@pocket-0.9", parsed{"", "pocket-cli", "pocket-0.9", ""}, 1)},
		{name: "repo#branch", Request: apitest.Request{Path: vcsQ("pocket-cli#pocket-1.0")},
			Expect: apitest.Expect{Status: 200},
			check:  answers("pocket-cli#pocket-1.0", parsed{"", "pocket-cli", "pocket-1.0", ""}, 2)},
		{name: "repo: every branch", Request: apitest.Request{Path: vcsQ("pocket-cli")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":3,`}},
			check:  answers("pocket-cli", parsed{"", "pocket-cli", "", ""}, 3)},
		{name: "a repository of many subpackages", Request: apitest.Request{Path: vcsQ("python313")},
			Expect: apitest.Expect{Status: 200},
			check:  answers("python313", parsed{"", "python313", "", ""}, 4)},
		{name: "org/repo without a branch", Request: apitest.Request{Path: vcsQ("pool/pocket-cli")},
			Expect: apitest.Expect{Status: 200},
			check:  answers("pool/pocket-cli", parsed{"pool", "pocket-cli", "", ""}, 3)},
		{name: "a foreign organization", Request: apitest.Request{Path: vcsQ(fo + "/" + fr + "@" + fb)},
			Expect: apitest.Expect{Status: 200},
			check:  answers(fo+"/"+fr+"@"+fb, parsed{fo, fr, fb, ""}, 1)},
		{name: "the wrong organization finds nothing", Request: apitest.Request{Path: vcsQ("pool/" + fr + "@" + fb)},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":0,"packages":[]`}},
			check:  answers("pool/"+fr+"@"+fb, parsed{"pool", fr, fb, ""}, 0)},
		{name: "names are matched case-insensitively, shown as sent", Request: apitest.Request{Path: vcsQ("POOL/Pocket-CLI@POCKET-1.0")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":2,`}},
			check:  answers("POOL/Pocket-CLI@POCKET-1.0", parsed{"POOL", "Pocket-CLI", "POCKET-1.0", ""}, 2)},
		{name: "a branch pocket-cli is not on", Request: apitest.Request{Path: vcsQ("pocket-cli@no-such-branch")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":0,"packages":[]`}},
			check:  answers("pocket-cli@no-such-branch", parsed{"", "pocket-cli", "no-such-branch", ""}, 0)},
		{name: "a branch with a slash", Request: apitest.Request{Path: vcsQ("pocket-cli@feature/x")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"count":0,"packages":[]`}},
			check:  answers("pocket-cli@feature/x", parsed{"", "pocket-cli", "feature/x", ""}, 0)},
		{name: "a commit prefix of 8 hex", Request: apitest.Request{Path: vcsQ(commit[:8])},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_org":null,"search_repo":null,"search_branch":null`}},
			check:  answers(commit[:8], parsed{"", "", "", commit[:8]}, 2)},
		{name: "a whole commit of 64 hex", Request: apitest.Request{Path: vcsQ(commit)},
			Expect: apitest.Expect{Status: 200},
			check:  answers(commit, parsed{"", "", "", commit}, 2)},
		{name: "an upper-case commit is lower-cased", Request: apitest.Request{Path: vcsQ(strings.ToUpper(commit[:12]))},
			Expect: apitest.Expect{Status: 200},
			check:  answers(strings.ToUpper(commit[:12]), parsed{"", "", "", commit[:12]}, 2)},
		{name: "a commit of a foreign repository (40 hex)", Request: apitest.Request{Path: vcsQ(foreign.CommitHash[:10])},
			Expect: apitest.Expect{Status: 200},
			check:  answers(foreign.CommitHash[:10], parsed{"", "", "", foreign.CommitHash[:10]}, 1)},
		{name: "7 hex characters are a repository name", Request: apitest.Request{Path: vcsQ(commit[:7])},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_repo":"` + commit[:7] + `","search_branch":null,"search_commit":null,"count":0`}},
			check:  answers(commit[:7], parsed{"", commit[:7], "", ""}, 0)},
		{name: "65 hex characters are a repository name", Request: apitest.Request{Path: vcsQ(commit + "0")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_commit":null,"count":0`}},
			check:  answers(commit+"0", parsed{"", commit + "0", "", ""}, 0)},
		{name: "an unknown commit", Request: apitest.Request{Path: vcsQ("0000000000")},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"search_commit":"0000000000","count":0,"packages":[]`}}},
		{name: "absent q is a 400", Request: apitest.Request{Path: "/api/products/vcs-search"},
			Expect: apitest.Expect{Status: 400, Exact: short}},
		{name: "one character is a 400", Request: apitest.Request{Path: vcsQ("x")},
			Expect: apitest.Expect{Status: 400, Exact: short}},
		{name: "a 300-byte term is a 400", Request: apitest.Request{Path: vcsQ(strings.Repeat("r", 300))},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"search term is longer than 256 bytes"}`}},
		{name: "invalid UTF-8 is a 400", Request: apitest.Request{Path: "/api/products/vcs-search?q=pool%ff"},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"search term is not valid UTF-8"}`}},
		{name: "@main: no repository", Request: apitest.Request{Path: vcsQ("@main")},
			Expect: apitest.Expect{Status: 400, Exact: noForm}},
		{name: "org/@b: no repository", Request: apitest.Request{Path: vcsQ("org/@b")},
			Expect: apitest.Expect{Status: 400, Exact: noForm}},
		{name: "a/b/c@x: a repository with a slash", Request: apitest.Request{Path: vcsQ("a/b/c@x")},
			Expect: apitest.Expect{Status: 400, Exact: noForm}},
		{name: "/repo: no organization", Request: apitest.Request{Path: vcsQ("/pocket-cli@main")},
			Expect: apitest.Expect{Status: 400, Exact: noOrg}},
		{name: "repo@: no branch", Request: apitest.Request{Path: vcsQ("pocket-cli@")},
			Expect: apitest.Expect{Status: 400, Exact: noBranch}},
		{name: "repo#: no branch", Request: apitest.Request{Path: vcsQ("pocket-cli#")},
			Expect: apitest.Expect{Status: 400, Exact: noBranch}},
		{name: "two @", Request: apitest.Request{Path: vcsQ("a@b@c")},
			Expect: apitest.Expect{Status: 400, Exact: noBranch}},
		{name: "a space in the name", Request: apitest.Request{Path: vcsQ("pocket cli")},
			Expect: apitest.Expect{Status: 400, Exact: noForm}},
		{name: "a wildcard is no name", Request: apitest.Request{Path: vcsQ("pocket-*")},
			Expect: apitest.Expect{Status: 400, Exact: noForm}},
	})
}

// update rewrites the goldens of testdata/ from the current answers (UPDATE_GOLDEN=1).
var update = os.Getenv("UPDATE_GOLDEN") == "1"

// TestGolden: whole answers over the demo world as built (deterministic: the farm runs by a
// fixed clock over fixed sources, so every name, version, commit and disturl is the same every
// time), against testdata/<name>.json, indented for review.
// `UPDATE_GOLDEN=1 go test ./api/explorer -run TestGolden` rewrites them after a deliberate
// change.
func TestGolden(t *testing.T) {
	e := newEnv(t, envOptions{})
	cases := []struct {
		name, path string
		status     int
	}{
		{"packages_pocket-cli", packagesQ("pocket-cli"), 200},
		{"packages_no_match", packagesQ("no-such-package"), 200},
		{"files_usr_bin_bash", filesQ("/usr/bin/bash"), 200},
		{"files_os-release", filesQ("os-release"), 200},
		{"files_too_short", filesQ("a"), 400},
		{"vcs_org_repo_branch", "/api/products/vcs-search?q=pool/pocket-cli%40pocket-1.0", 200},
		{"vcs_commit_prefix", vcsQ(pocketCLI10[:8]), 200},
		{"vcs_bad_form", vcsQ("a/b/c@x"), 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := e.get(t, c.path)
			if got.Status != c.status {
				t.Fatalf("status %d, want %d: %s", got.Status, c.status, got.Body)
			}
			checkJSONGolden(t, c.path, c.name+".json", got.Body)
		})
	}
}

// pocketCLI10 is the commit Pocket:1.0/pocket-cli's sources stand for on a fresh demo world
// (buildsvc.PackageVCS): what the farm's Pocket 1.0 products name, and where pool/pocket-cli's
// pocket-1.0 is.
const pocketCLI10 = "57b7f15469746592c492bec2864bd94e27a4aea677120aba055a0286cee6aa8d"
