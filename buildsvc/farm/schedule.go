package farm

import (
	"errors"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The scheduler. A project whose sources, metas or configuration changed is queued
// (buildstore.MarkDirty, in the writing transaction); a pass recalculates every build status of
// it, per repository and architecture, for reasons a user can see:
//
//	locked        the project or package is locked
//	disabled      the build flag says so for this repository and arch (FlagEnabled)
//	broken        the link does not expand, nothing was committed, no spec, or it does not parse
//	excluded      the spec's ExclusiveArch/ExcludeArch
//	unresolvable  a BuildRequires no binary provides along the repository's path chain
//	blocked       a dependency built in the same repository is scheduled, building or blocked
//	scheduled     the sources or the binaries it depends on changed since the last build
//	succeeded, failed  the last build's outcome, when nothing changed since
//
// A pass reads in one read transaction and writes in one write transaction that first checks
// the project's queue ticket: if anything changed the project meanwhile (a commit, a worker
// finishing a job, a rebuild command — all queue it again), the pass's answer is dropped and the
// next pass starts from the new state. Workers (farm_workers.go) take the scheduled jobs and
// finish them by the clock.

// wherePlan is a pass's answer for one where.
type wherePlan struct {
	w        buildstore.Where
	statuses []buildstore.BuildStatus
	repo     buildstore.RepoState
}

// SchedulePending runs a pass for every queued project, oldest ticket first; the farm's clock
// job calls it.
func (s *Farm) SchedulePending() error {
	var names []string
	var tickets []uint64
	if err := s.db.View(func(tx kv.Tx) (err error) { names, tickets, err = buildstore.DirtyProjects(tx); return }); err != nil {
		return err
	}
	var errs []error
	for i, name := range names {
		stored, err := s.schedulePass(name, tickets[i])
		if err == nil && stored {
			err = s.publishProject(name)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// schedulePass recalculates project if it is still queued with ticket, and reports whether its
// answer was stored.
func (s *Farm) schedulePass(project string, ticket uint64) (bool, error) {
	now := s.clk.Now()
	var plans []wherePlan
	gone := false
	err := s.db.View(func(tx kv.Tx) error {
		p, err := buildstore.GetProject(tx, project)
		if errors.Is(err, store.ErrNotFound) {
			gone = true
			return nil
		}
		if err != nil {
			return err
		}
		pl := newPlanner(tx, p, now)
		pl.specs, pl.decoded, pl.workers = &s.specs, s.statuses, s.farmOptions().Workers
		plans, err = pl.plan()
		return err
	})
	if err != nil {
		return false, err
	}
	stored := false
	err = s.db.Write(func(tx kv.Tx) error {
		if t, queued := buildstore.Ticket(tx, project); !queued || t != ticket {
			return nil
		}
		if gone {
			if err := buildstore.PurgeFarm(tx, project); err != nil {
				return err
			}
		} else if err := storePlans(tx, project, plans); err != nil {
			return err
		}
		stored = true
		return buildstore.ClearDirty(tx, project, ticket)
	})
	return stored, err
}

// storePlans writes a pass's statuses and repository states, and drops the statuses of
// packages and wheres that are gone from the project.
func storePlans(tx kv.Tx, project string, plans []wherePlan) error {
	keep := map[buildstore.Where]map[string]bool{}
	for _, pl := range plans {
		names := map[string]bool{}
		for _, st := range pl.statuses {
			names[st.Package] = true
			if err := buildstore.PutStatus(tx, pl.w, st); err != nil {
				return err
			}
		}
		keep[pl.w] = names
		if err := buildstore.PutRepoState(tx, pl.w, pl.repo); err != nil {
			return err
		}
	}
	wheres, err := buildstore.FarmWheres(tx, project)
	if err != nil {
		return err
	}
	for _, w := range wheres {
		old, err := buildstore.StatusPackages(tx, w)
		if err != nil {
			return err
		}
		for _, pkg := range old {
			if names, ok := keep[w]; !ok || !names[pkg] {
				if err := buildstore.DropPackageFarm(tx, w, pkg); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
