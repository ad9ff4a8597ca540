package buildsvc

import (
	"slices"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// A project's meta: read (also of a deleted project), create or replace, and delete.

// ProjectMeta reads the project's record; with deleted, the record of a deleted project who may
// restore (404 unknown_project otherwise). The record shows the project as it is or was, never
// as deleted.
func (s *Service) ProjectMeta(who buildstore.Person, name string, deleted bool) (p buildstore.Project, err error) {
	err = s.db.View(func(tx kv.Tx) (err error) {
		if deleted {
			p, err = deletedProjectFor(tx, who, name)
			return err
		}
		p, err = buildstore.GetProject(tx, name)
		return NotFoundAs(err, "unknown_project")
	})
	p.Deleted = false
	return p, err
}

// PutProjectMeta creates or replaces the project d names, for who: a maintainer changes an
// existing project, a new one needs MayCreateProject, and a locked project refuses either.
// The content rules follow (CheckProject, then links and devel). A new project gets its
// creator as maintainer when the document leaves them out; an existing one keeps its creation
// time and build configuration. A project created where a deleted one is kept starts afresh
// (buildstore.PutProject drops the deleted one's packages, key and patterns).
func (s *Service) PutProjectMeta(who buildstore.Person, d metadoc.Project) error {
	rec, now := d.Record(), s.clk.Now()
	name := rec.Name
	return s.db.Write(func(tx kv.Tx) error {
		p := rec // the transaction may run twice
		old, err := buildstore.GetProject(tx, name)
		switch {
		case err == nil && !Maintains(tx, who, old.Persons, old.Groups):
			return Forbidden("change_project_no_permission", "no permission to change project '%s': it needs a maintainer of the project", name)
		case err != nil && !MayCreateProject(tx, who, name):
			return Forbidden("create_project_no_permission", "not allowed to create new project '%s': only an administrator creates top-level projects; you may create home:%s and projects below it", name, who.Login)
		}
		if old.Locked {
			return Forbidden("project_locked", "The target project is locked")
		}
		if err := CheckProject(tx, p); err != nil {
			return err
		}
		if d.DevelWithoutProject() {
			return Invalid("project", "<devel> needs a project attribute")
		}
		if err := checkProjectRefs(tx, who, p); err != nil {
			return err
		}
		p.Created, p.Config = old.Created, old.Config
		if err == nil {
			if err := touchProject(tx, name, now); err != nil { // latest_updated (statistics.go)
				return err
			}
		} else {
			p.Created = now
			maintainer := buildstore.Role{ID: who.Login, Role: buildstore.RoleMaintainer}
			if !slices.Contains(p.Persons, maintainer) {
				p.Persons = append(slices.Clone(p.Persons), maintainer)
			}
		}
		return buildstore.PutProject(tx, p)
	})
}

// checkProjectRefs checks what a project meta names besides repositories: each link needs an
// existing project other than itself and a known vrevmode; the devel project must exist, not
// be the project itself, and not lead back to it. The wording is the service's. A project
// hidden from who counts as missing, so a meta cannot probe whether one exists.
func checkProjectRefs(tx kv.Tx, who buildstore.Person, p buildstore.Project) error {
	for _, l := range p.Links {
		switch {
		case l.Project == "":
			return Invalid("project", "<link> needs a project attribute")
		case l.VRevMode != "" && l.VRevMode != "extend" && l.VRevMode != "unextend":
			return Invalid("project", "link vrevmode must be 'extend' or 'unextend', not '%s'", l.VRevMode)
		case l.Project == p.Name:
			return Invalid("project", "unable to link against myself")
		}
		if lp, err := buildstore.GetProject(tx, l.Project); err != nil || HiddenFrom(tx, who, lp) {
			return Invalid("project", "unable to link against project '%s'", l.Project)
		}
	}
	if p.Devel == "" {
		return nil
	}
	if p.Devel == p.Name {
		return Invalid("project", "Devel project can not point to itself")
	}
	seen := map[string]bool{p.Name: true}
	for next := p.Devel; next != ""; {
		dp, err := buildstore.GetProject(tx, next)
		if err == nil && next == p.Devel && HiddenFrom(tx, who, dp) {
			err = store.ErrNotFound
		}
		if err != nil {
			if next == p.Devel {
				return Invalid("project", "value of develproject has to be a existing project (project '%s' does not exist)", next)
			}
			return nil
		}
		if seen[next] || dp.Devel == p.Name {
			return BadRequest("devel_cycle", "There is a cycle in devel definition at %s -- %s", p.Name, next)
		}
		seen[next] = true
		next = dp.Devel
	}
	return nil
}

// DeleteProject deletes a project and its packages for who (a maintainer, or Admin), keeping
// them as tombstones for an undelete. When other projects' repositories build against it, only
// force goes ahead (their paths then point at deleted/standard). A locked project is not
// deleted (unlock it first), as a locked project refuses every write.
func (s *Service) DeleteProject(who buildstore.Person, name string, force bool) error {
	return s.db.Write(func(tx kv.Tx) error {
		_, err := ProjectOfMaintainer(tx, who, name, true, Forbidden("delete_project_no_permission", "no permission to delete project '%s'", name))
		if err != nil {
			return err
		}
		deps, err := buildstore.DependentPaths(tx, name)
		if err != nil {
			return err
		}
		if len(deps) > 0 && !force {
			return BadRequest("repo_dependency", "Unable to delete project %s; following repositories depend on this project: %v (use force=1)", name, deps)
		}
		return buildstore.DeleteProject(tx, name)
	})
}
