package buildapi

import (
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// The checks a meta PUT goes through, and who may write what. Every rejection carries the
// build service's error code; its summary is a sentence, because osc prints it to the user.

// invalid is a 400 validation_failed for a meta of kind ("project", "package"), worded as the
// service's schema errors are: "project validation error: …".
func invalid(kind, format string, args ...any) error {
	return &kit.Error{Status: http.StatusBadRequest, Code: "validation_failed",
		Reason: kind + " validation error: " + fmt.Sprintf(format, args...)}
}

// forbidden is a 403 with code.
func forbidden(code, format string, args ...any) error {
	return &kit.Error{Status: http.StatusForbidden, Code: code, Reason: fmt.Sprintf(format, args...)}
}

// badRequest is a 400 with code.
func badRequest(code, format string, args ...any) error {
	return &kit.Error{Status: http.StatusBadRequest, Code: code, Reason: fmt.Sprintf(format, args...)}
}

// notFoundAs gives a store not-found error the service's code (unknown_project, …), keeping
// its message; other errors pass unchanged.
func notFoundAs(err error, code string) error {
	if errors.Is(err, store.ErrNotFound) {
		return &kit.Error{Status: http.StatusNotFound, Code: code, Reason: err.Error()}
	}
	return err
}

// parseMeta decodes a meta body. encoding/xml never expands external entities, and osc sends
// the body as application/octet-stream, so the content type is not looked at.
func parseMeta(body []byte, v any, kind string) error {
	if len(strings.TrimSpace(string(body))) == 0 {
		return invalid(kind, "Document is empty")
	}
	if err := xml.Unmarshal(body, v); err != nil {
		return invalid(kind, "%v", err)
	}
	return nil
}

// checkRoles: known roles, existing persons and groups.
func checkRoles(tx *bbolt.Tx, kind string, persons, groups []buildstore.Role) error {
	for _, r := range append(append([]buildstore.Role(nil), persons...), groups...) {
		if !slices.Contains(buildstore.Roles, r.Role) {
			return invalid(kind, "unknown role '%s' (one of %s)", r.Role, strings.Join(buildstore.Roles, ", "))
		}
	}
	for _, r := range persons {
		if _, err := buildstore.GetPerson(tx, r.ID); err != nil {
			return invalid(kind, "%v", err)
		}
	}
	for _, r := range groups {
		if _, err := buildstore.GetGroup(tx, r.ID); err != nil {
			return invalid(kind, "%v", err)
		}
	}
	return nil
}

// checkFlags: enable or disable, and a known architecture when one is named.
func checkFlags(kind string, flags []buildstore.Flag) error {
	for _, f := range flags {
		if f.Status != "enable" && f.Status != "disable" {
			return invalid(kind, "<%s> takes <enable/> and <disable/>, not <%s/>", f.Name, f.Status)
		}
		if f.Arch != "" && !slices.Contains(Architectures, f.Arch) {
			return invalid(kind, "unknown architecture '%s'", f.Arch)
		}
	}
	return nil
}

// checkRepositories: named, unique, known architectures, and every path names an existing
// repository (of another project, or of this very document).
func checkRepositories(tx *bbolt.Tx, p buildstore.Project) error {
	seen := map[string]bool{}
	for _, r := range p.Repositories {
		if r.Name == "" || seen[r.Name] {
			return invalid("project", "repository names must be present and unique ('%s')", r.Name)
		}
		seen[r.Name] = true
		for _, a := range r.Archs {
			if !slices.Contains(Architectures, a) {
				return invalid("project", "unknown architecture '%s' in repository '%s'", a, r.Name)
			}
		}
		for _, path := range r.Paths {
			target, err := buildstore.GetProject(tx, path.Project)
			if path.Project == p.Name {
				target, err = p, nil
			}
			if _, ok := target.Repository(path.Repository); err != nil || !ok {
				return invalid("project", "unable to walk on path '%s/%s' of repository '%s': no such project repository",
					path.Project, path.Repository, r.Name)
			}
		}
	}
	return nil
}

// checkProject runs every content rule on a project record.
func checkProject(tx *bbolt.Tx, p buildstore.Project) error {
	if err := checkRoles(tx, "project", p.Persons, p.Groups); err != nil {
		return err
	}
	if err := checkFlags("project", p.Flags); err != nil {
		return err
	}
	return checkRepositories(tx, p)
}

// maintains reports whether who may change a record with these roles: Admin, a maintainer, or
// a member of a maintainer group.
func maintains(tx *bbolt.Tx, who buildstore.Person, persons, groups []buildstore.Role) bool {
	if who.IsAdmin() || slices.Contains(persons, buildstore.Role{ID: who.Login, Role: buildstore.RoleMaintainer}) {
		return true
	}
	for _, r := range groups {
		if r.Role != buildstore.RoleMaintainer {
			continue
		}
		if g, err := buildstore.GetGroup(tx, r.ID); err == nil && (slices.Contains(g.Members, who.Login) || slices.Contains(g.Maintainers, who.Login)) {
			return true
		}
	}
	return false
}

// mayCreateProject: Admin creates anything; a person creates home:<login> and below it, and
// below the nearest existing ancestor project it maintains. Top-level projects are Admin's.
func mayCreateProject(tx *bbolt.Tx, who buildstore.Person, name string) bool {
	home := "home:" + who.Login
	if who.IsAdmin() || name == home || strings.HasPrefix(name, home+":") {
		return true
	}
	for parent := name; strings.Contains(parent, ":"); {
		parent = parent[:strings.LastIndex(parent, ":")]
		if p, err := buildstore.GetProject(tx, parent); err == nil {
			return maintains(tx, who, p.Persons, p.Groups)
		}
	}
	return false
}
