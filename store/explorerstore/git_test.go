package explorerstore

import (
	"errors"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

var (
	sha1 = strings.Repeat("a", 64)
	sha2 = strings.Repeat("b", 64)
)

func repo(owner, name, from string, branches ...GitBranch) GitRepo {
	return GitRepo{Owner: owner, Name: name, URL: "https://src.test/" + owner + "/" + name, ForkedFrom: from, Branches: branches}
}

// names lists "<owner>/<name>" of repos.
func names(repos []GitRepo) string {
	var out []string
	for _, r := range repos {
		out = append(out, r.Owner+"/"+r.Name)
	}
	return strings.Join(out, " ")
}

// TestGitRepos: a repository is found whatever the case of its owner and name, keeps its
// spelling and branches; forks are listed by their origin in owner order, follow a change or
// removal of ForkedFrom, and outlive a deleted origin.
func TestGitRepos(t *testing.T) {
	db := testdb.Open(t)
	build := &GitBuild{Project: "home:alice", Package: "bash"}
	write(t, db, func(tx kv.Tx) error {
		for _, r := range []GitRepo{
			repo("pool", "Bash", "", GitBranch{Name: "main", Commit: sha1}, GitBranch{Name: "pocket-1.0", Commit: sha2}),
			repo("pool", "bash-completion", ""),
			repo("bob", "Bash", "pool/Bash", GitBranch{Name: "main", Commit: sha1}),
			repo("alice", "bash", "pool/bash", GitBranch{Name: "fix/prompt", Commit: sha2, Build: build}),
			repo("alice", "bash-completion", "pool/bash-completion"),
		} {
			if err := PutGitRepo(tx, r); err != nil {
				return err
			}
		}
		return nil
	})
	db.View(func(tx kv.Tx) error {
		r, err := GetGitRepo(tx, "POOL", "bash")
		if err != nil || r.Name != "Bash" || len(r.Branches) != 2 {
			t.Errorf("pool/bash: %+v, %v", r, err)
		}
		if b, ok := r.Branch("pocket-1.0"); !ok || r.CommitURL(b) != "https://src.test/pool/Bash/commit/"+sha2 {
			t.Errorf("branch pocket-1.0: %+v %v", b, ok)
		}
		if _, err := GetGitRepo(tx, "pool", "zsh"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("pool/zsh: %v", err)
		}
		forks, err := GitForks(tx, "pool", "BASH")
		if got := names(forks); err != nil || got != "alice/bash bob/Bash" {
			t.Errorf("forks of pool/bash: %q, %v", got, err)
		}
		if forks[0].Branches[0].Build == nil || *forks[0].Branches[0].Build != *build {
			t.Errorf("alice's branch build: %+v", forks[0].Branches[0])
		}
		return nil
	})
	write(t, db, func(tx kv.Tx) error {
		if err := PutGitRepo(tx, repo("bob", "bash", "pool/bash-completion")); err != nil { // re-pointed
			return err
		}
		return DeleteGitRepo(tx, "pool", "bash")
	})
	db.View(func(tx kv.Tx) error {
		forks, _ := GitForks(tx, "pool", "bash")
		if got := names(forks); got != "alice/bash" {
			t.Errorf("forks of the deleted pool/bash: %q", got)
		}
		forks, _ = GitForks(tx, "pool", "bash-completion")
		if got := names(forks); got != "alice/bash-completion bob/bash" {
			t.Errorf("forks of pool/bash-completion: %q", got)
		}
		var all []GitRepo
		EachGitRepo(tx, func(r GitRepo) bool { all = append(all, r); return true })
		if got := names(all); got != "alice/bash alice/bash-completion bob/bash pool/bash-completion" {
			t.Errorf("every repository: %q", got)
		}
		return nil
	})
}

// TestGitRepoInvalid: a record that breaks a naming rule is refused whole, as ErrInvalid.
func TestGitRepoInvalid(t *testing.T) {
	db := testdb.Open(t)
	for name, r := range map[string]GitRepo{
		"no owner":          repo("", "bash", ""),
		"slash in name":     repo("pool", "a/b", ""),
		"dot dot":           repo("pool", "..", ""),
		"fork of itself":    repo("pool", "bash", "POOL/bash"),
		"fork of no owner":  repo("alice", "bash", "bash"),
		"short commit":      repo("pool", "bash", "", GitBranch{Name: "main", Commit: "abc"}),
		"upper-case commit": repo("pool", "bash", "", GitBranch{Name: "main", Commit: strings.ToUpper(sha1)}),
		"branch twice":      repo("pool", "bash", "", GitBranch{Name: "main", Commit: sha1}, GitBranch{Name: "main", Commit: sha2}),
		"branch with ..":    repo("pool", "bash", "", GitBranch{Name: "a..b", Commit: sha1}),
		"build without pkg": repo("pool", "bash", "", GitBranch{Name: "main", Commit: sha1, Build: &GitBuild{Project: "home:alice"}}),
	} {
		err := db.Write(func(tx kv.Tx) error { return PutGitRepo(tx, r) })
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	db.View(func(tx kv.Tx) error {
		var n int
		EachGitRepo(tx, func(GitRepo) bool { n++; return true })
		if n != 0 {
			t.Errorf("%d repositories stored", n)
		}
		return nil
	})
}
