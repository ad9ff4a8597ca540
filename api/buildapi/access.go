package buildapi

import (
	"net/http"
	"slices"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Read protection, as the project and package metas declare it:
//   - <access><disable/></access> on a project hides it from everyone who holds no role in it
//     (any role: maintainer, bugowner, reviewer, downloader, reader — directly or through a
//     group): the project answers 404 like a missing one and leaves the listings;
//   - <sourceaccess><disable/></sourceaccess> on a project or package keeps the meta visible
//     but refuses the sources (listings, files, history, diffs, copies, branches, expansion
//     through a link) to non-members with 403 source_access_no_permission.
// Admin sees everything. These are simple flags: entries with a repository or architecture do
// not count, and a disable wins over an enable, as for every flag.

// flagState is a simple flag's value in one record: set reports whether it says anything.
func flagState(flags []buildstore.Flag, name string) (set, enabled bool) {
	enabled = true
	for _, f := range flags {
		if f.Name != name || f.Repository != "" || f.Arch != "" {
			continue
		}
		set = true
		if f.Status == "disable" {
			enabled = false
		}
	}
	return set, enabled
}

// member reports whether who holds any role in a record with these roles.
func member(tx *bbolt.Tx, who buildstore.Person, persons, groups []buildstore.Role) bool {
	if who.IsAdmin() || slices.ContainsFunc(persons, func(r buildstore.Role) bool { return r.ID == who.Login }) {
		return true
	}
	for _, r := range groups {
		if g, err := buildstore.GetGroup(tx, r.ID); err == nil && (slices.Contains(g.Members, who.Login) || slices.Contains(g.Maintainers, who.Login)) {
			return true
		}
	}
	return false
}

// hiddenFrom reports whether project p is hidden from who.
func hiddenFrom(tx *bbolt.Tx, who buildstore.Person, p buildstore.Project) bool {
	if _, enabled := flagState(p.Flags, "access"); enabled {
		return false
	}
	return !member(tx, who, p.Persons, p.Groups)
}

// guardProject answers 404 for a request naming a project hidden from the person; it runs
// inside authenticated, so every route with a :project parameter is guarded in one place.
func (a *api) guardProject(c *fiber.Ctx, who buildstore.Person) error {
	name := pathParam(c, "project")
	if name == "" || who.IsAdmin() {
		return nil
	}
	return a.Store.View(func(tx *bbolt.Tx) error {
		p, err := buildstore.GetProject(tx, name)
		if err != nil || !hiddenFrom(tx, who, p) {
			return nil // a missing project is the handler's 404
		}
		return notFoundAs(store.NotFoundf("Project not found: %s", name), "unknown_project")
	})
}

// sourcesReadable checks who may read the sources of project/pkg: the package's sourceaccess
// flag decides when it has one, else the project's; members of the package or the project
// may always read.
func sourcesReadable(tx *bbolt.Tx, who buildstore.Person, project, pkg string) error {
	if who.IsAdmin() {
		return nil
	}
	p, err := buildstore.GetProject(tx, project)
	if err != nil {
		return nil // the caller's lookup answers the 404
	}
	k, _ := buildstore.GetPackage(tx, project, pkg)
	enabled := true
	if set, on := flagState(k.Flags, "sourceaccess"); set {
		enabled = on
	} else if _, on := flagState(p.Flags, "sourceaccess"); !on {
		enabled = false
	}
	if enabled || member(tx, who, p.Persons, p.Groups) || member(tx, who, k.Persons, k.Groups) {
		return nil
	}
	return &kit.Error{Status: http.StatusForbidden, Code: "source_access_no_permission",
		Reason: "source access to package '" + pkg + "' in project '" + project + "' is not allowed"}
}

// readView is resolveView for a read by who: the package's sources must be readable to who,
// and for an expanded link the target's too (an expansion shows the target's files).
func readView(tx *bbolt.Tx, who buildstore.Person, project, pkg, rev string, expand bool, linkrev string) (sourceView, error) {
	if err := sourcesReadable(tx, who, project, pkg); err != nil {
		return sourceView{}, err
	}
	v, err := resolveView(tx, project, pkg, rev, expand, linkrev)
	if err != nil || v.link == nil || !v.expanded {
		return v, err
	}
	if err := sourcesReadable(tx, who, v.link.Project, v.link.Package); err != nil {
		return sourceView{}, err
	}
	if p, err := buildstore.GetProject(tx, v.link.Project); err == nil && hiddenFrom(tx, who, p) {
		return sourceView{}, notFoundAs(store.NotFoundf("Project not found: %s", v.link.Project), "unknown_project")
	}
	return v, nil
}
