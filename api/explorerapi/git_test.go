package explorerapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store"
)

// fakeBuilds stands in for the build service: every package it is asked for built on x86_64
// and aarch64 of "standard" (failed on aarch64 for libpocket, to tell them apart), except in
// the hidden projects, which it does not find — as the build service answers a caller that
// may not read them.
type fakeBuilds struct {
	hidden map[string]bool
	asked  *[]string
}

func (f fakeBuilds) PackageResults(project, pkg string) ([]explorersvc.BuildResult, error) {
	if f.asked != nil {
		*f.asked = append(*f.asked, project+"/"+pkg)
	}
	if f.hidden[project] {
		return nil, fmt.Errorf("project %s: %w", project, store.ErrNotFound)
	}
	aarch64 := "succeeded"
	if pkg == "libpocket" {
		aarch64 = "failed"
	}
	return []explorersvc.BuildResult{
		{Project: project, Package: pkg, Repository: "standard", Arch: "x86_64", Status: "succeeded"},
		{Project: project, Package: pkg, Repository: "standard", Arch: "aarch64", Status: aarch64},
	}, nil
}

const noRepo = `{"error":"Repository not found"}`

func branchesQ(pkg, org string) string {
	p := "/api/packages/" + pkg + "/branches"
	if org != "-" {
		p += "?org=" + org
	}
	return p
}

func forksQ(pkg, org string) string {
	p := "/api/packages/" + pkg + "/fork-builds"
	if org != "-" {
		p += "?org=" + org
	}
	return p
}

type branchesOut struct {
	Package  string `json:"package"`
	Org      string `json:"org"`
	Branches []struct {
		Name   string `json:"name"`
		Commit struct {
			SHA string `json:"sha"`
			URL string `json:"url"`
		} `json:"commit"`
	} `json:"branches"`
}

type forksOut struct {
	Success bool `json:"success"`
	Forks   []struct {
		Owner        string `json:"owner"`
		Name         string `json:"name"`
		URL          string `json:"url"`
		BuildResults []struct {
			Project    string `json:"project"`
			Package    string `json:"package"`
			Repository string `json:"repository"`
			Arch       string `json:"arch"`
			Status     string `json:"status"`
		} `json:"build_results"`
	} `json:"forks"`
}

