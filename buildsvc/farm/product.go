package farm

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/packaging/product"
	"github.com/pocketforge/pocketforge/packaging/resolve"
	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Product builds. A package holding a product definition (a *.productcompose file, the
// subset packaging/product reads) is built in a repository whose build configuration says
// `Type: productcompose` — by OBS's convention the distribution's repository "product", with
// a path to "standard", configured by `%if "%_repository" == "product"` in the project's
// configuration. There every spec package is excluded, and in the other repositories the
// product package is (sources.recipeType).
//
// A product build composes, per architecture, the binary packages its definition lists from
// the repositories it names (each must be on the product repository's path, so a change there
// queues the product again, as a path does; none named: the path itself), each the first
// repository's binary of that name that meets the definition's version constraint:
//
//   - unresolvable, "nothing provides <package>", while a listed package has no binary;
//   - blocked while the package that builds a shipped binary is scheduled, building or
//     blocked in its repository (the product would ship a binary about to be replaced);
//   - otherwise it is scheduled when what it ships changed, and its job succeeds — its
//     binaries are the product's medium metadata, an SPDX 2.3 SBOM and the rpm-md of what it
//     ships (farm_product_job.go) — or fails, with a log naming them, when the build of a
//     package it ships failed: the old binary is still there, as OBS keeps it, but a product
//     shipping a binary its sources no longer build is not a product of its sources, and the
//     product's badge then shows red what the package's shows.

const (
	productType   = "productcompose" // the build type (Type:) of a product repository
	productSuffix = ".productcompose"
)

// composition is what a product build of one where ships, and what stands in its way.
type composition struct {
	def     *product.Definition
	shipped []resolve.Binary // one per package shipped on the arch, by package name
	missing []string         // listed packages no repository has a binary of ("name op version")
	busy    []string         // the packages building a shipped binary that are not finished
	failed  []string         // "package (project/repository)" whose build of a shipped binary failed
}

// statusLookup answers the current status of pkg in w, if the farm has one.
type statusLookup func(w buildstore.Where, pkg string) (buildstore.BuildStatus, bool)

// binariesLookup answers a where's binary RPMs as the resolver sees them.
type binariesLookup func(w buildstore.Where) []resolve.Binary

// parseProduct reads a product definition; a failure is the package's breakage, in the
// definition's own words (which name the line and element).
func parseProduct(src sources) (*product.Definition, string) {
	def, err := product.Parse(bytes.NewReader(src.product))
	if err != nil {
		return nil, src.productName + ": " + err.Error()
	}
	return def, ""
}

// productRepositories are the repositories a product in where takes its packages from: the
// definition's, each of which must be on the product repository's path chain, or the chain
// itself. A repository off the chain is the package's breakage.
func productRepositories(def *product.Definition, chain []buildstore.Path) ([]buildstore.Path, string) {
	if len(def.Repositories) == 0 {
		return chain, ""
	}
	var out []buildstore.Path
	for _, r := range def.Repositories {
		p := buildstore.Path{Project: r.Project, Repository: r.Repository}
		if !slices.Contains(chain, p) {
			return nil, "repository " + r.String() + " is not on the path of the product repository"
		}
		out = append(out, p)
	}
	return out, ""
}

// compose works out what def ships in w from repos, with each package's current status.
func compose(def *product.Definition, w buildstore.Where, repos []buildstore.Path, binaries binariesLookup, status statusLookup) composition {
	c := composition{def: def}
	byName := make([]map[string][]resolve.Binary, len(repos))
	for i, r := range repos {
		byName[i] = map[string][]resolve.Binary{}
		for _, b := range binaries(buildstore.Where{Project: r.Project, Repository: r.Repository, Arch: w.Arch}) {
			if b.Arch == w.Arch || b.Arch == "noarch" {
				b.Project, b.Repository = r.Project, r.Repository
				byName[i][b.Name] = append(byName[i][b.Name], b)
			}
		}
	}
	for _, p := range def.PackagesFor(w.Arch) {
		var found *resolve.Binary
		for i := range repos {
			if found = pick(byName[i][p.Name], p); found != nil {
				break
			}
		}
		if found == nil {
			c.missing = append(c.missing, p.String())
			continue
		}
		c.shipped = append(c.shipped, *found)
	}
	seen := map[string]bool{}
	for _, b := range c.shipped {
		if b.Package == "" || b.Package == RepositoryPackage {
			continue // an imported binary: nothing builds it
		}
		from := buildstore.Where{Project: b.Project, Repository: b.Repository, Arch: w.Arch}
		key := from.Project + "/" + from.Repository + "/" + b.Package
		if seen[key] {
			continue
		}
		seen[key] = true
		st, ok := status(from, b.Package)
		if !ok {
			continue
		}
		switch st.Code {
		case buildstore.CodeScheduled, buildstore.CodeBuilding, buildstore.CodeBlocked:
			c.busy = append(c.busy, b.Package)
		case buildstore.CodeFailed:
			c.failed = append(c.failed, b.Package+" ("+from.Project+"/"+from.Repository+")")
		}
	}
	slices.Sort(c.busy)
	c.busy = slices.Compact(c.busy)
	return c
}

// pick chooses what a product ships of package p among one repository's binaries of that
// name: those meeting p's version constraint, a binary the repository builds before one it
// imported (a distribution's own build of a package replaces the bootstrap copy of its base,
// and only a build names its sources), then the highest version; nil when none qualifies.
func pick(cands []resolve.Binary, p product.Package) *resolve.Binary {
	var best *resolve.Binary
	want := specfile.Dep{Name: p.Name, Op: p.Op, Version: p.Version}
	for i := range cands {
		b := &cands[i]
		if p.Op != "" && !specfile.Overlap(want, specfile.Dep{Name: b.Name, Op: "=", Version: b.EVR()}) {
			continue
		}
		if best == nil {
			best = b
			continue
		}
		built, bestBuilt := b.Package != RepositoryPackage, best.Package != RepositoryPackage
		if built != bestBuilt {
			if built {
				best = b
			}
			continue
		}
		if specfile.EVRCompare(b.EVR(), best.EVR()) > 0 {
			best = b
		}
	}
	return best
}

// key is the digest the planner compares to decide a rebuild: the binaries shipped and the
// failed builds among them.
func (c composition) key() string {
	var parts []string
	for _, b := range c.shipped {
		parts = append(parts, b.Project+"/"+b.Repository+"/"+b.Filename)
	}
	slices.Sort(parts)
	parts = append(parts, "failed:")
	parts = append(parts, c.failed...)
	sum := md5.Sum([]byte(strings.Join(parts, "\n")))
	return hex.EncodeToString(sum[:])
}

// judgeProduct decides a product package in w: broken, excluded (not one of the product's
// architectures), unresolvable, blocked, or a candidate whose deps are what it ships.
func (pl *planner) judgeProduct(src sources, w buildstore.Where, env buildEnv, st *buildstore.BuildStatus) *candidate {
	def, broken := parseProduct(src)
	if broken == "" && !slices.Contains(def.Architectures, w.Arch) {
		st.Code = buildstore.CodeExcluded
		return nil
	}
	var repos []buildstore.Path
	if broken == "" {
		repos, broken = productRepositories(def, env.chain)
	}
	if broken != "" {
		st.Code, st.Details = buildstore.CodeBroken, broken
		return nil
	}
	c := compose(def, w, repos, pl.whereBinaries, pl.status)
	switch {
	case len(c.missing) > 0:
		st.Code, st.Details = buildstore.CodeUnresolvable, "nothing provides "+strings.Join(c.missing, ", nothing provides ")
		return nil
	case len(c.busy) > 0:
		st.Code, st.Details = buildstore.CodeBlocked, resolve.BlockedDetails(c.busy)
		return nil
	}
	deps := make([]*resolve.Binary, len(c.shipped))
	for i := range c.shipped {
		deps[i] = &c.shipped[i]
	}
	return &candidate{st: *st, src: src, install: deps, deps: deps, depsKey: c.key()}
}

// status is pkg's status in w: this pass's decision when w was planned earlier in the pass,
// else the stored one.
func (pl *planner) status(w buildstore.Where, pkg string) (buildstore.BuildStatus, bool) {
	if list, ok := pl.decided[w]; ok {
		for _, st := range list {
			if st.Package == pkg {
				return st, true
			}
		}
		return buildstore.BuildStatus{}, false
	}
	st, err := buildstore.GetStatus(pl.tx, w, pkg)
	return st, err == nil
}
