package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExplorerGitFollowsFarm: on a fresh demo world, pool/pocket-cli's pocket-1.0 is at the
// commit the farm's Pocket 1.0 products name for pocket-cli; a commit to devel:tools/pocket-cli
// (which Pocket:1.0/pocket-cli links to) rebuilds pocket-cli and the products, and once the
// explorer imported the rebuilt products the branch is at the new products' commit, the
// rebuilt products replaced the first builds, and main (devel:tools' branch, which no product
// ships) has not moved.
func TestExplorerGitFollowsFarm(t *testing.T) {
	t.Parallel()
	p := startDemo(t, "", "--dev-clock", "--bootstrap-token", e2eToken,
		"--admin-password", e2eAdminPassword, "--explorer-rate", "0")
	p.waitReady(t)
	p.waitProducts(t, e2eToken)

	branches := func() map[string]string {
		t.Helper()
		code, body := request(t, "GET", p.url+"/api/packages/pocket-cli/branches", "", nil)
		var a struct {
			Branches []struct {
				Name   string `json:"name"`
				Commit struct {
					SHA string `json:"sha"`
				} `json:"commit"`
			} `json:"branches"`
		}
		if err := json.Unmarshal([]byte(body), &a); code != 200 || err != nil {
			t.Fatalf("branches: %d %s %v", code, body, err)
		}
		out := map[string]string{}
		for _, b := range a.Branches {
			out[b.Name] = b.Commit.SHA
		}
		return out
	}
	// built is the commit the Pocket 1.0 products name for pocket-cli (one for both arches).
	built := func() (string, []string) {
		t.Helper()
		_, a := explorerGet(t, p, "/api/products/vcs-search?q=pool/pocket-cli%40pocket-1.0")
		var products []string
		commit := ""
		for _, pk := range a.Packages {
			products = append(products, pk.Product.FullName)
			if commit != "" && pk.CommitHash != commit {
				t.Fatalf("the Pocket 1.0 products name two commits of pocket-cli: %+v", a.Packages)
			}
			commit = pk.CommitHash
		}
		return commit, products
	}
	first, _ := built()
	before := branches()
	if len(first) != 64 || before["pocket-1.0"] != first || len(before["main"]) != 64 || len(before["pocket-0.9"]) != 64 {
		t.Fatalf("before the commit: branches %v, the products built pocket-cli from %s", before, first)
	}

	// A commit to the devel package: a new revision, so a new commit of its sources.
	if code := send("PUT", p.url+"/source/devel:tools/pocket-cli/NOTES?comment=notes", basic("alice", "alice-password"),
		"application/octet-stream", "Notes for the next release.\n"); code != 200 {
		t.Fatalf("alice's commit to devel:tools/pocket-cli: %d", code)
	}
	p.waitProducts(t, e2eToken, "Pocket-1.0-x86_64-Build1.2", "Pocket-1.0-aarch64-Build1.2")
	now, products := built()
	after := branches()
	if now == first || after["pocket-1.0"] != now || strings.Join(products, " ") != "Pocket-1.0-aarch64-Build1.2 Pocket-1.0-x86_64-Build1.2" {
		t.Errorf("after the rebuild: branches %v; the products %v built pocket-cli from %s (first %s)", after, products, now, first)
	}
	if after["main"] != before["main"] || after["pocket-0.9"] != before["pocket-0.9"] {
		t.Errorf("branches no product rebuilt moved: %v, were %v", after, before)
	}
}
