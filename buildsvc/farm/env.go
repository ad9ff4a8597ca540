package farm

import (
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/packaging/resolve"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// What a where's builds resolve against, shared by the scheduler's planner and the reads that
// answer as a build would (buildinfo, builddepinfo, fileinfo_ext, _buildconfig): the merged
// configuration of the repository's path chain and the pool of its binaries.

// chainConfig merges the build configurations of the projects along chain (each project once,
// the first repository of a project naming it), parsing each at most once per cache.
func chainConfig(tx kv.Tx, chain []buildstore.Path, cache map[string]resolve.Config) (resolve.Config, error) {
	var list []resolve.Config
	seen := map[string]bool{}
	for _, c := range chain {
		if seen[c.Project] {
			continue
		}
		seen[c.Project] = true
		key := c.Project + "/" + c.Repository
		cfg, ok := cache[key]
		if !ok {
			p, err := buildstore.GetProject(tx, c.Project)
			if err != nil {
				return resolve.Config{}, err
			}
			if cfg, err = resolve.ParseConfig(p.Config); err != nil {
				return resolve.Config{}, err
			}
			cfg.Project, cfg.Repository = c.Project, c.Repository
			if cache != nil {
				cache[key] = cfg
			}
		}
		list = append(list, cfg)
	}
	return resolve.Merge(list), nil
}

// resolveBinaries returns the binary RPMs of a where as the resolver sees them.
func resolveBinaries(tx kv.Tx, w buildstore.Where) []resolve.Binary {
	list, _ := buildstore.Binaries(tx, w, "")
	var out []resolve.Binary
	for _, b := range list {
		if !b.IsRPM() {
			continue
		}
		out = append(out, resolve.Binary{Name: b.Name, Epoch: b.Epoch, Version: b.Version, Release: b.Release, Arch: b.Arch,
			Provides: buildsvc.SpecDeps(b.Provides), Requires: buildsvc.SpecDeps(b.Requires), Package: b.Package, Project: w.Project, Repository: w.Repository, Filename: b.Filename})
	}
	return out
}

// whereEnv is a where's build environment for a read: its path chain, the merged configuration
// and the pool of binaries along the chain for its arch.
type whereEnv struct {
	chain  []buildstore.Path
	cfg    resolve.Config
	pool   *resolve.Pool
	macros map[string]string
}

// loadWhereEnv builds the environment of w as the scheduler builds it. A path naming a
// repository that does not exist, or a configuration that does not parse, is the repository's
// breakage: 400 with the scheduler's words.
func loadWhereEnv(tx kv.Tx, w buildstore.Where) (whereEnv, error) {
	chain, missing := buildsvc.RepoChain(tx, w.Project, w.Repository)
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = m.Project + "/" + m.Repository
		}
		return whereEnv{}, fault.Invalid("400", "missing repositories: %s", strings.Join(names, ", "))
	}
	cfg, err := chainConfig(tx, chain, nil)
	if err != nil {
		return whereEnv{}, fault.Invalid("400", "bad build configuration: %v", err)
	}
	layers := make([]resolve.Layer, len(chain))
	for i, c := range chain {
		layers[i] = resolve.Layer{Project: c.Project, Repository: c.Repository,
			Binaries: resolveBinaries(tx, buildstore.Where{Project: c.Project, Repository: c.Repository, Arch: w.Arch})}
	}
	return whereEnv{chain: chain, cfg: cfg, pool: resolve.NewPool(layers, cfg, w.Arch), macros: cfg.ForArch(w.Arch).MacroMap()}, nil
}
