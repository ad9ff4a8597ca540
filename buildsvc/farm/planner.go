package farm

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/packaging/resolve"
	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// planner works out one pass over a project. What several wheres share is read once: each
// package's sources, each where's binaries, each project's configuration.
type planner struct {
	tx       kv.Tx
	p        buildstore.Project
	now      time.Time
	pkgs     []buildstore.Package
	sources  map[string]sources
	binaries map[buildstore.Where][]resolve.Binary             // per where, read once
	configs  map[string]resolve.Config                         // per project/repository, parsed once
	specs    *specCache                                        // parsed specs across passes (nil: parse each)
	decoded  *buildsvc.Decoded[string, buildstore.BuildStatus] // decoded statuses across passes (nil: decode each)
	decided  map[buildstore.Where][]buildstore.BuildStatus     // this pass's statuses, for a product repository's judge
	workers  int                                               // the farm's workers, for a queued job's details
}

func newPlanner(tx kv.Tx, p buildstore.Project, now time.Time) *planner {
	return &planner{tx: tx, p: p, now: now, sources: map[string]sources{},
		binaries: map[buildstore.Where][]resolve.Binary{}, configs: map[string]resolve.Config{},
		decided: map[buildstore.Where][]buildstore.BuildStatus{}}
}

// plan decides every where of the project.
func (pl *planner) plan() ([]wherePlan, error) {
	pkgs, err := buildstore.Packages(pl.tx, pl.p.Name)
	if err != nil {
		return nil, err
	}
	pl.pkgs = pkgs
	var out []wherePlan
	for _, r := range pl.p.Repositories {
		for _, arch := range r.Archs {
			wp, err := pl.planWhere(r, buildstore.Where{Project: pl.p.Name, Repository: r.Name, Arch: arch})
			if err != nil {
				return nil, err
			}
			out = append(out, wp)
			pl.decided[wp.w] = wp.statuses
		}
	}
	return out, nil
}

// candidate is a package that could build in a where: its sources parse and its build
// dependencies resolve.
type candidate struct {
	st      buildstore.BuildStatus
	src     sources
	install []*resolve.Binary // what the build installs (its log lists them)
	deps    []*resolve.Binary // what it depends on: what blocks and rebuilds it
	local   []string          // packages of the same where whose binaries it depends on
	// depsKey, when set, stands for the digest of deps: a product's also names the shipped
	// packages whose builds failed, so a failure (and its fix) rebuilds the product.
	depsKey string
}

// buildEnv is what the packages of one where resolve and parse against: the binaries along the
// repository's path chain, indexed once, and the configuration's macros for the arch.
type buildEnv struct {
	pool      *resolve.Pool
	macros    map[string]string
	macrosKey string // macrosDigest(macros), for the spec cache
	repoType  string // the configuration's build type (Type:), "" for spec
	chain     []buildstore.Path
}

