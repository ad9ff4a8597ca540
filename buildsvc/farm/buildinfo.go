package farm

import (
	"slices"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/packaging/resolve"
	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// What a build would be: buildinfo (the environment a build of a package gets: every binary it
// installs, with where it comes from), builddepinfo (the dependencies between the packages of
// a repository) and _buildconfig (the merged configuration of a repository's path chain). All
// answer from the same resolution the scheduler does (farm_env.go).

// BuildDep is one <bdep> of a buildinfo: a binary the build installs.
type BuildDep struct {
	resolve.Binary
	// Preinstall and Runscripts: the configuration's Preinstall / Runscripts name it.
	Preinstall, Runscripts bool
	// NotMeta: installed, but no build dependency of the package (Support:, Preinstall: and
	// what they pull in): its changes do not rebuild the package.
	NotMeta bool
}

// BuildInfo is a buildinfo document's content.
type BuildInfo struct {
	Where   buildstore.Where
	Package string
	// Error says why the package cannot build here ("unresolvable: nothing provides foo",
	// "excluded", the sources' breakage); the rest is then as far as it got.
	Error                      string
	SrcMD5, Rev, File, VersRel string
	Bcnt                       int
	Release                    string
	// Deps are the package's own build dependencies as the spec names them (and add):
	// buildinfo's <dep> elements.
	Deps     []string
	BDeps    []BuildDep
	Paths    []buildstore.Path
	SubPacks []string
}

// BuildInfo answers GET (spec nil: the package's committed recipe) and POST (spec: the body, a
// spec file osc sends for a local build) /build/<project>/<repository>/<arch>/<package>/
// _buildinfo. With a spec, pkg may be RepositoryPackage (osc's local build of a package the
// server does not have); a posted spec that does not parse is 400 with the parser's error. add
// names extra build dependencies (osc build -x, the backend's add=).
func (s *Farm) BuildInfo(who buildstore.Person, w buildstore.Where, pkg string, spec []byte, add []string) (BuildInfo, error) {
	bi := BuildInfo{Where: w, Package: pkg}
	err := s.db.View(func(tx kv.Tx) error {
		if spec == nil || pkg != RepositoryPackage {
			if err := readablePackageWhere(tx, who, w, pkg); err != nil {
				return err
			}
			if err := buildsvc.SourcesReadable(tx, who, w.Project, pkg); err != nil {
				return err
			}
		} else if _, err := buildsvc.ReadableWhere(tx, who, w); err != nil {
			return err
		}
		env, err := loadWhereEnv(tx, w)
		if err != nil {
			return err
		}
		bi.Paths = env.chain
		var vrev uint64 = 1
		if spec == nil {
			src := loadSources(tx, w.Project, pkg)
			bi.SrcMD5, bi.Rev, bi.File = src.srcmd5, src.rev, src.specName
			vrev = max(src.vrev, 1)
			if src.broken != "" {
				bi.Error = src.broken
				return nil
			}
			spec = src.spec
		} else {
			bi.File = "upload.spec" // as the backend names a posted recipe
		}
		parsed, err := specfile.Parse(spec, specfile.Options{Arch: w.Arch, Macros: env.macros})
		if err != nil {
			if bi.File == "upload.spec" {
				return buildsvc.BadRequest("400", "%s", err.Error())
			}
			bi.Error = bi.File + ": " + err.Error()
			return nil
		}
		bi.Bcnt = 1
		if pkg != RepositoryPackage {
			hist, err := buildstore.History(tx, w, pkg)
			if err != nil {
				return err
			}
			for _, h := range hist {
				if h.SrcMD5 == bi.SrcMD5 && bi.SrcMD5 != "" {
					bi.Bcnt = max(bi.Bcnt, h.Bcnt+1)
				}
			}
		}
		bi.Release = buildstore.BuildStatus{VRev: vrev, Bcnt: bi.Bcnt}.ReleaseNumber()
		bi.VersRel = parsed.Version + "-" + bi.Release
		for _, p := range parsed.Packages {
			bi.SubPacks = append(bi.SubPacks, p.Name)
		}
		if excluded, _ := parsed.Excluded(w.Arch); excluded {
			bi.Error = "excluded"
			return nil
		}
		deps := slices.Clone(parsed.BuildRequires)
		for _, a := range add {
			deps = append(deps, specfile.Dep{Name: a})
		}
		for _, d := range deps {
			bi.Deps = append(bi.Deps, d.String())
		}
		res := env.pool.Expand(bi.SubPacks, deps)
		if !res.OK {
			bi.Error = "unresolvable: " + res.Details()
			return nil
		}
		cfg := env.cfg.ForArch(w.Arch)
		meta := map[*resolve.Binary]bool{}
		for _, b := range res.Deps {
			meta[b] = true
		}
		// The backend's order: the preinstalls (in the configuration's order), the package's
		// dependencies, then the rest of what the build installs.
		byName := map[string]*resolve.Binary{}
		for _, b := range res.Install {
			byName[b.Name] = b
		}
		var order []*resolve.Binary
		seen := map[*resolve.Binary]bool{}
		add := func(b *resolve.Binary) {
			if b != nil && !seen[b] {
				seen[b] = true
				order = append(order, b)
			}
		}
		for _, n := range cfg.Preinstall {
			add(byName[n])
		}
		for _, b := range res.Deps {
			add(byName[b.Name])
		}
		for _, b := range res.Install {
			add(b)
		}
		for _, b := range order {
			bi.BDeps = append(bi.BDeps, BuildDep{Binary: *b, Preinstall: slices.Contains(cfg.Preinstall, b.Name),
				Runscripts: slices.Contains(cfg.Runscripts, b.Name), NotMeta: !meta[b]})
		}
		return nil
	})
	return bi, err
}

// BuildDepInfo answers GET/POST /build/<project>/<repository>/<arch>/_builddepinfo: for the
// packages of the repository that would build in w (their recipe parses, they are not
// excluded or disabled), what they depend on and build, in the given view (resolve.
// BuildDepInfo); only, when not empty, keeps those packages.
func (s *Farm) BuildDepInfo(who buildstore.Person, w buildstore.Where, only []string, view string) (resolve.DepInfo, error) {
	var out resolve.DepInfo
	err := s.db.View(func(tx kv.Tx) error {
		p, err := buildsvc.ReadableWhere(tx, who, w)
		if err != nil {
			return err
		}
		env, err := loadWhereEnv(tx, w)
		if err != nil {
			return err
		}
		pkgs, err := buildstore.Packages(tx, w.Project)
		if err != nil {
			return err
		}
		var list []resolve.DepSource
		for _, k := range pkgs {
			if !FlagEnabled(p.Flags, k.Flags, "build", w.Repository, w.Arch, true) {
				continue
			}
			src := loadSources(tx, w.Project, k.Name)
			if src.broken != "" {
				continue
			}
			spec, err := specfile.Parse(src.spec, specfile.Options{Arch: w.Arch, Macros: env.macros})
			if err != nil {
				continue
			}
			if excluded, _ := spec.Excluded(w.Arch); excluded {
				continue
			}
			ds := resolve.DepSource{Name: k.Name, Source: spec.Name}
			for _, sp := range spec.Packages {
				ds.Subpkgs = append(ds.Subpkgs, sp.Name)
			}
			if res := env.pool.Expand(ds.Subpkgs, spec.BuildRequires); res.OK {
				for _, b := range res.Deps {
					ds.Deps = append(ds.Deps, b.Name)
				}
			}
			list = append(list, ds)
		}
		out = resolve.BuildDepInfo(list, view, only)
		return nil
	})
	return out, err
}

// BuildConfig answers GET /build/<project>/<repository>/_buildconfig: the configurations of the
// projects along the repository's path chain, merged and rendered as the backend hands them to
// a build (base first, each under a "### from <project>" header).
func (s *Farm) BuildConfig(who buildstore.Person, project, repo string) (string, error) {
	var out string
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableWhere(tx, who, buildstore.Where{Project: project, Repository: repo}); err != nil {
			return err
		}
		chain, _ := buildsvc.RepoChain(tx, project, repo)
		cfg, err := chainConfig(tx, chain, nil)
		if err != nil {
			return buildsvc.BadRequest("400", "bad build configuration: %v", err)
		}
		out = cfg.Render()
		return nil
	})
	return out, err
}
