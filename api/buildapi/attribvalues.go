package buildapi

import (
	"encoding/xml"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Attribute values on projects, packages and binaries: GET, POST (PUT) and DELETE on
// /source/P[/K[/B]]/_attribute[/NS:NAME]. The rules and wording are the 2.7-era service's
// (AttributeController#cmd_attribute, HasAttributes#check_attrib!): an unknown definition is
// 404 unknown_attribute_type, a value that breaks the definition 400 attribute_save_error, a
// write the caller may not make 403 change_attribute_no_permission. The comment parameter is
// accepted; attribute changes keep no history here, so it is not stored.

// attributeXML is one attribute (attrib.xsd): its values, then its issues. binary names the
// binary of a package it is set on.
type attributeXML struct {
	XMLName   xml.Name     `xml:"attribute"`
	Name      string       `xml:"name,attr"`
	Namespace string       `xml:"namespace,attr"`
	Binary    string       `xml:"binary,attr,omitempty"`
	Values    []string     `xml:"value"`
	Issues    []issueXML   `xml:"issue"`
	Unknown   []unknownXML `xml:",any"`
}

type issueXML struct {
	Name    string `xml:"name,attr"`
	Tracker string `xml:"tracker,attr"`
}

// attributesXML is the answer of GET …/_attribute and the body of a POST.
type attributesXML struct {
	XMLName    xml.Name       `xml:"attributes"`
	Attributes []attributeXML `xml:"attribute"`
	Unknown    []unknownXML   `xml:",any"`
}

func attributeDoc(at buildstore.Attribute, values []string) attributeXML {
	x := attributeXML{Name: at.Name, Namespace: at.Namespace, Binary: at.Binary, Values: values}
	for _, i := range at.Issues {
		x.Issues = append(x.Issues, issueXML(i))
	}
	return x
}

// parseAttributes reads a POST body: <attributes> with any number of <attribute>, or — unlike
// the service, which silently stores nothing for it — a lone <attribute>, taken as a list of
// one. Any other root is refused rather than ignored.
func parseAttributes(body []byte) ([]attributeXML, error) {
	const kind = "attributes"
	var root struct{ XMLName xml.Name }
	if err := parseMeta(body, &root, kind); err != nil {
		return nil, err
	}
	var list []attributeXML
	switch root.XMLName.Local {
	case "attributes":
		var d attributesXML
		if err := parseMeta(body, &d, kind); err != nil {
			return nil, err
		}
		if err := refuseUnknown(kind, "attributes", d.Unknown); err != nil {
			return nil, err
		}
		list = d.Attributes
	case "attribute":
		var x attributeXML
		if err := parseMeta(body, &x, kind); err != nil {
			return nil, err
		}
		list = []attributeXML{x}
	default:
		return nil, buildsvc.Invalid(kind, "the document must be <attributes> (or one <attribute>), not <%s>", root.XMLName.Local)
	}
	for _, x := range list {
		if err := refuseUnknown(kind, "attribute", x.Unknown); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// attribRoute is what a …/_attribute URL names; package "_project" is the project itself, as
// in the service. A binary comes from the path, or from ?binary= on a package route.
type attribRoute struct {
	project, pkg, binary, attribute string
}

func attribRouteOf(c *fiber.Ctx) attribRoute {
	r := attribRoute{project: pathParam(c, "project"), pkg: pathParam(c, "package"), binary: pathParam(c, "binary"),
		attribute: pathParam(c, "attribute")}
	if r.pkg == "_project" {
		r.pkg = ""
	}
	if r.binary == "" && r.pkg != "" {
		r.binary = c.Query("binary")
	}
	return r
}

// attribTarget is the container a route resolved to.
type attribTarget struct {
	project buildstore.Project
	pkg     *buildstore.Package // nil: the project's own attributes
}

func (t attribTarget) pkgName() string {
	if t.pkg == nil {
		return ""
	}
	return t.pkg.Name
}

// locked: a locked project locks its packages too.
func (t attribTarget) locked() bool { return t.project.Locked || (t.pkg != nil && t.pkg.Locked) }

// resolve reads the container (unknown_project, unknown_package), checks the binary, and reads
// the definition the URL names, if any (invalid_attribute, unknown_attribute_type).
func (r attribRoute) resolve(tx *bbolt.Tx) (attribTarget, *buildstore.AttributeDefinition, error) {
	var t attribTarget
	if r.pkg == "" {
		p, err := buildstore.GetProject(tx, r.project)
		if err != nil {
			return t, nil, buildsvc.NotFoundAs(err, "unknown_project")
		}
		t.project = p
	} else {
		p, k, err := buildsvc.LookupPackage(tx, r.project, r.pkg)
		if err != nil {
			return t, nil, err
		}
		t.project, t.pkg = p, &k
	}
	if err := checkBinary(t, r.binary); err != nil {
		return t, nil, err
	}
	if r.attribute == "" {
		return t, nil, nil
	}
	ns, name, err := splitAttribute(r.attribute)
	if err != nil {
		return t, nil, err
	}
	d, err := buildstore.GetAttributeDefinition(tx, ns, name)
	if err != nil {
		return t, nil, buildsvc.NotFoundAs(err, "unknown_attribute_type")
	}
	return t, &d, nil
}

// checkBinary: binaries belong to packages, and their names are file names.
func checkBinary(t attribTarget, binary string) error {
	if binary == "" {
		return nil
	}
	if t.pkg == nil {
		return buildsvc.BadRequest("attribute_save_error", "binary packages are not allowed in project attributes")
	}
	if !buildstore.ValidBinaryName(binary) {
		return buildsvc.BadRequest("invalid_binary_name", "invalid binary name '%s'", binary)
	}
	return nil
}

// splitAttribute splits "NAMESPACE:NAME".
func splitAttribute(s string) (namespace, name string, err error) {
	parts := strings.Split(s, ":")
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return "", "", buildsvc.BadRequest("invalid_attribute", "attribute '%s' must be in the $NAMESPACE:$NAME style", s)
	}
	return parts[0], parts[1], nil
}

// queryFlag reads a boolean query parameter the way osc sends them (with_default=1).
func queryFlag(c *fiber.Ctx, key string) bool {
	v := c.Query(key)
	return v != "" && v != "0" && v != "false"
}

// getAttributes lists a container's attributes: a project's own; a package's own and its
// binaries' (only one binary's on a binary route or with ?binary=), plus the project's with
// with_project=1; only the URL's attribute when one is named. with_default=1 shows the
// definition's default values for an attribute set without values.
func (a *api) getAttributes(c *fiber.Ctx) error {
	r := attribRouteOf(c)
	withDefault, withProject := queryFlag(c, "with_default"), queryFlag(c, "with_project")
	doc := attributesXML{}
	err := a.Store.View(func(tx *bbolt.Tx) error {
		t, def, err := r.resolve(tx)
		if err != nil {
			return err
		}
		list, err := buildstore.Attributes(tx, t.project.Name, t.pkgName())
		if err != nil {
			return err
		}
		if withProject && t.pkg != nil {
			own, err := buildstore.Attributes(tx, t.project.Name, "")
			if err != nil {
				return err
			}
			list = append(list, own...)
		}
		for _, at := range list {
			if (def != nil && (at.Namespace != def.Namespace || at.Name != def.Name)) || (r.binary != "" && at.Binary != r.binary) {
				continue
			}
			values := at.Values
			if len(values) == 0 && withDefault {
				if d, err := buildstore.GetAttributeDefinition(tx, at.Namespace, at.Name); err == nil {
					values = d.Default
				}
			}
			doc.Attributes = append(doc.Attributes, attributeDoc(at, values))
		}
		return nil
	})
	if err != nil {
		return err
	}
	return sendXML(c, doc)
}

// mayChangeAttribute is the 2.7 service's can_create_attribute_in?: Admin always; for a
// definition without modifiable_by rules, the container's maintainers (a package's or its
// project's); otherwise only someone a rule names — every set field of one rule must match:
// the login, a group the person is in, a role the person holds on the package or its project.
// The rules replace the maintainers, so OBS:Maintained (Admin's) stays Admin's.
func mayChangeAttribute(tx *bbolt.Tx, who buildstore.Person, def buildstore.AttributeDefinition, t attribTarget) bool {
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
func hasLocalRole(tx *bbolt.Tx, login, role string, t attribTarget) bool {
	holds := func(persons, groups []buildstore.Role) bool {
		if slices.Contains(persons, buildstore.Role{ID: login, Role: role}) {
			return true
		}
		return slices.ContainsFunc(groups, func(g buildstore.Role) bool { return g.Role == role && inGroup(tx, login, g.ID) })
	}
	return holds(t.project.Persons, t.project.Groups) || (t.pkg != nil && holds(t.pkg.Persons, t.pkg.Groups))
}

func noAttributePermission(who buildstore.Person, def buildstore.AttributeDefinition) error {
	return buildsvc.Forbidden("change_attribute_no_permission", "user %s has no permission to change attribute %s", who.Login, def.FullName())
}

// checkValues applies a definition to an attribute: the exact count, allowed values, issues
// only where the definition takes them, and issues naming an existing tracker.
func checkValues(tx *bbolt.Tx, def buildstore.AttributeDefinition, at buildstore.Attribute) error {
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

// bodyBinary picks the binary an attribute of a POST goes to: the URL's; else the document's
// binary attribute (packages only). A document naming another binary than the URL is refused.
func bodyBinary(r attribRoute, t attribTarget, x attributeXML) (string, error) {
	if x.Binary == "" || x.Binary == r.binary {
		return r.binary, nil
	}
	if r.binary != "" {
		return "", buildsvc.BadRequest("illegal_request", "binary in xml data ('%s') does not match resource path component ('%s')", x.Binary, r.binary)
	}
	return x.Binary, checkBinary(t, x.Binary)
}

// postAttributes sets the attributes of the document (replacing their values and issues; the
// others stay). Everything is checked before anything is written, so a document is stored
// whole or not at all: every definition exists and may be set by the caller, the container is
// not locked, every value fits its definition.
func (a *api) postAttributes(c *fiber.Ctx) error {
	r, who := attribRouteOf(c), personOf(c)
	if err := checkDocSize(c); err != nil {
		return err
	}
	docs, perr := parseAttributes(c.Body())
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		t, _, err := r.resolve(tx)
		if err != nil {
			return err
		}
		if perr != nil {
			return perr
		}
		attrs, defs := make([]buildstore.Attribute, 0, len(docs)), make([]buildstore.AttributeDefinition, 0, len(docs))
		for _, x := range docs {
			if x.Namespace == "" || x.Name == "" {
				return buildsvc.BadRequest("change_attribute_attribute_error", "Need namespace and name as parameters")
			}
			def, err := buildstore.GetAttributeDefinition(tx, x.Namespace, x.Name)
			if err != nil {
				return buildsvc.NotFoundAs(err, "unknown_attribute_type")
			}
			if !mayChangeAttribute(tx, who, def, t) {
				return noAttributePermission(who, def)
			}
			binary, err := bodyBinary(r, t, x)
			if err != nil {
				return err
			}
			at := buildstore.Attribute{Project: t.project.Name, Package: t.pkgName(), Binary: binary, Namespace: def.Namespace,
				Name: def.Name, Values: x.Values}
			for _, i := range x.Issues {
				if is := buildstore.AttributeIssue(i); !slices.Contains(at.Issues, is) {
					at.Issues = append(at.Issues, is)
				}
			}
			attrs, defs = append(attrs, at), append(defs, def)
		}
		if len(attrs) > 0 && t.locked() {
			return buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		for i, at := range attrs {
			if err := checkValues(tx, defs[i], at); err != nil {
				return err
			}
		}
		for _, at := range attrs {
			if err := buildstore.PutAttribute(tx, at); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// deleteAttribute removes the URL's attribute from the container (a package's own, or the
// route's binary's).
func (a *api) deleteAttribute(c *fiber.Ctx) error {
	r, who := attribRouteOf(c), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		t, def, err := r.resolve(tx)
		if err != nil {
			return err
		}
		if def == nil {
			return buildsvc.BadRequest("missing_attribute", "No attribute got specified for delete")
		}
		if _, err := buildstore.GetAttribute(tx, t.project.Name, t.pkgName(), r.binary, def.Namespace, def.Name); err != nil {
			return buildsvc.NotFoundAs(err, "not_found")
		}
		if !mayChangeAttribute(tx, who, *def, t) {
			return noAttributePermission(who, *def)
		}
		if t.locked() {
			return buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		return buildstore.DeleteAttribute(tx, t.project.Name, t.pkgName(), r.binary, def.Namespace, def.Name)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
