package explorerstore

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The explorer's git hosting model: the repositories of a source host (a Gitea such as
// src.opensuse.org stands behind the real explorer), each with its branches, and the forks
// users made of them. Products name these repositories in their vcs references
// (pool/<package> on a tracking branch at a commit); the branches and fork-builds routes read
// them. The appliance has no git server: these records are the simulated host's state.

// GitRepo is one repository: an organization's (pool/bash) or a user's fork (alice/bash).
type GitRepo struct {
	// Owner is the organization or user; Name the repository. Lookups ignore case, as
	// Gitea's do; the record keeps the spelling it was created with.
	Owner string `json:"owner"`
	Name  string `json:"name"`
	// URL is the repository's web address, https://<host>/<owner>/<name>.
	URL string `json:"url"`
	// ForkedFrom is "<owner>/<name>" of the repository this one is a fork of ("" for none).
	ForkedFrom string      `json:"forked_from,omitempty"`
	Branches   []GitBranch `json:"branches"`
}

// GitBranch is one branch: its name and head commit, and where the build service builds it.
type GitBranch struct {
	Name string `json:"name"`
	// Commit is the head commit's id: 64 hex characters (the SHA-256 object format
	// src.opensuse.org uses), or 40 for a SHA-1 repository.
	Commit string `json:"commit"`
	// Build is the build-service package that builds this branch, when one does. OBS finds it
	// through the package's scmsync URL; the appliance's packages have no scmsync field, so
	// the coordinates are kept here, on the branch, instead.
	Build *GitBuild `json:"build,omitempty"`
}

// GitBuild names a build-service package.
type GitBuild struct {
	Project string `json:"project"`
	Package string `json:"package"`
}

// CommitURL is the web address of the branch's head commit in repository r, as Gitea links it.
func (r GitRepo) CommitURL(b GitBranch) string { return r.URL + "/commit/" + b.Commit }

// Branch returns r's branch name.
func (r GitRepo) Branch(name string) (GitBranch, bool) {
	for _, b := range r.Branches {
		if b.Name == name {
			return b, true
		}
	}
	return GitBranch{}, false
}

// gitName is what an owner, repository or branch name may be: Gitea's own rule for owners and
// repositories (letters, digits, '-', '_', '.'), with '/' and '+' allowed in branch names.
var (
	gitName   = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`)
	gitBranch = regexp.MustCompile(`^[A-Za-z0-9_.+/-]{1,255}$`)
	gitCommit = regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`)
)

// ValidGitName reports whether s can name an owner or a repository.
func ValidGitName(s string) bool { return gitName.MatchString(s) && s != "." && s != ".." }

// ValidGitBranch reports whether s can name a branch.
func ValidGitBranch(s string) bool { return gitBranch.MatchString(s) && !strings.Contains(s, "..") }

// check lists what is wrong with r.
func (r GitRepo) check() error {
	var p store.Problems
	if !ValidGitName(r.Owner) {
		p = append(p, store.Problem{Field: "owner", Reason: fmt.Sprintf("%q is not a repository owner", r.Owner)})
	}
	if !ValidGitName(r.Name) {
		p = append(p, store.Problem{Field: "name", Reason: fmt.Sprintf("%q is not a repository name", r.Name)})
	}
	if r.ForkedFrom != "" {
		o, n, ok := strings.Cut(r.ForkedFrom, "/")
		if !ok || !ValidGitName(o) || !ValidGitName(n) {
			p = append(p, store.Problem{Field: "forked_from", Reason: fmt.Sprintf("%q is not <owner>/<name>", r.ForkedFrom)})
		} else if strings.EqualFold(o, r.Owner) && strings.EqualFold(n, r.Name) {
			p = append(p, store.Problem{Field: "forked_from", Reason: "a repository is not a fork of itself"})
		}
	}
	seen := map[string]bool{}
	for _, b := range r.Branches {
		switch {
		case !ValidGitBranch(b.Name):
			p = append(p, store.Problem{Field: "branches", Reason: fmt.Sprintf("%q is not a branch name", b.Name)})
		case seen[b.Name]:
			p = append(p, store.Problem{Field: "branches", Reason: fmt.Sprintf("branch %s twice", b.Name)})
		case !gitCommit.MatchString(b.Commit):
			p = append(p, store.Problem{Field: "branches", Reason: fmt.Sprintf("branch %s: %q is not a commit id", b.Name, b.Commit)})
		case b.Build != nil && (b.Build.Project == "" || b.Build.Package == ""):
			p = append(p, store.Problem{Field: "branches", Reason: fmt.Sprintf("branch %s: a build needs a project and a package", b.Name)})
		}
		seen[b.Name] = true
	}
	if len(p) > 0 {
		return p
	}
	return nil
}

