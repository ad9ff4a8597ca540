package search

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The owner searches (/search/owner, /search/missing_owner; seed "Search" and "Limits"), as
// OBS's owner search answers them (OwnerSearch::Assignee, ::Owned, ::Missing): who is
// responsible for a binary, where a person or group holds the responsible roles, and which
// packages have nobody. They are not xpath searches: they start at root projects — the one
// `project` names, else every project carrying the attribute (OBS:OwnerRootProject) — and look
// at each root and, after it, the projects it links to (depth first, in link order).
//
// Per root, `filter` (the roles that make an owner, default maintainer and bugowner, or
// bugowner alone when the root's attribute has the value BugownerOnly) and `devel` (follow
// devel packages, default true unless the attribute has DisableDevel) apply. A person counts
// only while confirmed; a group only while one of its members is a confirmed person.
//
// Simplified, where OBS's own code disagrees with what it documents: `limit` N returns at most
// N owners (OBS counts each hit twice and stops after N/2); -1 returns the last match, the one
// deepest in the link order. Left out: OBS's later project/package container lookup
// (project= and package= without binary, user or group: this service asks for one of the
// three, as the seed does), and incident containers of maintenance release projects count as
// owned as a whole (OBS looks at their package kinds). Roots and projects hidden from the
// caller are skipped, as if they did not exist.

// OwnerAttribute is the attribute that marks the default root projects of an owner search.
const OwnerAttribute = "OBS:OwnerRootProject"

// OwnerQuery is the parameters of /search/owner and /search/missing_owner, as the request
// gave them ("" for a parameter it left out).
type OwnerQuery struct {
	// Binary, User and Group say what to look for (/search/owner needs one; the first given
	// wins in that order).
	Binary, User, Group string
	// Devel is "0" or "false" not to follow devel packages; any other value follows them; ""
	// takes the root's attribute's word (DisableDevel).
	Devel string
	// Limit is the number of owners a binary search returns: "" is 1, 0 all, -1 the deepest.
	Limit string
	// Project is the root project; "" means every project carrying Attribute.
	Project string
	// Filter is the comma-separated roles that make an owner; nil takes the default, an empty
	// list (filter= given empty) no role at all: a binary search then names the package that
	// built it.
	Filter *string
	// Attribute marks the default root projects; "" is OwnerAttribute.
	Attribute string
}

// Owner is one entry of an owner search's answer: where the owners were found (Package ""
// when they are the project's) and, in the order OBS renders them, who they are.
type Owner struct {
	RootProject, Project, Package string
	Holders                       []OwnerHolder
}

// OwnerHolder is one person or group holding a role in an Owner's container.
type OwnerHolder struct {
	Group bool // a group's title in Name; else a person's login
	Name  string
	Role  string
}

// ownerRoot is one root project of a search with the rules its attribute sets.
type ownerRoot struct {
	project  buildstore.Project
	filter   []string
	devel    bool
	projects []buildstore.Project // the root and the projects it links to, visible to who
}

// ownerLimit reads limit: "" is def; anything else must be an integer of at least -1.
func ownerLimit(s string, def int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < -1 {
		return 0, buildsvc.BadRequest("invalid_limit", "The limit (%s) must be either a positive number, 0 or -1.", s)
	}
	return n, nil
}

// ownerRoots resolves q's root projects with their rules: the attribute must exist (404
// unknown_attribute_type), a named project too (404 unknown_project, also when hidden from
// who), and without one some project must carry the attribute (400 attribute_not_set); a
// filter must name roles only (404 not_found, OBS's answer for an unknown role).
func ownerRoots(tx kv.Tx, who buildstore.Person, q OwnerQuery) ([]ownerRoot, error) {
	attr := q.Attribute
	if attr == "" {
		attr = OwnerAttribute
	}
	ns, name, err := buildsvc.SplitAttribute(attr)
	if err != nil {
		return nil, err
	}
	if _, err := buildstore.GetAttributeDefinition(tx, ns, name); err != nil {
		return nil, fault.NotFound("unknown_attribute_type", "Attribute Type %s does not exist", attr)
	}
	var projects []buildstore.Project
	if q.Project != "" {
		p, err := buildstore.GetProject(tx, q.Project)
		if err != nil || buildsvc.HiddenFrom(tx, who, p) {
			return nil, buildsvc.ProjectNotFound(q.Project)
		}
		projects = append(projects, p)
	} else {
		all, err := buildstore.Projects(tx)
		if err != nil {
			return nil, err
		}
		for _, p := range all {
			if _, err := buildstore.GetAttribute(tx, p.Name, "", "", ns, name); err == nil && !buildsvc.HiddenFrom(tx, who, p) {
				projects = append(projects, p)
			}
		}
		if len(projects) == 0 {
			return nil, buildsvc.BadRequest("attribute_not_set", "The attribute type %s is not set on any projects. No default projects defined.", attr)
		}
	}
	var roots []ownerRoot
	for _, p := range projects {
		var values []string
		if a, err := buildstore.GetAttribute(tx, p.Name, "", "", ns, name); err == nil {
			values = a.Values
		}
		r := ownerRoot{project: p, filter: []string{"maintainer", "bugowner"}, devel: !slices.Contains(values, "DisableDevel")}
		if q.Filter != nil {
			r.filter = []string{}
			for _, role := range strings.Split(*q.Filter, ",") {
				if *q.Filter == "" {
					break
				}
				if !slices.Contains(buildstore.Roles, role) {
					return nil, fault.NotFound("not_found", "Couldn't find Role '%s'", role)
				}
				r.filter = append(r.filter, role)
			}
		} else if slices.Contains(values, "BugownerOnly") {
			r.filter = []string{"bugowner"}
		}
		if q.Devel != "" {
			r.devel = q.Devel != "0" && q.Devel != "false"
		}
		r.projects = expandedProjects(tx, who, p)
		roots = append(roots, r)
	}
	return roots, nil
}

