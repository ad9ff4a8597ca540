package explorersvc

import (
	"context"
	"strings"

	"github.com/pocketforge/pocketforge/spdx"
)

// EntryBuild is where the appliance's build service built a product entry's package: the
// project, repository and package its disturl names, and the arch of the build (the entry's,
// or for a noarch package the product's).
type EntryBuild struct {
	Project, Repository, Package string
	// Arch is "" when the entry's arch does not name one build: a noarch package of a product
	// made for several architectures.
	Arch string
}

// EntryBuilds says, for each entry, where the appliance's build service built its package, so
// a page can link it to its build results and log; the zero EntryBuild for an entry it did
// not build. An entry is this build service's when its disturl is an obs:// URL whose instance
// is the service's own name (its configuration's name, which the farm writes into every
// disturl) and whose project the explorer follows: a project hidden from the explorer's
// identity is never named. A detached (remote) backend's builds are not on the appliance's
// pages, and a backend whose configuration cannot be read gives no builds.
func (s *Service) EntryBuilds(ctx context.Context, entries []Entry) []EntryBuild {
	out := make([]EntryBuild, len(entries))
	if s.backend == nil {
		return out
	}
	if d, ok := s.backend.(Detached); ok && d.Detached() {
		return out
	}
	name := s.instance(ctx)
	if name == "" {
		return out
	}
	for i, e := range entries {
		instance, project, repository, _, pkg, ok := spdx.ParseDistURL(e.Package.DistURL)
		if !ok || instance != name || !s.Follows(project) {
			continue
		}
		arch := e.Package.Arch
		if (arch == "noarch" || arch == "") && e.Product != nil {
			arch = e.Product.Arch
		}
		if arch == "noarch" || strings.Contains(arch, "-") { // several: no one build
			arch = ""
		}
		out[i] = EntryBuild{Project: project, Repository: repository, Package: pkg, Arch: arch}
	}
	return out
}

// instance is the build service's name from its configuration, "" when it has none or the
// configuration cannot be read (asked again next time).
func (s *Service) instance(ctx context.Context) string {
	if n := s.instanceName.Load(); n != nil {
		return *n
	}
	conf, err := s.backend.Configuration(ctx)
	if err != nil {
		return ""
	}
	for _, set := range conf.Settings {
		if set.Name == "name" && set.Value != "" {
			name := set.Value
			s.instanceName.Store(&name)
			return name
		}
	}
	return ""
}
