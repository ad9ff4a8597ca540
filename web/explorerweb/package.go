package explorerweb

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/web"
)

// The package page: everything the explorer knows of one package name, from the products, the
// git host and the build service.

// packageView is the package page's data. Each section that could not be read says why in its
// note, and the others still show.
type packageView struct {
	Name string
	// Org is the git organization asked for (?org=), "" for the domain's default.
	Org     string
	Entries []productEntry
	Page    pager
	// Refs are the distinct git references the entries were built from.
	Refs []entry
	// Branches is the repository's branch list; BranchesNote says why there is none.
	Branches     explorersvc.Branches
	BranchesNote string
	Forks        []fork
	Binaries     []binary
	BinariesNote string
}

// productEntry is one product's package, with the addresses of its build's results and log
// when the appliance's build service built it in a project the explorer follows ("" else).
type productEntry struct {
	entry
	Monitor, Log string
}

// fork is a fork of the package's repository with its builds.
type fork struct {
	explorersvc.Fork
	Builds []build
}

// build is one build result, with the addresses of the project's monitor and the build's log.
type build struct {
	explorersvc.BuildResult
	Monitor, Log string
}

// ShortCommit is a branch head's commit cut for the page.
func (packageView) ShortCommit(commit string) string { return short(commit) }

// GitSearch is the git search for ref (the page links each reference to the packages built
// from it).
func (packageView) GitSearch(ref string) string { return searchHref("git", ref) }

// pkg answers /explorer/packages/<name>.
func (h *handlers) pkg(c *fiber.Ctx) error {
	// The router leaves the name as sent; links path-escape it (a name may hold a +, a
	// multibuild's colon, or anything a person types).
	name, err := url.PathUnescape(c.Params("name"))
	if err != nil {
		return fault.NotFound("", "The explorer knows no package named %q.", c.Params("name"))
	}
	v := packageView{Name: name, Org: c.Query("org")}
	entries, err := h.entries(v.Name)
	if err != nil {
		return err
	}
	v.Branches, err = h.Explorer.Branches(v.Org, v.Name)
	switch {
	case errors.Is(err, store.ErrNotFound) && len(entries) == 0:
		return fault.NotFound("", "The explorer knows no package named %q: no product ships it and the git host has no repository of that name.", v.Name)
	case errors.Is(err, store.ErrNotFound):
		v.BranchesNote = "The git host has no repository of this package" + orgNote(v.Org) + "."
	case err != nil:
		return err
	}
	if v.BranchesNote == "" {
		forks, err := h.Explorer.ForkBuilds(v.Org, v.Name)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		v.Forks = h.forksOf(forks)
	}
	// A name is in a few dozen products at most; should it be in more, the first page shows.
	v.Page = pager{Total: len(entries), From: min(1, len(entries)), To: min(len(entries), pageSize)}
	shown := entries[:min(len(entries), pageSize)]
	v.Entries = h.withBuilds(c.Context(), shown)
	v.Refs = refsOf(entriesOf(shown))
	v.Binaries, v.BinariesNote = h.binaries(c, v.Name)
	return h.Site.Render(c, http.StatusOK, v.Name, web.SectionExplorer, web.PageOf(packagePage, v))
}

// entries are the product entries named exactly name; a name no search can take (a NUL, over
// the term limit) names no package.
func (h *handlers) entries(name string) ([]explorersvc.Entry, error) {
	found, err := h.Explorer.SearchPackages(name, true)
	if errors.Is(err, store.ErrInvalid) {
		return nil, fault.NotFound("", "The explorer knows no package named %q.", name)
	}
	if err != nil {
		return nil, err
	}
	var out []explorersvc.Entry
	for _, e := range found.Entries {
		if e.Package.Name == name {
			out = append(out, e)
		}
	}
	return out, nil
}

// binaries are the published binaries named name, or a note saying why they could not be read
// (the page shows the rest either way).
func (h *handlers) binaries(c *fiber.Ctx, name string) ([]binary, string) {
	found, err := h.Explorer.SearchBinaries(c.Context(), name)
	var f *fault.Error
	switch {
	case errors.As(err, &f):
		return nil, f.Msg
	case errors.Is(err, explorersvc.ErrTimedOut):
		return nil, "The build service did not answer the binary search in time."
	case err != nil:
		return nil, "The build service's binary search is not available."
	}
	return binariesOf(found), ""
}

// withBuilds adds to each entry the addresses of its build's results (the project's monitor,
// for the package) and log (for the build's repository and arch), where the explorer's domain
// says the appliance's build service built it (EntryBuilds).
func (h *handlers) withBuilds(ctx context.Context, entries []explorersvc.Entry) []productEntry {
	base := h.Site.Base()
	builds := h.Explorer.EntryBuilds(ctx, entries)
	out := make([]productEntry, len(entries))
	for i, e := range entries {
		out[i].entry = entry{e}
		if b := builds[i]; b.Project != "" {
			out[i].Monitor = web.MonitorURL(base, b.Project, b.Package, "")
			if b.Arch != "" {
				out[i].Log = web.LogURL(base, b.Project, b.Package, b.Repository, b.Arch)
			}
		}
	}
	return out
}

// forksOf adds the monitor's and the logs' addresses to each fork's builds.
func (h *handlers) forksOf(forks []explorersvc.Fork) []fork {
	base := h.Site.Base()
	out := make([]fork, len(forks))
	for i, f := range forks {
		out[i] = fork{Fork: f}
		for _, b := range f.Builds {
			out[i].Builds = append(out[i].Builds, build{BuildResult: b,
				Monitor: web.MonitorURL(base, b.Project, b.Package, ""),
				Log:     web.LogURL(base, b.Project, b.Package, b.Repository, b.Arch)})
		}
	}
	return out
}

// refsOf are the distinct git references (URL, branch and commit) of entries, in their order.
func refsOf(entries []entry) []entry {
	var out []entry
	seen := map[[3]string]bool{}
	for _, e := range entries {
		pk := &e.Package
		key := [3]string{pk.VCSURL, pk.TrackingBranch, pk.CommitHash}
		if e.GitRef() == "" || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, e)
	}
	return out
}

// orgNote names org in a sentence, when one was asked for.
func orgNote(org string) string {
	if org == "" {
		return ""
	}
	return " in organization " + org
}
