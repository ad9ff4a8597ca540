package explorersvc

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestFollowProductsMovesGitHeads: importing a farm-built product moves each tracked branch
// of a repository the git model holds to the commit the product names (keeping where the
// branch is built, adding a branch the repository lacked; the address compared without case
// or ".git"), and leaves alone repositories of
// another host and those the model does not hold (it creates none).
func TestFollowProductsMovesGitHeads(t *testing.T) {
	e, b := newFollowEnv(t)
	m := medium(productsProject, "Pocket-1.0-x86_64-Build1.1", 60)
	prod, err := spdx.ParseDocument(bytes.NewReader(m.files[m.Name+SBOMSuffix].Data), "x")
	if err != nil {
		t.Fatal(err)
	}
	var tracked []spdx.Package // packages with a full commit on a pool repository, one per repository
	seen := map[string]bool{}
	for _, pk := range prod.Packages {
		if pk.VCSOrg == "pool" && len(pk.CommitHash) == 64 && strings.HasPrefix(pk.VCSURL, "https://src.pocketforge.test/") && !seen[pk.VCSRepo] {
			seen[pk.VCSRepo] = true
			tracked = append(tracked, pk)
		}
	}
	if len(tracked) < 3 {
		t.Fatalf("the generated product tracks %d pool repositories", len(tracked))
	}
	old := strings.Repeat("ab", 32)
	moved, other, lacking := tracked[0], tracked[1], tracked[2]
	repos := []explorerstore.GitRepo{
		{Owner: "pool", Name: moved.VCSRepo, URL: moved.VCSURL, Branches: []explorerstore.GitBranch{
			{Name: moved.TrackingBranch, Commit: old, Build: &explorerstore.GitBuild{Project: "P", Package: moved.VCSRepo}},
			{Name: "zzz", Commit: old}}},
		{Owner: "pool", Name: other.VCSRepo, URL: "https://elsewhere.test/pool/" + other.VCSRepo,
			Branches: []explorerstore.GitBranch{{Name: other.TrackingBranch, Commit: old}}},
		{Owner: "pool", Name: lacking.VCSRepo, URL: strings.ToUpper(lacking.VCSURL) + ".git", Branches: []explorerstore.GitBranch{{Name: "aaa", Commit: old}}},
	}
	if err := e.db.Write(func(tx kv.Tx) error {
		for _, r := range repos {
			if err := explorerstore.PutGitRepo(tx, r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b.publish(productsProject, m)
	e.tick()
	if got := sources(t, e)[m.Name]; got != farmSourceOf {
		t.Fatalf("the medium was not imported: %q", got)
	}
	get := func(r spdx.Package) explorerstore.GitRepo {
		var repo explorerstore.GitRepo
		e.db.View(func(tx kv.Tx) error { repo, err = explorerstore.GetGitRepo(tx, "pool", r.VCSRepo); return err })
		if err != nil {
			t.Fatal(err)
		}
		return repo
	}
	if br, _ := get(moved).Branch(moved.TrackingBranch); br.Commit != strings.ToLower(moved.CommitHash) || br.Build == nil || br.Build.Project != "P" {
		t.Errorf("the tracked branch of %s: %+v, want %s", moved.VCSRepo, br, moved.CommitHash)
	}
	if br, _ := get(moved).Branch("zzz"); br.Commit != old {
		t.Errorf("an untracked branch moved: %+v", br)
	}
	if br, _ := get(other).Branch(other.TrackingBranch); br.Commit != old {
		t.Errorf("a repository of another host moved: %+v", br)
	}
	r := get(lacking)
	if br, ok := r.Branch(lacking.TrackingBranch); !ok || br.Commit != strings.ToLower(lacking.CommitHash) || r.Branches[0].Name != "aaa" {
		t.Errorf("the branch %s was not added: %+v", lacking.TrackingBranch, r.Branches)
	}
	e.db.View(func(tx kv.Tx) error {
		n := 0
		explorerstore.EachGitRepo(tx, func(explorerstore.GitRepo) bool { n++; return true })
		if n != len(repos) {
			t.Errorf("the model holds %d repositories, want %d: the follower created some", n, len(repos))
		}
		return nil
	})
}
