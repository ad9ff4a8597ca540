package buildlink

import (
	"context"
	"net/url"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/explorersvc"
)

// Binaries asks the build service's published binary search — the one behind
// GET /search/published/binary/id — for @name='<name>', as Who, so buildsvc's read protection
// leaves out the projects hidden from the explorer. The appliance's build service has no
// scmsync (packages keep their sources in the build service itself), so no binary carries a
// SourceURL; the explorer looks the git source up in its product data instead (explorersvc/binaries.go).
func (b *Backend) Binaries(_ context.Context, name string) ([]explorersvc.Binary, error) {
	lit, ok := explorersvc.XPathLiteral(name)
	if !ok {
		return nil, explorersvc.ErrUnquotable(name)
	}
	found, err := b.Build.SearchPublishedBinaries(b.Who, "@name="+lit, buildsvc.Page{})
	if err != nil {
		return nil, err
	}
	out := make([]explorersvc.Binary, len(found.Records))
	for i, r := range found.Records {
		out[i] = explorersvc.Binary{Name: r.Name, Filename: r.Filename, Package: r.Package, Project: r.Project,
			Repository: r.Repository, Arch: r.Arch, Version: r.Version, Release: r.Release,
			Path: publishedPath(r.Project, r.Repository, r.Arch, r.Filename)}
	}
	return out, nil
}

// publishedPath is where the appliance serves a published file under its download_url
// (<external URL>/published): /published/<project>/<repository>/<dir>/<file>, the project
// named as it is (the build API's published tree, not download.opensuse.org's home:/alice
// layout that OBS's filepath spells). dir is the arch directory (x86_64, noarch, src).
func publishedPath(project, repo, dir, file string) string {
	return url.PathEscape(project) + "/" + url.PathEscape(repo) + "/" + url.PathEscape(dir) + "/" + url.PathEscape(file)
}