// gitKey is lower(owner) 0x00 lower(name): one key per repository whatever the spelling.
func gitKey(owner, name string) []byte {
	return []byte(strings.ToLower(owner) + sep + strings.ToLower(name))
}

// errNoRepo is the not-found of a repository lookup, in the explorer's words.
func errNoRepo(owner, name string) error {
	return fmt.Errorf("repository %s/%s: %w", owner, name, store.ErrNotFound)
}

// GetGitRepo returns repository owner/name, whatever the case of either.
func GetGitRepo(tx kv.Tx, owner, name string) (GitRepo, error) {
	r, err := store.Get[GitRepo](tx, store.ExplorerGitRepos, gitKey(owner, name))
	if err != nil {
		return GitRepo{}, errNoRepo(owner, name)
	}
	return r, nil
}

// PutGitRepo stores r, replacing the repository of the same owner and name, and keeps the
// fork index in step with its ForkedFrom. The repository a fork names need not exist (a
// fork outlives its origin on Gitea too).
func PutGitRepo(tx kv.Tx, r GitRepo) error {
	if err := r.check(); err != nil {
		return err
	}
	if old, err := GetGitRepo(tx, r.Owner, r.Name); err == nil && old.ForkedFrom != "" {
		if err := unindexFork(tx, old); err != nil {
			return err
		}
	}
	if r.ForkedFrom != "" {
		b, err := store.Bucket(tx, store.ExplorerGitForks)
		if err != nil {
			return err
		}
		if err := b.Put(forkKey(r), nil); err != nil {
			return err
		}
	}
	return store.Put(tx, store.ExplorerGitRepos, gitKey(r.Owner, r.Name), r)
}

// DeleteGitRepo removes repository owner/name; its forks stay (they are repositories of
// their own) and still name it.
func DeleteGitRepo(tx kv.Tx, owner, name string) error {
	r, err := GetGitRepo(tx, owner, name)
	if err != nil {
		return err
	}
	if r.ForkedFrom != "" {
		if err := unindexFork(tx, r); err != nil {
			return err
		}
	}
	return store.Delete(tx, store.ExplorerGitRepos, gitKey(owner, name))
}

// forkKey is fork r's entry in the fork index.
func forkKey(r GitRepo) []byte {
	o, n, _ := strings.Cut(r.ForkedFrom, "/")
	return append(append(gitKey(o, n), 0), gitKey(r.Owner, r.Name)...)
}

func unindexFork(tx kv.Tx, r GitRepo) error {
	b, err := store.Bucket(tx, store.ExplorerGitForks)
	if err != nil {
		return err
	}
	return b.Delete(forkKey(r))
}

// GitForks lists the forks of repository owner/name, by owner and then name.
func GitForks(tx kv.Tx, owner, name string) ([]GitRepo, error) {
	b, err := store.Bucket(tx, store.ExplorerGitForks)
	if err != nil {
		return nil, err
	}
	prefix := append(gitKey(owner, name), 0)
	var out []GitRepo
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		r, err := store.Get[GitRepo](tx, store.ExplorerGitRepos, k[len(prefix):])
		if err != nil {
			return nil, fmt.Errorf("fork index names a missing repository %q: %w", k[len(prefix):], err)
		}
		out = append(out, r)
	}
	return out, nil
}

// EachGitRepo calls fn with every repository, by owner and then name, until it returns false.
func EachGitRepo(tx kv.Tx, fn func(GitRepo) bool) error {
	return store.Each(tx, store.ExplorerGitRepos, nil, func(_ []byte, r GitRepo) (bool, error) {
		return fn(r), nil
	})
}
