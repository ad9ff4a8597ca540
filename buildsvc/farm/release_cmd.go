package farm

import (
	"slices"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Releasing (POST /source/P[/K]?cmd=release): a package's sources and built binaries are
// copied into a release target, as OBS releases a package (maintenance_helper release_package):
//
//   - the targets are the <releasetarget/> of each repository of P (only those of repository
//     when it is given) whose trigger is manual or maintenance, or, when target_project is
//     given, that project's target_repository for P's repository (both then required);
//   - who needs write access to every target project (a maintainer of it, or Admin) and read
//     access to the sources released; the source project's maintainers are not asked, as OBS
//     does not ask them;
//   - every architecture of the source repository must be one of the target repository's,
//     the first the same (OBS's architecture_order_missmatch otherwise);
//   - the package's sources, expanded when it is a link, become a new revision of the
//     same-named package in the target project (created on the way with the source's title and
//     description), through the one commit path (CommitTree) — unless the target's newest
//     revision already holds that tree;
//   - the binaries of each architecture replace the target package's in the target
//     repository's same architecture; setrelease renames the release part of each RPM's file
//     name ("-" strips it) — only the file name changes, as the seed says, the RPM inside is
//     the same;
//   - the target project is queued for a scheduler pass, which publishes the release.
//
// The target project decides, as on OBS, whether the released package is built again there:
// update projects disable builds, so the released binaries stay as they came.
//
// What OBS does and this model leaves out: the release runs at once (no delayed job, so no
// "invoked" answer), the target package keeps the source's name (OBS appends the incident
// number to packages released from an incident and a time stamp to patchinfos), and there is
// no binary_released record (the released binaries are simply the target's binaries).

// ReleaseRequest is a cmd=release.
type ReleaseRequest struct {
	// Project is the source project; Package the package released ("": every package).
	Project, Package string
	// Repository limits the release to one repository of Project; Arch to one architecture.
	Repository, Arch string
	// TargetProject and TargetRepository name the target instead of the release targets of
	// the meta (both needed, with Repository).
	TargetProject, TargetRepository string
	// SetRelease replaces the release in the file names of released RPMs ("-": none).
	SetRelease string
	// Comment is the comment of the target revisions ("Release from P/K" by default).
	Comment string
}

// releaseStep is one source repository released into one target repository.
type releaseStep struct {
	from   buildstore.Repository
	target buildstore.Project
	to     buildstore.Repository
}

// Release releases req for who (see the file's comment).
func (s *Farm) Release(who buildstore.Person, req ReleaseRequest) error {
	if req.TargetProject != "" && (req.TargetRepository == "" || req.Repository == "") {
		return buildsvc.BadRequest("missing_parameter", "release action with specified target project needs also \"repository\" and \"target_repository\" parameter")
	}
	if req.TargetProject == "" && req.TargetRepository != "" {
		return buildsvc.BadRequest("missing_parameter", "release action with specified target repository needs also \"target_project\" parameter")
	}
	if err := validRelease(req.SetRelease); err != nil {
		return err
	}
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		p, err := buildsvc.ReadableProject(tx, who, req.Project)
		if err != nil {
			return err
		}
		pkgs, err := releasedPackages(tx, who, req)
		if err != nil {
			return err
		}
		steps, err := releaseSteps(tx, who, p, req)
		if err != nil {
			return err
		}
		for _, k := range pkgs {
			for _, st := range steps {
				if err := releasePackage(tx, who, k, st, req, now); err != nil {
					return err
				}
			}
		}
		for _, st := range steps {
			if err := buildstore.MarkDirty(tx, st.target.Name); err != nil {
				return err
			}
		}
		return nil
	})
}

// releasedPackages are the packages req releases, each readable to who: the one named, or all
// of the project.
func releasedPackages(tx kv.Tx, who buildstore.Person, req ReleaseRequest) ([]buildstore.Package, error) {
	var pkgs []buildstore.Package
	if req.Package != "" {
		_, k, err := buildsvc.LookupPackage(tx, req.Project, req.Package)
		if err != nil {
			return nil, err
		}
		pkgs = []buildstore.Package{k}
	} else {
		var err error
		if pkgs, err = buildstore.Packages(tx, req.Project); err != nil {
			return nil, err
		}
	}
	for _, k := range pkgs {
		if err := buildsvc.SourcesReadable(tx, who, req.Project, k.Name); err != nil {
			return nil, err
		}
	}
	return pkgs, nil
}

// releaseSteps finds the targets of req in p and checks each (verify_release_targets!): a
// known target repository, write access, matching architectures; none at all is OBS's 404
// no_matching_release_target.
func releaseSteps(tx kv.Tx, who buildstore.Person, p buildstore.Project, req ReleaseRequest) ([]releaseStep, error) {
	if req.Repository != "" {
		if _, ok := p.Repository(req.Repository); !ok {
			return nil, fault.NotFound("unknown_repository", "Repository does not exist %s", req.Repository)
		}
	}
	var steps []releaseStep
	badTrigger := false
	for _, r := range p.Repositories {
		if req.Repository != "" && r.Name != req.Repository {
			continue
		}
		tp, tr := req.TargetProject, req.TargetRepository
		if tp == "" {
			t := r.ReleaseTarget
			if t == nil {
				continue
			}
			if t.Trigger != "manual" && t.Trigger != "maintenance" {
				badTrigger = true
				continue
			}
			tp, tr = t.Project, t.Repository
		}
		st, err := releaseTarget(tx, who, r, tp, tr, req.Arch)
		if err != nil {
			return nil, err
		}
		steps = append(steps, st)
	}
	switch {
	case len(steps) == 0 && badTrigger:
		return nil, fault.NotFound("no_matching_release_target", "Trigger is not set to manual in any repository")
	case len(steps) == 0:
		return nil, fault.NotFound("no_matching_release_target", "No defined or matching release target")
	}
	return steps, nil
}

// releaseTarget checks one target repository (check_single_target!, check_valid_release_target!).
func releaseTarget(tx kv.Tx, who buildstore.Person, from buildstore.Repository, project, repo, arch string) (releaseStep, error) {
	st := releaseStep{from: from}
	tp, err := buildstore.GetProject(tx, project)
	if err == nil && buildsvc.HiddenFrom(tx, who, tp) {
		err = buildsvc.ProjectNotFound(project)
	}
	if err != nil {
		return st, buildsvc.NotFoundAs(err, "unknown_project")
	}
	to, ok := tp.Repository(repo)
	if !ok {
		return st, fault.NotFound("unknown_repository", "Invalid target repository %s/%s", project, repo)
	}
	if !buildsvc.Maintains(tx, who, tp.Persons, tp.Groups) {
		return st, buildsvc.Forbidden("cmd_execution_no_permission", "no permission to write in project %s", project)
	}
	if tp.Locked {
		return st, buildsvc.Forbidden("project_locked", "The target project is locked")
	}
	if len(from.Archs) > 0 && (len(to.Archs) == 0 || from.Archs[0] != to.Archs[0]) {
		return st, buildsvc.BadRequest("architecture_order_missmatch", "Repository '%s' and releasetarget '%s' have different architectures on first position", from.Name, to.Name)
	}
	for _, a := range from.Archs {
		if (arch == "" || a == arch) && !slices.Contains(to.Archs, a) {
			return st, buildsvc.BadRequest("architecture_order_missmatch", "Release target repository lacks architecture %s", a)
		}
	}
	st.target, st.to = tp, to
	return st, nil
}
