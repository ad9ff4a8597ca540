package attributes

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The rules of attributes, as the 2.7-era service has them: who may change a namespace's
// definitions (can_modify_attribute_definition?), who may set a value on a container
// (can_create_attribute_in?), what a modifiable_by rule may say and what values a definition
// takes (HasAttributes#check_attrib!).

// checkRules: every rule names someone (a rule of nobody is an error, not "everybody"), a
// namespace's rules name no role, roles are local roles, and persons and groups exist (a
// missing one is the service's 404 not_found, "Couldn't find User with login = x").
func checkRules(tx kv.Tx, kind string, rules []buildstore.ModifiableBy, roles bool) error {
	for _, r := range rules {
		if r.User == "" && r.Group == "" && r.Role == "" {
			return buildsvc.Invalid(kind, "modifiable_by element has no valid rules set")
		}
		if r.Role != "" && !roles {
			return buildsvc.Invalid(kind, "modifiable_by of a namespace takes user and group, not role")
		}
		if r.Role != "" && !slices.Contains(buildstore.Roles, r.Role) {
			return buildsvc.Invalid(kind, "unknown role '%s' (one of %s)", r.Role, strings.Join(buildstore.Roles, ", "))
		}
		if r.User != "" {
			if _, err := buildstore.GetPerson(tx, r.User); err != nil {
				return err
			}
		}
		if r.Group != "" {
			if _, err := buildstore.GetGroup(tx, r.Group); err != nil {
				return err
			}
		}
	}
	return nil
}

// inGroup reports whether login belongs to the group title: a member or one of its
// maintainers, the same reading as Maintains, so a rule "role maintainer" and the maintainer
// check never disagree about a group.
func inGroup(tx kv.Tx, login, title string) bool {
	g, err := buildstore.GetGroup(tx, title)
	return err == nil && (slices.Contains(g.Members, login) || slices.Contains(g.Maintainers, login))
}

// mayChangeDefinitions: Admin, or a person the namespace's rules name (directly or through a
// group), as the service's can_modify_attribute_definition? has it.
func mayChangeDefinitions(tx kv.Tx, who buildstore.Person, ns buildstore.AttributeNamespace) bool {
	if who.IsAdmin() {
		return true
	}
	for _, r := range ns.ModifiableBy {
		if (r.User != "" && r.User == who.Login) || (r.Group != "" && inGroup(tx, who.Login, r.Group)) {
			return true
		}
	}
	return false
}

// mayChangeAttribute is the 2.7 service's can_create_attribute_in?: Admin always; for a
// definition without modifiable_by rules, the container's maintainers (a package's or its
// project's); otherwise only someone a rule names — every set field of one rule must match:
// the login, a group the person is in, a role the person holds on the package or its project.
// The rules replace the maintainers, so OBS:Maintained (Admin's) stays Admin's.
func mayChangeAttribute(tx kv.Tx, who buildstore.Person, def buildstore.AttributeDefinition, t attributeTarget) bool {
	if who.IsAdmin() {
		return true
	}
	if len(def.ModifiableBy) == 0 {
		return buildsvc.Maintains(tx, who, t.project.Persons, t.project.Groups) ||
			(t.pkg != nil && buildsvc.Maintains(tx, who, t.pkg.Persons, t.pkg.Groups))
	}
	for _, r := range def.ModifiableBy {
		if (r.User != "" && r.User != who.Login) || (r.Group != "" && !inGroup(tx, who.Login, r.Group)) {
			continue
		}
		if r.Role != "" && !hasLocalRole(tx, who.Login, r.Role, t) {
			continue
		}
		return true
	}
	return false
}

// hasLocalRole: the person holds role on the package or its project, directly or through a
// group.
func hasLocalRole(tx kv.Tx, login, role string, t attributeTarget) bool {
	holds := func(persons, groups []buildstore.Role) bool {
		if slices.Contains(persons, buildstore.Role{ID: login, Role: role}) {
			return true
		}
		return slices.ContainsFunc(groups, func(g buildstore.Role) bool { return g.Role == role && inGroup(tx, login, g.ID) })
	}
	return holds(t.project.Persons, t.project.Groups) || (t.pkg != nil && holds(t.pkg.Persons, t.pkg.Groups))
}

// mayChangeValue is mayChangeAttribute with the service's refusal.
func mayChangeValue(tx kv.Tx, who buildstore.Person, def buildstore.AttributeDefinition, t attributeTarget) error {
	if mayChangeAttribute(tx, who, def, t) {
		return nil
	}
	return buildsvc.Forbidden("change_attribute_no_permission", "user %s has no permission to change attribute %s", who.Login, def.FullName())
}

// checkValues applies a definition to an attribute: the exact count, allowed values, issues
// only where the definition takes them, and issues naming an existing tracker.
func checkValues(tx kv.Tx, def buildstore.AttributeDefinition, at buildstore.Attribute) error {
	full := def.FullName()
	if def.Count != nil && len(at.Values) != *def.Count {
		return buildsvc.BadRequest("attribute_save_error", "attribute '%s' has %d values, but only %d are allowed", full, len(at.Values), *def.Count)
	}
	if len(def.Allowed) > 0 {
		for _, v := range at.Values {
			if !slices.Contains(def.Allowed, v) {
				return buildsvc.BadRequest("attribute_save_error", "attribute value %s for '%s' is not allowed. Please use one of: %s",
					v, full, strings.Join(def.Allowed, ", "))
			}
		}
	}
	if len(at.Issues) > 0 && !def.IssueList {
		return buildsvc.BadRequest("attribute_save_error", "attribute '%s' has issue elements which are not allowed in this attribute", full)
	}
	for _, i := range at.Issues {
		if i.Name == "" || i.Tracker == "" {
			return buildsvc.BadRequest("attribute_save_error", "an issue of attribute '%s' needs a name and a tracker", full)
		}
		if _, err := buildstore.GetTracker(tx, i.Tracker); err != nil {
			return err
		}
	}
	return nil
}