// planWhere decides one where: first each package on its own (flags, sources, spec,
// dependencies), then, in build order, whether it waits for another or must build.
func (pl *planner) planWhere(r buildstore.Repository, w buildstore.Where) (wherePlan, error) {
	oldList, err := pl.statuses(w)
	if err != nil {
		return wherePlan{}, err
	}
	old := make(map[string]buildstore.BuildStatus, len(oldList))
	for _, st := range oldList {
		old[st.Package] = st
	}
	repoState, _ := buildstore.GetRepoState(pl.tx, w)
	chain, missing := buildsvc.RepoChain(pl.tx, pl.p.Name, r.Name)
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = m.Project + "/" + m.Repository
		}
		// The statuses stay as they were (the binaries too): the repository cannot be
		// recalculated until its path is whole again.
		repoState.Code, repoState.Details = "broken", "missing repositories: "+strings.Join(names, ", ")
		return wherePlan{w: w, statuses: oldList, repo: repoState}, nil
	}
	cfg, err := pl.config(chain)
	if err != nil {
		repoState.Code, repoState.Details = "broken", "bad build configuration: "+err.Error()
		return wherePlan{w: w, statuses: oldList, repo: repoState}, nil
	}
	layers := make([]resolve.Layer, len(chain))
	for i, c := range chain {
		layers[i] = resolve.Layer{Project: c.Project, Repository: c.Repository,
			Binaries: pl.whereBinaries(buildstore.Where{Project: c.Project, Repository: c.Repository, Arch: w.Arch})}
	}
	archCfg := cfg.ForArch(w.Arch)
	env := buildEnv{pool: resolve.NewPool(layers, cfg, w.Arch), macros: archCfg.MacroMap(), repoType: archCfg.Type, chain: chain}
	if pl.specs != nil {
		env.macrosKey = macrosDigest(env.macros)
	}

	plan := wherePlan{w: w}
	cands := map[string]*candidate{}
	var names []string
	for _, k := range pl.pkgs {
		st, ok := old[k.Name]
		if !ok {
			st = buildstore.BuildStatus{Package: k.Name}
		}
		st.Details = ""
		switch c := pl.judge(k, r, w, env, &st); {
		case c != nil:
			cands[k.Name] = c
			names = append(names, k.Name)
		default:
			plan.statuses = append(plan.statuses, st)
		}
	}
	nodes := make([]resolve.Node, 0, len(names))
	for _, n := range names {
		nodes = append(nodes, resolve.Node{Name: n, BuildDeps: cands[n].local})
	}
	order, cycles := resolve.Order(nodes)
	cycleOf := map[string]map[string]bool{}
	for _, cyc := range cycles {
		set := map[string]bool{}
		for _, n := range cyc {
			set[n] = true
		}
		for _, n := range cyc {
			cycleOf[n] = set
		}
	}
	notready := map[string]bool{}
	for _, n := range order {
		c := cands[n]
		st := c.st
		var blocked []string
		for _, b := range c.deps {
			if b.Project == w.Project && b.Repository == w.Repository && b.Package != n && notready[b.Package] && !cycleOf[n][b.Package] {
				blocked = append(blocked, b.Name)
			}
		}
		if len(blocked) > 0 {
			st.Code, st.Details = buildstore.CodeBlocked, resolve.BlockedDetails(blocked)
			notready[n] = true
			plan.statuses = append(plan.statuses, st)
			continue
		}
		pl.decideBuild(&st, c)
		if st.Code == buildstore.CodeScheduled || st.Code == buildstore.CodeBuilding {
			notready[n] = true
		}
		plan.statuses = append(plan.statuses, st)
	}
	sort.Slice(plan.statuses, func(i, j int) bool { return plan.statuses[i].Package < plan.statuses[j].Package })
	plan.repo = repoState
	code := repoCode(plan.statuses)
	if code != "finished" || !repoDone(repoState.Code) {
		plan.repo.Code = code // a published repository stays so until something builds again
	}
	plan.repo.Details = ""
	return plan, nil
}

// judge decides what can be decided of package k in w on its own; it returns the candidate when
// the package could build (its sources parse and its dependencies resolve), else fills st.
func (pl *planner) judge(k buildstore.Package, r buildstore.Repository, w buildstore.Where, env buildEnv, st *buildstore.BuildStatus) *candidate {
	switch {
	case pl.p.Locked || k.Locked:
		st.Code = buildstore.CodeLocked
		return nil
	case !FlagEnabled(pl.p.Flags, k.Flags, "build", r.Name, w.Arch, true):
		st.Code = buildstore.CodeDisabled
		return nil
	}
	src := pl.source(k.Name)
	if src.patchinfo {
		st.Code = buildstore.CodeExcluded
		return nil
	}
	if src.broken != "" {
		st.Code, st.Details = buildstore.CodeBroken, src.broken
		return nil
	}
	switch src.recipeType(env.repoType) {
	case "":
		st.Code = buildstore.CodeExcluded
		return nil
	case productType:
		return pl.judgeProduct(src, w, env, st)
	}
	var spec *specfile.Spec
	var err error
	if pl.specs != nil {
		spec, err = pl.specs.parse(src, w.Arch, env.macros, env.macrosKey)
	} else {
		spec, err = specfile.Parse(src.spec, specfile.Options{Arch: w.Arch, Macros: env.macros})
	}
	if err != nil {
		st.Code, st.Details = buildstore.CodeBroken, src.specName+": "+err.Error()
		return nil
	}
	if excluded, _ := spec.Excluded(w.Arch); excluded {
		st.Code = buildstore.CodeExcluded
		return nil
	}
	subpacks := make([]string, len(spec.Packages))
	for i, p := range spec.Packages {
		subpacks[i] = p.Name
	}
	res := env.pool.Expand(subpacks, spec.BuildRequires)
	if !res.OK {
		st.Code, st.Details = buildstore.CodeUnresolvable, res.Details()
		return nil
	}
	return &candidate{st: *st, src: src, install: res.Install, deps: res.Deps, local: res.LocalPackages(w.Project, w.Repository, k.Name)}
}

