package explorerapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/explorersvc"
)

// The git host's routes (explorer-notes §4.4, §4.5): a package's branches and the forks of its
// repository with their build results. Both read ?org= (absent or empty: the domain's
// default) and answer an unknown repository with 404 {"error": "Repository not found"}.

// commitJSON is a branch's head commit.
type commitJSON struct {
	SHA string `json:"sha"`
	URL string `json:"url"`
}

// branchJSON is the seed's Branch entry.
type branchJSON struct {
	Name   string     `json:"name"`
	Commit commitJSON `json:"commit"`
}

type branchesJSON struct {
	Package  string       `json:"package"`
	Org      string       `json:"org"`
	Branches []branchJSON `json:"branches"`
}

// buildResultJSON is one build of a fork's package.
type buildResultJSON struct {
	Project    string `json:"project"`
	Package    string `json:"package"`
	Repository string `json:"repository"`
	Arch       string `json:"arch"`
	Status     string `json:"status"`
}

// forkJSON is the seed's Fork entry.
type forkJSON struct {
	Owner        string            `json:"owner"`
	Name         string            `json:"name"`
	URL          string            `json:"url"`
	BuildResults []buildResultJSON `json:"build_results"`
}

type forkBuildsJSON struct {
	Success bool       `json:"success"`
	Forks   []forkJSON `json:"forks"`
}

// branches answers /api/packages/<package>/branches?org=.
func (a *api) branches(c *fiber.Ctx) error {
	got, err := a.Explorer.Branches(c.Query("org"), c.Params("package"))
	if err != nil {
		return err
	}
	out := branchesJSON{Package: got.Package, Org: got.Org, Branches: make([]branchJSON, len(got.Branches))}
	for i, b := range got.Branches {
		out.Branches[i] = branchJSON{Name: b.Name, Commit: commitJSON{SHA: b.Commit, URL: b.CommitURL}}
	}
	return c.JSON(out)
}

// forkBuilds answers /api/packages/<package>/fork-builds?org=.
func (a *api) forkBuilds(c *fiber.Ctx) error {
	forks, err := a.Explorer.ForkBuilds(c.Query("org"), c.Params("package"))
	if err != nil {
		return err
	}
	out := forkBuildsJSON{Success: true, Forks: make([]forkJSON, len(forks))}
	for i, f := range forks {
		out.Forks[i] = forkJSON{Owner: f.Owner, Name: f.Name, URL: f.URL, BuildResults: buildResultsOf(f.Builds)}
	}
	return c.JSON(out)
}

// buildResultsOf renders a fork's builds (never null).
func buildResultsOf(list []explorersvc.BuildResult) []buildResultJSON {
	out := make([]buildResultJSON, len(list))
	for i, r := range list {
		out[i] = buildResultJSON{Project: r.Project, Package: r.Package, Repository: r.Repository, Arch: r.Arch, Status: r.Status}
	}
	return out
}
