package explorersvc

import (
	"errors"
	"sort"
	"strings"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The explorer's view of the git host: a package's branches, and the forks of its repository
// with what the build service made of them (explorer-notes §4.4, §4.5). The host's state is
// the git model in the store (store/explorerstore/git.go); the build results come through
// BuildResults, so the explorer never reaches around the build service's rules.

// DefaultGitOrg is the organization the package repositories live in when a request names
// none: the seed's default for branches, and for fork-builds unless Service.GitOrg says
// otherwise.
const DefaultGitOrg = "pool"

// errNoRepository is the one answer for a repository that is not there, whatever was wrong:
// unknown organization or package, a name no repository can have. The seed's wording.
var errNoRepository = fault.NotFound("", "Repository not found")

// BuildResult is one build of a package: where, and the build service's status code
// (succeeded, failed, scheduled, …).
type BuildResult struct {
	Project, Package, Repository, Arch, Status string
}

// BuildResults reads a package's build results from the build service, as the explorer's
// configured backend identity may see them. An unknown or read-protected project (or
// package) is a store.ErrNotFound; the fork-builds answer then leaves its results out. The
// root package adapts the build service's domain to it; a results cache can stand in later.
type BuildResults interface {
	PackageResults(project, pkg string) ([]BuildResult, error)
}

// Branch is one branch of a repository: its name and head commit with the commit's address.
type Branch struct {
	Name, Commit, CommitURL string
}

// Branches is a repository's branch list.
type Branches struct {
	// Package is the repository's name (a request's multibuild flavour stripped) and Org its
	// owner, spelled as the host spells them (a request may differ in case).
	Package, Org string
	Branches     []Branch
}

// Fork is one fork of a repository and the build results of the packages its branches are
// built as.
type Fork struct {
	Owner, Name, URL string
	Builds           []BuildResult
}

// repoName splits a request's package name into the repository to look for: the multibuild
// flavour (pkg:flavor) is not part of the git repository's name, so it is dropped.
func repoName(pkg string) string {
	name, _, _ := strings.Cut(pkg, ":")
	return name
}

// orgOr is org, or def when the request named none.
func orgOr(org, def string) string {
	if org = strings.TrimSpace(org); org != "" {
		return org
	}
	return def
}

// findRepo reads repository org/name; every miss is errNoRepository.
func findRepo(tx kv.Tx, org, name string) (explorerstore.GitRepo, error) {
	if !explorerstore.ValidGitName(org) || !explorerstore.ValidGitName(name) {
		return explorerstore.GitRepo{}, errNoRepository
	}
	r, err := explorerstore.GetGitRepo(tx, org, name)
	if errors.Is(err, store.ErrNotFound) {
		return r, errNoRepository
	}
	return r, err
}

// Branches lists the branches of org's repository of package pkg (org "" is pool), by
// name. pkg may carry a multibuild flavour (pkg:flavor), which is stripped.
func (s *Service) Branches(org, pkg string) (Branches, error) {
	org, name := orgOr(org, DefaultGitOrg), repoName(pkg)
	out := Branches{Package: name, Org: org, Branches: []Branch{}}
	err := s.Store.View(func(tx kv.Tx) error {
		r, err := findRepo(tx, org, name)
		if err != nil {
			return err
		}
		out.Package, out.Org = r.Name, r.Owner
		for _, b := range r.Branches {
			out.Branches = append(out.Branches, Branch{Name: b.Name, Commit: b.Commit, CommitURL: r.CommitURL(b)})
		}
		return nil
	})
	sort.Slice(out.Branches, func(i, j int) bool { return out.Branches[i].Name < out.Branches[j].Name })
	return out, err
}

// ForkBuilds lists the forks of org's repository of package pkg (org "" is Service.GitOrg,
// else pool; a flavour is stripped as Branches does), by owner, each with the build results
// of the build-service packages its branches are built as. A fork whose branches nobody
// builds, or whose builds are in projects the explorer may not read, has no results; a
// results read that fails for another reason is logged and leaves that fork's results out,
// since the forks themselves were found.
func (s *Service) ForkBuilds(org, pkg string) ([]Fork, error) {
	def := s.GitOrg
	if def == "" {
		def = DefaultGitOrg
	}
	org, name := orgOr(org, def), repoName(pkg)
	var forks []explorerstore.GitRepo
	err := s.Store.View(func(tx kv.Tx) error {
		if _, err := findRepo(tx, org, name); err != nil {
			return err
		}
		var err error
		forks, err = explorerstore.GitForks(tx, org, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]Fork, 0, len(forks))
	for _, f := range forks { // outside the transaction: the build service opens its own
		out = append(out, Fork{Owner: f.Owner, Name: f.Name, URL: f.URL, Builds: s.forkResults(f)})
	}
	return out, nil
}

// forkResults reads the results of every package fork f's branches are built as, each
// package once, in branch order.
func (s *Service) forkResults(f explorerstore.GitRepo) []BuildResult {
	out := []BuildResult{}
	if s.Builds == nil {
		return out
	}
	seen := map[explorerstore.GitBuild]bool{}
	for _, b := range f.Branches {
		if b.Build == nil || seen[*b.Build] {
			continue
		}
		seen[*b.Build] = true
		list, err := s.Builds.PackageResults(b.Build.Project, b.Build.Package)
		if err != nil {
			if !errors.Is(err, store.ErrNotFound) && s.Log != nil {
				s.Log.Error("fork build results", "fork", f.Owner+"/"+f.Name, "project", b.Build.Project,
					"package", b.Build.Package, "err", err)
			}
			continue
		}
		out = append(out, list...)
	}
	return out
}
