package buildlink

import (
	"context"
	"net/url"

	"github.com/pocketforge/pocketforge/buildsvc/search"

	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/spdx"
)

// Binaries asks the build service's published binary search — the one behind
// GET /search/published/binary/id — for @name='<name>', as Who, so buildsvc's read protection
// leaves out the projects hidden from the explorer. A binary whose package has an scmsync
// naming a git repository (the demo packages follow pool/<package> or a fork on the demo
// host) carries that repository as its SourceURL, as OBS's scmsync is the package's git
// source; for the others the explorer looks the git source up in its product data
// (explorersvc/binaries.go). The meta is read only for packages the search returned, so
// only of projects Who may read.
func (b *Backend) Binaries(_ context.Context, name string) ([]explorersvc.Binary, error) {
	lit, ok := explorersvc.XPathLiteral(name)
	if !ok {
		return nil, explorersvc.ErrUnquotable(name)
	}
	found, err := b.Search.SearchPublishedBinaries(b.Who, "@name="+lit, search.Page{})
	if err != nil {
		return nil, err
	}
	out := make([]explorersvc.Binary, len(found.Records))
	sources := map[[2]string]string{} // project and package → the git repository of its scmsync
	for i, r := range found.Records {
		key := [2]string{r.Project, r.Package}
		src, ok := sources[key]
		if !ok {
			src = b.scmsyncRepository(r.Project, r.Package)
			sources[key] = src
		}
		out[i] = explorersvc.Binary{Name: r.Name, Filename: r.Filename, Package: r.Package, Project: r.Project,
			Repository: r.Repository, Arch: r.Arch, Version: r.Version, Release: r.Release,
			Path: publishedPath(r.Project, r.Repository, r.Arch, r.Filename), SourceURL: src}
	}
	return out, nil
}

// scmsyncRepository is the git repository package pkg of project follows (its scmsync without
// branch or commit), "" when it has none or the meta cannot be read.
func (b *Backend) scmsyncRepository(project, pkg string) string {
	k, err := b.Build.PackageMeta(project, pkg)
	if err != nil || k.SCMSync == "" {
		return ""
	}
	v, ok := spdx.ParseVCS(k.SCMSync)
	if !ok {
		return ""
	}
	return v.URL
}

// publishedPath is where the appliance serves a published file under its download_url
// (<external URL>/published): /published/<project>/<repository>/<dir>/<file>, the project
// named as it is (the build API's published tree, not download.opensuse.org's home:/alice
// layout that OBS's filepath spells). dir is the arch directory (x86_64, noarch, src).
func publishedPath(project, repo, dir, file string) string {
	return url.PathEscape(project) + "/" + url.PathEscape(repo) + "/" + url.PathEscape(dir) + "/" + url.PathEscape(file)
}