// TestBranches: a pool repository's branches by name, each with its head commit and the
// commit's address; the org defaults to pool, is found whatever its case and answered as the
// host spells it; a multibuild flavour is stripped; a user's fork has its own branches; every
// repository that is not there — unknown package or org, a package with no pool repository
// (classic), a repository a product names that the host does not hold, a name no repository
// can have — is 404 in the seed's words.
func TestBranches(t *testing.T) {
	e := newEnv(t, envOptions{})
	poolCLI := func(t *testing.T, body string) {
		got := decode[branchesOut](t, body)
		if got.Package != "pocket-cli" || got.Org != "pool" || len(got.Branches) < 2 {
			t.Fatalf("answer %+v", got)
		}
		for _, b := range got.Branches {
			if len(b.Commit.SHA) != 64 || b.Commit.URL != "https://src.pocketforge.test/pool/pocket-cli/commit/"+b.Commit.SHA {
				t.Errorf("branch %+v", b)
			}
		}
	}
	e.run(t, []scenario{
		{name: "default org", Request: apitest.Request{Path: branchesQ("pocket-cli", "-")}, Expect: apitest.Expect{Status: 200,
			Contains: []string{`"name":"main"`, `"name":"pocket-1.0"`}}, check: poolCLI},
		{name: "pool", Request: apitest.Request{Path: branchesQ("pocket-cli", "pool")}, Expect: apitest.Expect{Status: 200}, check: poolCLI},
		{name: "empty org is the default", Request: apitest.Request{Path: branchesQ("pocket-cli", "")}, Expect: apitest.Expect{Status: 200}, check: poolCLI},
		{name: "org and name in another case", Request: apitest.Request{Path: branchesQ("Pocket-CLI", "POOL")}, Expect: apitest.Expect{Status: 200}, check: poolCLI},
		{name: "flavour stripped", Request: apitest.Request{Path: branchesQ("pocket-cli:lang", "pool")}, Expect: apitest.Expect{Status: 200}, check: poolCLI},
		{name: "older release branch", Request: apitest.Request{Path: branchesQ("pocket-release", "-")}, Expect: apitest.Expect{Status: 200,
			Contains: []string{`"name":"main"`, `"name":"pocket-0.9"`, `"name":"pocket-1.0"`}}},
		{name: "a fork's own branch", Request: apitest.Request{Path: branchesQ("pocket-cli", "alice")}, Expect: apitest.Expect{Status: 200,
			Contains: []string{`"org":"alice"`, `"name":"feature/completion"`, `https://src.pocketforge.test/alice/pocket-cli/commit/`}}},
		{name: "unknown package", Request: apitest.Request{Path: branchesQ("no-such-package", "-")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "unknown org", Request: apitest.Request{Path: branchesQ("pocket-cli", "nobody")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "a user without that fork", Request: apitest.Request{Path: branchesQ("libpocket", "alice")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "classic package (the base's, no scmsync)", Request: apitest.Request{Path: branchesQ("bash", "-")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "a repository the host model does not hold (the product's products/Pocket)", Request: apitest.Request{Path: branchesQ("Pocket", "products")},
			Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "org with a slash", Request: apitest.Request{Path: branchesQ("pocket-cli", "pool%2F..")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "org dot dot", Request: apitest.Request{Path: branchesQ("pocket-cli", "..")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "only a flavour", Request: apitest.Request{Path: branchesQ(":lang", "-")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "encoded name", Request: apitest.Request{Path: branchesQ("pocket%2Dcli%00", "-")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "a very long name", Request: apitest.Request{Path: branchesQ(strings.Repeat("a", 1500), strings.Repeat("b", 1500))},
			Expect: apitest.Expect{Status: 404, Exact: noRepo}},
	})
}

// TestBranchesMatchProducts: the head of pool/pocket-cli's pocket-1.0 is the commit the
// current products were built from, as the git search shows it.
func TestBranchesMatchProducts(t *testing.T) {
	e := newEnv(t, envOptions{})
	found := decode[vcsOut](t, e.get(t, "/api/products/vcs-search?q=pool/pocket-cli%40pocket-1.0").Body)
	branches := decode[branchesOut](t, e.get(t, branchesQ("pocket-cli", "pool")).Body)
	if found.Count == 0 {
		t.Fatal("no product has pool/pocket-cli@pocket-1.0")
	}
	for _, b := range branches.Branches {
		if b.Name != "pocket-1.0" {
			continue
		}
		for _, p := range found.Packages {
			if p.CommitHash != b.Commit.SHA {
				t.Errorf("%s of %s was built from %s; pocket-1.0 is at %s", p.PackageName, p.Product.FullName, p.CommitHash, b.Commit.SHA)
			}
		}
		return
	}
	t.Errorf("pool/pocket-cli has no pocket-1.0: %+v", branches)
}

// TestForkBuilds: the forks of a pool repository by owner, each with the results of the
// build-service package its branches are built as — none for a fork built nowhere, and none
// for one built in a project the explorer may not read —; a repository without forks has an
// empty list; the default org is the configured one; unknown repositories are 404.
func TestForkBuilds(t *testing.T) {
	e := newEnv(t, envOptions{})
	var asked []string
	e.im.Builds = fakeBuilds{hidden: map[string]bool{"home:bob:forks": true}, asked: &asked}
	e.run(t, []scenario{
		{name: "two forks, one built", Request: apitest.Request{Path: forksQ("forge-utils", "pool")}, Expect: apitest.Expect{Status: 200,
			Contains: []string{`{"owner":"alice","name":"forge-utils","url":"https://src.pocketforge.test/alice/forge-utils","build_results":[{"project":"home:alice:branches:devel:tools","package":"forge-utils","repository":"standard","arch":"x86_64","status":"succeeded"}`,
				`{"owner":"bob","name":"forge-utils","url":"https://src.pocketforge.test/bob/forge-utils","build_results":[]}`}}},
		{name: "built in a project hidden from the explorer", Request: apitest.Request{Path: forksQ("libpocket", "-")}, Expect: apitest.Expect{Status: 200,
			Exact: `{"success":true,"forks":[{"owner":"bob","name":"libpocket","url":"https://src.pocketforge.test/bob/libpocket","build_results":[]}]}`}},
		{name: "built nowhere", Request: apitest.Request{Path: forksQ("pocket-cli", "")}, Expect: apitest.Expect{Status: 200,
			Exact: `{"success":true,"forks":[{"owner":"alice","name":"pocket-cli","url":"https://src.pocketforge.test/alice/pocket-cli","build_results":[]}]}`}},
		{name: "no forks", Request: apitest.Request{Path: forksQ("pocket-base", "-")}, Expect: apitest.Expect{Status: 200, Exact: `{"success":true,"forks":[]}`}},
		{name: "a fork's forks", Request: apitest.Request{Path: forksQ("forge-utils", "alice")}, Expect: apitest.Expect{Status: 200, Exact: `{"success":true,"forks":[]}`}},
		{name: "flavour stripped", Request: apitest.Request{Path: forksQ("forge-utils:docs", "Pool")}, Expect: apitest.Expect{Status: 200,
			Contains: []string{`"owner":"alice"`, `"owner":"bob"`}}},
		{name: "unknown package", Request: apitest.Request{Path: forksQ("no-such-package", "-")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "unknown org", Request: apitest.Request{Path: forksQ("forge-utils", "nobody")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
		{name: "bad org", Request: apitest.Request{Path: forksQ("forge-utils", "a%20b")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
	})
	if want := "home:alice:branches:devel:tools/forge-utils home:bob:forks/libpocket home:alice:branches:devel:tools/forge-utils"; strings.Join(asked, " ") != want {
		t.Errorf("asked the build service for %v, want %s", asked, want)
	}

	t.Run("configured org", func(t *testing.T) {
		e.im.GitOrg = "alice"
		defer func() { e.im.GitOrg = "" }()
		e.run(t, []scenario{
			{name: "default is alice", Request: apitest.Request{Path: forksQ("forge-utils", "-")}, Expect: apitest.Expect{Status: 200, Exact: `{"success":true,"forks":[]}`}},
			{name: "alice has no libpocket", Request: apitest.Request{Path: forksQ("libpocket", "-")}, Expect: apitest.Expect{Status: 404, Exact: noRepo}},
			{name: "branches keep pool", Request: apitest.Request{Path: branchesQ("libpocket", "-")}, Expect: apitest.Expect{Status: 200}},
		})
	})
	t.Run("no build service", func(t *testing.T) {
		e.im.Builds = nil
		e.run(t, []scenario{
			{name: "forks without results", Request: apitest.Request{Path: forksQ("forge-utils", "-")}, Expect: apitest.Expect{Status: 200,
				Contains: []string{`"owner":"alice","name":"forge-utils","url":"https://src.pocketforge.test/alice/forge-utils","build_results":[]`}}},
		})
	})
}

// TestGitGolden: whole answers of the two git routes over the demo world, against
// testdata/<name>.json (UPDATE_GOLDEN=1 rewrites them, as TestGolden's).
func TestGitGolden(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.im.Builds = fakeBuilds{}
	cases := []struct {
		name, path string
		status     int
	}{
		{"branches_pocket-cli", branchesQ("pocket-cli", "-"), 200},
		{"branches_alice_forge-utils", branchesQ("forge-utils", "alice"), 200},
		{"branches_unknown", branchesQ("no-such-package", "pool"), 404},
		{"fork-builds_forge-utils", forksQ("forge-utils", "pool"), 200},
		{"fork-builds_libpocket", forksQ("libpocket", "-"), 200},
		{"fork-builds_unknown_org", forksQ("forge-utils", "nobody"), 404},
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
