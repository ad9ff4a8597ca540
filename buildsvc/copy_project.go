package buildsvc

import (
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/packaging/rpmout"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// cmd=copy on a project (POST /source/P?cmd=copy&oproject=O): P gets O's packages. A missing P
// is created from O's meta first (title, description, links, devel, persons and groups, flags,
// repositories, build config; not the lock), with the caller added as maintainer, as a meta
// PUT would. Every live package of O is created in P when missing (from O's package meta) and
// gets O's newest tree as a new revision, or with WithHistory every revision of O's history in
// order, keeping user, time and comment.
//
// A copy reads O's sources, so it applies the read protection of every read: O hidden from
// the caller is a 404 unknown_project, sources of O or of any copied package protected from
// the caller a 403 source_access_no_permission.
//
// The real service queues the copy as a job and answers "invoked" unless nodelay is given;
// here the copy is done when the answer comes. The binary options (release_copyproject.go):
// withbinaries (Admin's, as on the real service; others get its 403) also copies each copied
// package's binaries and build state into the same-named where of the copy; makeolder (or
// makeoriginolder; it needs a maintainer of the origin too) makes the copy "older" than the
// origin, as the backend splits them: the copy's revision gets the origin's vrev + 1 and the
// origin a new revision of the same files with vrev + 2, so the origin's next builds carry
// higher release numbers; resign (with withbinaries) signs the copied RPMs again with the key
// that signs the target's packages (its own, a parent's or the global one), as the real
// service's signer does.

// CopyProjectRequest is a project copy.
type CopyProjectRequest struct {
	// Project is the target, OProject the origin.
	Project, OProject string
	// Comment is the new revisions' comment (without WithHistory).
	Comment     string
	WithHistory bool
	// WithBinaries, Resign and MakeOlder (makeolder or makeoriginolder) are the binary
	// options (see above).
	WithBinaries, Resign, MakeOlder bool
}

// CopyProject copies req.OProject into req.Project for who.
func (s *Service) CopyProject(who buildstore.Person, req CopyProjectRequest) error {
	if err := copyOptionsAllowed(who, req); err != nil {
		return err
	}
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		dst, exists, err := copyTarget(tx, who, req.Project)
		if err != nil {
			return err
		}
		src, err := buildstore.GetProject(tx, req.OProject)
		if err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		if err := VisibleProject(tx, who, req.OProject); err != nil {
			return err
		}
		if req.MakeOlder && !Maintains(tx, who, src.Persons, src.Groups) {
			return Forbidden("cmd_execution_no_permission", "no permission to execute command 'copy', requires modification permission in origin project")
		}
		pkgs, err := buildstore.Packages(tx, req.OProject)
		if err != nil {
			return err
		}
		for _, k := range pkgs {
			if err := SourcesReadable(tx, who, req.OProject, k.Name); err != nil {
				return err
			}
		}
		if !exists {
			if err := buildstore.PutProject(tx, copiedProject(src, req.Project, who, now)); err != nil {
				return err
			}
		} else if dst.Locked {
			return Forbidden("project_locked", "The target project is locked")
		}
		var sign rpmout.Signer // resign: the copied binaries signed with the target's key
		if req.Resign && req.WithBinaries {
			if sign, err = RPMSigner(tx, req.Project, now); err != nil {
				return err
			}
		}
		for _, k := range pkgs {
			if err := copyPackageSources(tx, k, req.Project, who.Login, req, now); err != nil {
				return err
			}
			if req.WithBinaries {
				if err := copyPackageBinaries(tx, src, k.Name, req.Project, sign); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// copyOptionsAllowed checks the parameters before any lookup: oproject is required, the target
// name must be valid and differ from the origin, and withbinaries is Admin's.
func copyOptionsAllowed(who buildstore.Person, req CopyProjectRequest) error {
	switch {
	case req.OProject == "":
		return BadRequest("missing_parameter", "cmd=copy needs an oproject parameter: the project to copy from")
	case !buildstore.ValidProjectName(req.Project):
		return BadRequest("invalid_project_name", "invalid project name '%s'", req.Project)
	case req.OProject == req.Project:
		return BadRequest("illegal_request", "cannot copy project '%s' onto itself", req.Project)
	case req.WithBinaries && !who.IsAdmin():
		return Forbidden("project_copy_no_permission", "no permission to copy project with binaries for non admins")
	}
	return nil
}

// copyTarget reads the target project: an existing one needs a maintainer, a missing one the
// right to create it (403 cmd_execution_no_permission either way, as the service answers).
func copyTarget(tx kv.Tx, who buildstore.Person, name string) (buildstore.Project, bool, error) {
	p, err := buildstore.GetProject(tx, name)
	switch {
	case err == nil && !Maintains(tx, who, p.Persons, p.Groups):
		return p, true, Forbidden("cmd_execution_no_permission", "no permission to execute command 'copy': project '%s' needs a maintainer", name)
	case err == nil:
		return p, true, nil
	case !MayCreateProject(tx, who, name):
		return p, false, Forbidden("cmd_execution_no_permission", "no permission to execute command 'copy': not allowed to create project '%s'", name)
	}
	return p, false, nil
}

// copiedProject is the new target project made from the origin's meta.
func copiedProject(src buildstore.Project, name string, who buildstore.Person, now time.Time) buildstore.Project {
	p := buildstore.Project{Name: name, Kind: src.Kind, Title: src.Title, Description: src.Description,
		Links: slices.Clone(src.Links), URL: src.URL, Devel: src.Devel, Persons: slices.Clone(src.Persons),
		Groups: slices.Clone(src.Groups), Flags: slices.Clone(src.Flags), Config: src.Config, Created: now}
	for _, r := range src.Repositories {
		r.Paths, r.Archs = slices.Clone(r.Paths), slices.Clone(r.Archs)
		p.Repositories = append(p.Repositories, r)
	}
	if !slices.Contains(p.Persons, buildstore.Role{ID: who.Login, Role: buildstore.RoleMaintainer}) {
		p.Persons = append(p.Persons, buildstore.Role{ID: who.Login, Role: buildstore.RoleMaintainer})
	}
	return p
}

// copyPackageSources creates origin package k in project when missing (its meta, unlocked; a
// tombstone there is replaced with a fresh history) and commits k's newest tree, or its whole
// history, there; with MakeOlder the last copied revision gets the origin's vrev + 1 and the
// origin a new revision with vrev + 2 (makeOlder).
func copyPackageSources(tx kv.Tx, k buildstore.Package, project, user string, req CopyProjectRequest, now time.Time) error {
	if _, err := buildstore.GetPackage(tx, project, k.Name); err != nil {
		meta := k
		meta.Project, meta.Created, meta.Locked = project, now, false
		meta.Persons, meta.Groups, meta.Flags = slices.Clone(k.Persons), slices.Clone(k.Groups), slices.Clone(k.Flags)
		if err := buildstore.PutPackage(tx, meta); err != nil {
			return err
		}
	}
	last, ok, err := buildstore.LatestRevision(tx, k.Project, k.Name)
	if err != nil || !ok {
		return err
	}
	var vrev uint64
	if req.MakeOlder {
		vrev = last.VRev + 1
	}
	if req.WithHistory {
		history, err := buildstore.Revisions(tx, k.Project, k.Name)
		if err != nil {
			return err
		}
		for i, r := range history {
			opts := CommitOptions{Comment: r.Comment}
			if i == len(history)-1 {
				opts.VRev = vrev
			}
			if _, err := CommitTree(tx, project, k.Name, r.Files, r.User, time.Unix(r.Time, 0), opts); err != nil {
				return err
			}
		}
	} else if _, err := CommitTree(tx, project, k.Name, last.Files, user, now, CommitOptions{Comment: req.Comment, VRev: vrev}); err != nil {
		return err
	}
	if !req.MakeOlder {
		return nil
	}
	_, err = CommitTree(tx, k.Project, k.Name, last.Files, user, now, CommitOptions{Comment: "makeolder: copied to " + project, VRev: last.VRev + 2})
	return err
}