// decideBuild schedules a build when the sources or the installed binaries changed since the
// last build (or a rebuild was asked for), keeps a job scheduled or running for the same
// inputs, and otherwise shows the last build's outcome.
func (pl *planner) decideBuild(st *buildstore.BuildStatus, c *candidate) {
	deps := depsHash(c.deps)
	if c.depsKey != "" {
		deps = c.depsKey
	}
	active := st.Code == buildstore.CodeScheduled || st.Code == buildstore.CodeBuilding
	if active && st.SrcMD5 == c.src.srcmd5 && st.DepsHash == deps {
		st.Details = pl.jobDetails(*st)
		return
	}
	var reason buildstore.Reason
	switch {
	case st.Forced, st.LastSrcMD5 != "" && st.LastSrcMD5 != c.src.srcmd5:
		reason = buildstore.Reason{Explain: "source change", OldSource: st.LastSrcMD5}
	case st.Last == "":
		reason = buildstore.Reason{Explain: "new build"}
	case st.LastDepsHash != deps:
		reason = buildstore.Reason{Explain: "meta change"}
	default:
		st.Code = st.Last
		return
	}
	reason.Time = pl.now
	install := make([]string, len(c.install))
	for i, b := range c.install {
		install[i] = b.Filename
	}
	*st = buildstore.BuildStatus{Package: st.Package, Code: buildstore.CodeScheduled, SrcMD5: c.src.srcmd5, Rev: c.src.rev,
		DepsHash: deps, Version: c.src.version, VRev: c.src.vrev, Reason: reason, ReadyTime: pl.now, Forced: st.Forced, Install: install,
		Last: st.Last, LastSrcMD5: st.LastSrcMD5, LastDepsHash: st.LastDepsHash, LastEnd: st.LastEnd, Bcnt: st.Bcnt}
	st.Details = pl.jobDetails(*st)
}

// jobDetails is what a scheduled or running job's status says: the dispatcher's "waiting for
// N compliant workers" while it waits (every simulated worker can build every arch), the
// worker while it runs.
func (pl *planner) jobDetails(st buildstore.BuildStatus) string {
	if st.Code == buildstore.CodeBuilding {
		return "building on " + st.Worker
	}
	return fmt.Sprintf("waiting for %d compliant workers", max(pl.workers, 1))
}

// repoCode is a where's repository code from its packages' codes, as the backend's scheduler
// reports it: building while a job is scheduled or runs, blocked while one waits, else
// finished (publishing makes it published).
func repoCode(statuses []buildstore.BuildStatus) string {
	code := "finished"
	for _, st := range statuses {
		switch st.Code {
		case buildstore.CodeScheduled, buildstore.CodeBuilding:
			return "building"
		case buildstore.CodeBlocked:
			code = "blocked"
		}
	}
	return code
}

// depsHash is a digest of the binaries a build installs: a rebuilt dependency (a new release
// in its file name) changes it.
func depsHash(install []*resolve.Binary) string {
	names := make([]string, len(install))
	for i, b := range install {
		names[i] = b.Project + "/" + b.Repository + "/" + b.Filename
	}
	sort.Strings(names)
	sum := md5.Sum([]byte(strings.Join(names, "\n")))
	return hex.EncodeToString(sum[:])
}

// source returns the sources of pkg, read once per pass.
func (pl *planner) source(pkg string) sources {
	src, ok := pl.sources[pkg]
	if !ok {
		src = loadSources(pl.tx, pl.p.Name, pkg)
		pl.sources[pkg] = src
	}
	return src
}

// statuses reads w's statuses as the pass begins, through the decoded statuses kept across
// passes when the service gave them: a pass stores only the statuses that changed, so most are
// the very bytes the last pass decoded.
func (pl *planner) statuses(w buildstore.Where) ([]buildstore.BuildStatus, error) {
	if pl.decoded == nil {
		return buildstore.Statuses(pl.tx, w)
	}
	var out []buildstore.BuildStatus
	key := string(w.Key()) + "\x00"
	err := buildstore.EachRawStatus(pl.tx, w, func(pkg string, raw []byte) error {
		st, err := pl.decoded.Get(key+pkg, raw)
		out = append(out, st)
		return err
	})
	return out, err
}

// whereBinaries returns the binary RPMs of a where as the resolver sees them, read once per pass.
func (pl *planner) whereBinaries(w buildstore.Where) []resolve.Binary {
	if bins, ok := pl.binaries[w]; ok {
		return bins
	}
	out := resolveBinaries(pl.tx, w)
	pl.binaries[w] = out
	return out
}

// config merges the build configurations of the projects along chain (each project once).
func (pl *planner) config(chain []buildstore.Path) (resolve.Config, error) {
	return chainConfig(pl.tx, chain, pl.configs)
}