// expandedProjects is root and the projects it links to, depth first in link order, each
// once; a missing project, or one hidden from who, is left out with what it links to.
func expandedProjects(tx kv.Tx, who buildstore.Person, root buildstore.Project) []buildstore.Project {
	var out []buildstore.Project
	seen := map[string]bool{}
	var walk func(p buildstore.Project)
	walk = func(p buildstore.Project) {
		seen[p.Name] = true
		out = append(out, p)
		for _, l := range p.Links {
			if seen[l.Project] {
				continue
			}
			if next, err := buildstore.GetProject(tx, l.Project); err == nil && !buildsvc.HiddenFrom(tx, who, next) {
				walk(next)
			} else {
				seen[l.Project] = true
			}
		}
	}
	walk(root)
	return out
}

// roleHolders lists who of persons and groups holds a role of filter, in OBS's order: role by
// role as they first appear (persons' roles before groups'), each role's persons before its
// groups. A person counts while confirmed, a group while a member is.
func roleHolders(tx kv.Tx, persons, groups []buildstore.Role, filter []string) []OwnerHolder {
	var found []OwnerHolder
	for _, r := range persons {
		if slices.Contains(filter, r.Role) && confirmed(tx, r.ID) {
			found = append(found, OwnerHolder{Name: r.ID, Role: r.Role})
		}
	}
	for _, r := range groups {
		if slices.Contains(filter, r.Role) && groupActive(tx, r.ID) {
			found = append(found, OwnerHolder{Group: true, Name: r.ID, Role: r.Role})
		}
	}
	var roles []string
	for _, h := range found {
		if !slices.Contains(roles, h.Role) {
			roles = append(roles, h.Role)
		}
	}
	out := make([]OwnerHolder, 0, len(found))
	for _, role := range roles {
		for _, g := range []bool{false, true} {
			for _, h := range found {
				if h.Role == role && h.Group == g {
					out = append(out, h)
				}
			}
		}
	}
	return out
}

// confirmed reports whether login is a confirmed person.
func confirmed(tx kv.Tx, login string) bool {
	p, err := buildstore.GetPerson(tx, login)
	return err == nil && p.State == buildstore.StateConfirmed
}

// groupActive reports whether the group has a confirmed member.
func groupActive(tx kv.Tx, title string) bool {
	g, err := buildstore.GetGroup(tx, title)
	return err == nil && slices.ContainsFunc(g.Members, func(m string) bool { return confirmed(tx, m) })
}

// SearchOwners answers /search/owner: for a binary, the owners of the packages that built it
// (see search_owner_binary.go); for a user or group, where it holds a role of the filter. A
// query naming none of the three is 400 no_binary; an unknown user or group 404 not_found.
func (s *Service) SearchOwners(who buildstore.Person, q OwnerQuery) ([]Owner, error) {
	if q.Binary == "" && q.User == "" && q.Group == "" {
		return nil, buildsvc.BadRequest("no_binary", "The search needs at least a 'binary' or 'user' parameter")
	}
	limit, err := ownerLimit(q.Limit, 1)
	if err != nil {
		return nil, err
	}
	var out []Owner
	err = s.db.View(func(tx kv.Tx) error {
		holder := ""
		switch {
		case q.Binary != "":
		case q.User != "":
			p, err := buildstore.GetPerson(tx, q.User)
			if err != nil || p.State == buildstore.StateDeleted {
				return fault.NotFound("not_found", "Couldn't find User with login = %s", q.User)
			}
			holder = p.Login
		default:
			g, err := buildstore.GetGroup(tx, q.Group)
			if err != nil {
				return fault.NotFound("not_found", "Couldn't find Group '%s'", q.Group)
			}
			holder = buildstore.GroupHolder(g.Title)
		}
		roots, err := ownerRoots(tx, who, q)
		if err != nil {
			return err
		}
		for _, r := range roots {
			var found []Owner
			if q.Binary != "" {
				found, err = binaryOwners(tx, who, r, q.Binary, limit)
			} else {
				found, err = ownedPlaces(tx, r, holder)
			}
			if err != nil {
				return err
			}
			out = append(out, found...)
		}
		return nil
	})
	return out, err
}

// ownedPlaces are the projects of r (first) and their packages (then) where holder (a login
// or buildstore.GroupHolder) holds a role of r's filter, read from the role index. Owned
// places name no holders, as OBS answers them; devel packages are not followed (OBS neither).
func ownedPlaces(tx kv.Tx, r ownerRoot, holder string) ([]Owner, error) {
	in := map[string]bool{}
	for _, p := range r.projects {
		in[p.Name] = true
	}
	projects := map[string]bool{}
	packages := map[string][]string{}
	for _, role := range r.filter {
		places, err := buildstore.RolePlaces(tx, holder, role)
		if err != nil {
			return nil, err
		}
		for _, pl := range places {
			switch {
			case !in[pl.Project]:
			case pl.Package == "":
				projects[pl.Project] = true
			case !slices.Contains(packages[pl.Project], pl.Package):
				packages[pl.Project] = append(packages[pl.Project], pl.Package)
			}
		}
	}
	var out []Owner
	for _, p := range r.projects {
		if projects[p.Name] {
			out = append(out, Owner{RootProject: r.project.Name, Project: p.Name})
		}
	}
	for _, p := range r.projects {
		names := packages[p.Name]
		slices.Sort(names)
		for _, k := range names {
			out = append(out, Owner{RootProject: r.project.Name, Project: p.Name, Package: k})
		}
	}
	return out, nil
}
