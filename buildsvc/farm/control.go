package farm

import (
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Build control: POST /build/<project>?cmd=rebuild|abortbuild|restartbuild|wipe|unpublish and
// the package commands rebuild and wipe. The filters (package, repository, arch, code; each
// repeatable, none meaning all) pick statuses; a filter that matches nothing does nothing and
// is no error. Who may change a package's sources may control its builds: a maintainer of the
// project, or — when the command names packages — of each package named.

// BuildFilter picks statuses of a project; empty lists match everything.
type BuildFilter struct {
	Packages, Repositories, Archs, Codes []string
}

func (f BuildFilter) matches(w buildstore.Where, st buildstore.BuildStatus) bool {
	return f.matchesWhere(w) && in(f.Packages, st.Package) && in(f.Codes, st.Code)
}

// matchesWhere applies the repository and arch filters only.
func (f BuildFilter) matchesWhere(w buildstore.Where) bool {
	return in(f.Repositories, w.Repository) && in(f.Archs, w.Arch)
}

// in reports whether a filter list lets v through (an empty list lets everything through).
func in(list []string, v string) bool { return len(list) == 0 || slices.Contains(list, v) }

// Build commands.
const (
	CmdRebuild      = "rebuild"
	CmdAbortBuild   = "abortbuild"
	CmdRestartBuild = "restartbuild"
	CmdWipe         = "wipe"
	CmdUnpublish    = "unpublish"
)

// ControlBuilds runs cmd on the statuses of project that f picks, for who:
//
//	rebuild       builds again, although nothing changed (the reason shows "source change")
//	abortbuild    kills scheduled and running jobs; they end as failed
//	restartbuild  sends running jobs back to the queue, to start afresh
//	wipe          deletes the binaries (and build logs); the packages build anew
//	unpublish     deletes the published tree of the picked repositories
func (s *Farm) ControlBuilds(who buildstore.Person, project, cmd string, f BuildFilter) error {
	if err := checkBuildCommand(cmd); err != nil {
		return err
	}
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		if err := mayControl(tx, who, project, cmd, f.Packages); err != nil {
			return err
		}
		wheres, err := buildstore.FarmWheres(tx, project)
		if err != nil {
			return err
		}
		if cmd == CmdUnpublish {
			done := map[string]bool{}
			for _, w := range wheres {
				if !f.matchesWhere(w) || done[w.Repository] {
					continue
				}
				done[w.Repository] = true
				if err := buildstore.DeletePublished(tx, project, w.Repository); err != nil {
					return err
				}
				st, _ := buildstore.GetRepoState(tx, w)
				st.Code, st.PublishedDigest = "unpublished", ""
				if err := buildstore.PutRepoState(tx, w, st); err != nil {
					return err
				}
			}
			return nil
		}
		for _, w := range wheres {
			list, err := buildstore.Statuses(tx, w)
			if err != nil {
				return err
			}
			for _, st := range list {
				if !f.matches(w, st) {
					continue
				}
				if err := controlOne(tx, w, st, cmd, now); err != nil {
					return err
				}
			}
		}
		return buildstore.MarkDirty(tx, project)
	})
}

// controlOne applies cmd to one status.
func controlOne(tx kv.Tx, w buildstore.Where, st buildstore.BuildStatus, cmd string, now time.Time) error {
	active := st.Code == buildstore.CodeScheduled || st.Code == buildstore.CodeBuilding
	switch cmd {
	case CmdRebuild:
		if active {
			return nil
		}
		st.Forced = true
	case CmdAbortBuild:
		if !active {
			return nil
		}
		if st.Code == buildstore.CodeBuilding {
			if err := buildstore.AppendLog(tx, w, st.Package, []byte("\nJob aborted\n")); err != nil {
				return err
			}
		}
		err := buildstore.AddJobHistory(tx, w, buildstore.JobHistoryEntry{Package: st.Package, Rev: st.Rev, SrcMD5: st.SrcMD5,
			VersRel: st.VersRel(), Bcnt: st.Bcnt, ReadyTime: st.ReadyTime, StartTime: st.StartTime, EndTime: now,
			Code: buildstore.CodeFailed, WorkerID: st.Worker, HostArch: w.Arch, Reason: st.Reason.Explain})
		if err != nil {
			return err
		}
		st.Code, st.Details, st.Worker, st.EndTime = buildstore.CodeFailed, "aborted", "", now
		st.Last, st.LastSrcMD5, st.LastDepsHash, st.LastEnd = buildstore.CodeFailed, st.SrcMD5, st.DepsHash, now
	case CmdRestartBuild:
		if st.Code != buildstore.CodeBuilding {
			return nil
		}
		st.Code, st.Worker, st.StartTime, st.EndTime, st.LogShown = buildstore.CodeScheduled, "", time.Time{}, time.Time{}, 0
		st.ReadyTime = now
	case CmdWipe:
		if err := buildstore.DeleteBinaries(tx, w, st.Package); err != nil {
			return err
		}
		if err := buildstore.DeleteLogs(tx, w, st.Package); err != nil {
			return err
		}
		st.Last, st.LastSrcMD5, st.LastDepsHash = "", "", ""
		if active {
			st.Code, st.Worker = buildstore.CodeScheduled, ""
		}
	default:
		return buildsvc.BadRequest("illegal_request", "unsupported POST command %s", cmd)
	}
	return buildstore.PutStatus(tx, w, st)
}

// mayControl checks that who may control the builds of project (or of each package named).
func mayControl(tx kv.Tx, who buildstore.Person, project, cmd string, pkgs []string) error {
	p, err := buildstore.GetProject(tx, project)
	if err != nil {
		return buildsvc.NotFoundAs(err, "unknown_project")
	}
	if buildsvc.HiddenFrom(tx, who, p) {
		return buildsvc.ProjectNotFound(project)
	}
	if buildsvc.Maintains(tx, who, p.Persons, p.Groups) {
		return nil
	}
	if len(pkgs) == 0 {
		return buildsvc.Forbidden("cmd_execution_no_permission", "no permission to execute command '%s' for project '%s'", cmd, project)
	}
	for _, name := range pkgs {
		k, err := buildstore.GetPackage(tx, project, name)
		if err != nil || !buildsvc.Maintains(tx, who, k.Persons, k.Groups) {
			return buildsvc.Forbidden("cmd_execution_no_permission", "no permission to execute command '%s' for package '%s' in project '%s'", cmd, name, project)
		}
	}
	return nil
}
