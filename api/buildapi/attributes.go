package buildapi

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Attribute namespaces and definitions (/attribute/…), and the routes of attribute values on
// projects, packages and binaries (…/_attribute, attribvalues.go). Codes and messages are
// those of the service's 2.7-era AttributeController: 400 unknown_namespace for listing an
// unknown namespace, 404 unknown_attribute_namespace and unknown_attribute for reading one,
// 400 unknown_attribute_namespace for a definition under a missing namespace, 400
// illegal_request when the document names another namespace or attribute than the URL.

// maxAttributeDoc bounds every attribute document: the largest real one (a definition with a
// long allowed list) is a few kilobytes, so a megabyte is only ever a mistake or an attack.
const maxAttributeDoc = 1 << 20

// bindAttributes registers the attribute routes. Called from Bind before bindSources: fiber
// matches in registration order, and /source/:project/_attribute must win over
// /source/:project/:package, …/:package/_attribute over …/:package/:filename.
func (a *api) bindAttributes(r fiber.Router) {
	a.get(r, "/attribute", a.listAttributeNamespaces) // also /attribute/ (StrictRouting is off)
	a.get(r, "/attribute/:namespace/_meta", a.getAttributeNamespace)
	r.Put("/attribute/:namespace/_meta", a.authenticated, a.putAttributeNamespace)
	r.Post("/attribute/:namespace/_meta", a.authenticated, a.putAttributeNamespace)
	r.Delete("/attribute/:namespace/_meta", a.authenticated, a.deleteAttributeNamespace)
	a.get(r, "/attribute/:namespace", a.listAttributeDefinitions) // also /attribute/NS/
	a.get(r, "/attribute/:namespace/:name/_meta", a.getAttributeDefinition)
	r.Put("/attribute/:namespace/:name/_meta", a.authenticated, a.putAttributeDefinition)
	r.Post("/attribute/:namespace/:name/_meta", a.authenticated, a.putAttributeDefinition)
	r.Delete("/attribute/:namespace/:name/_meta", a.authenticated, a.deleteAttributeDefinition)
	r.Delete("/attribute/:namespace/:name", a.authenticated, a.deleteAttributeDefinition)
	// Values: PUT is taken as POST (newer services route both to one action), and it must be
	// registered here anyway, or PUT …/K/_attribute would store a source file "_attribute".
	for _, base := range []string{"/source/:project", "/source/:project/:package", "/source/:project/:package/:binary"} {
		for _, path := range []string{base + "/_attribute", base + "/_attribute/:attribute"} {
			a.get(r, path, a.getAttributes)
			r.Post(path, a.authenticated, a.postAttributes)
			r.Put(path, a.authenticated, a.postAttributes)
			r.Delete(path, a.authenticated, a.deleteAttribute)
		}
	}
}

// modifiableByXML is one access rule; a namespace's take user and group only.
type modifiableByXML struct {
	User  string `xml:"user,attr,omitempty"`
	Group string `xml:"group,attr,omitempty"`
	Role  string `xml:"role,attr,omitempty"`
}

// unknownXML catches elements a schema does not allow, so they are refused rather than
// silently dropped.
type unknownXML struct {
	XMLName xml.Name
}

// namespaceXML is attribute_namespace_meta: <namespace name=…><modifiable_by …/>*</namespace>.
type namespaceXML struct {
	XMLName      xml.Name          `xml:"namespace"`
	Name         string            `xml:"name,attr"`
	ModifiableBy []modifiableByXML `xml:"modifiable_by"`
	Unknown      []unknownXML      `xml:",any"`
}

// valueListXML is <default> or <allowed>: a list of <value>.
type valueListXML struct {
	Values  []string     `xml:"value"`
	Unknown []unknownXML `xml:",any"`
}

// definitionXML is attrib_type, in the order the service renders it (description, default,
// allowed, count, issue_list, modifiable_by); its schema takes them in any order.
type definitionXML struct {
	XMLName      xml.Name          `xml:"definition"`
	Name         string            `xml:"name,attr"`
	Namespace    string            `xml:"namespace,attr"`
	Description  *string           `xml:"description"`
	Default      *valueListXML     `xml:"default"`
	Allowed      *valueListXML     `xml:"allowed"`
	Count        *string           `xml:"count"`
	IssueList    *struct{}         `xml:"issue_list"`
	ModifiableBy []modifiableByXML `xml:"modifiable_by"`
	Unknown      []unknownXML      `xml:",any"`
}

func rulesDoc(rules []buildstore.ModifiableBy) []modifiableByXML {
	out := make([]modifiableByXML, len(rules))
	for i, r := range rules {
		out[i] = modifiableByXML(r)
	}
	return out
}

func namespaceDoc(ns buildstore.AttributeNamespace) namespaceXML {
	return namespaceXML{Name: ns.Name, ModifiableBy: rulesDoc(ns.ModifiableBy)}
}

// definitionDoc renders a definition; an empty default or allowed list is left out, as the
// service does.
func definitionDoc(d buildstore.AttributeDefinition) definitionXML {
	x := definitionXML{Name: d.Name, Namespace: d.Namespace, Description: d.Description, ModifiableBy: rulesDoc(d.ModifiableBy)}
	if len(d.Default) > 0 {
		x.Default = &valueListXML{Values: d.Default}
	}
	if len(d.Allowed) > 0 {
		x.Allowed = &valueListXML{Values: d.Allowed}
	}
	if d.Count != nil {
		s := strconv.Itoa(*d.Count)
		x.Count = &s
	}
	if d.IssueList {
		x.IssueList = &struct{}{}
	}
	return x
}

// checkDocSize refuses a body past maxAttributeDoc before it is parsed.
func checkDocSize(c *fiber.Ctx) error {
	if n := len(c.Body()); n > maxAttributeDoc {
		return &kit.Error{Status: http.StatusRequestEntityTooLarge, Code: "request_too_large",
			Reason: fmt.Sprintf("the document has %d bytes; attribute documents take at most %d", n, maxAttributeDoc)}
	}
	return nil
}

// refuseUnknown reports the first element a schema does not allow.
func refuseUnknown(kind, parent string, list []unknownXML) error {
	if len(list) > 0 {
		return buildsvc.Invalid(kind, "element <%s> is not allowed in <%s>", list[0].XMLName.Local, parent)
	}
	return nil
}

// checkRules: every rule names someone (a rule of nobody is an error, not "everybody"), a
// namespace's rules name no role, roles are local roles, and persons and groups exist (a
// missing one is the service's 404 not_found, "Couldn't find User with login = x").
func checkRules(tx *bbolt.Tx, kind string, rules []buildstore.ModifiableBy, roles bool) error {
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

func rulesRecord(list []modifiableByXML) []buildstore.ModifiableBy {
	out := make([]buildstore.ModifiableBy, len(list))
	for i, r := range list {
		out[i] = buildstore.ModifiableBy(r)
	}
	return out
}

// inGroup reports whether login belongs to the group title: a member or one of its
// maintainers, the same reading as maintains (rules.go), so a rule "role maintainer" and the
// maintainer check never disagree about a group.
func inGroup(tx *bbolt.Tx, login, title string) bool {
	g, err := buildstore.GetGroup(tx, title)
	return err == nil && (slices.Contains(g.Members, login) || slices.Contains(g.Maintainers, login))
}

// pathMismatch is the service's answer to a document that names another object than its URL.
func pathMismatch(c *fiber.Ctx) error {
	return buildsvc.BadRequest("illegal_request", "Illegal request: %s %s: path does not match content", c.Method(), c.Path())
}

func (a *api) listAttributeNamespaces(c *fiber.Ctx) error {
	var names []string
	err := a.Store.View(func(tx *bbolt.Tx) error {
		list, err := buildstore.AttributeNamespaces(tx)
		for _, ns := range list {
			names = append(names, ns.Name)
		}
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

func (a *api) getAttributeNamespace(c *fiber.Ctx) error {
	var ns buildstore.AttributeNamespace
	err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		ns, err = buildstore.GetAttributeNamespace(tx, pathParam(c, "namespace"))
		return buildsvc.NotFoundAs(err, "unknown_attribute_namespace")
	})
	if err != nil {
		return err
	}
	return sendXML(c, namespaceDoc(ns))
}

// putAttributeNamespace creates a namespace or replaces its rules (Admin only); its
// definitions stay.
func (a *api) putAttributeNamespace(c *fiber.Ctx) error {
	name := pathParam(c, "namespace")
	if !personOf(c).IsAdmin() {
		return buildsvc.Forbidden("admin_required", "Namespace changes are only permitted by the administrator")
	}
	if err := checkDocSize(c); err != nil {
		return err
	}
	if !buildstore.ValidAttributeName(name) {
		return buildsvc.BadRequest("invalid_attribute_name", "invalid attribute namespace name '%s'", name)
	}
	var d namespaceXML
	if err := parseMeta(c.Body(), &d, "attribute namespace"); err != nil {
		return err
	}
	if err := refuseUnknown("attribute namespace", "namespace", d.Unknown); err != nil {
		return err
	}
	if d.Name != name {
		return pathMismatch(c)
	}
	ns := buildstore.AttributeNamespace{Name: name, ModifiableBy: rulesRecord(d.ModifiableBy)}
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if err := checkRules(tx, "attribute namespace", ns.ModifiableBy, false); err != nil {
			return err
		}
		return buildstore.PutAttributeNamespace(tx, ns)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// deleteAttributeNamespace removes a namespace with its definitions and their values (Admin
// only). A namespace that does not exist is no error: the service answers ok, so a cleanup
// script can run twice.
func (a *api) deleteAttributeNamespace(c *fiber.Ctx) error {
	if !personOf(c).IsAdmin() {
		return buildsvc.Forbidden("admin_required", "Namespace changes are only permitted by the administrator")
	}
	name := pathParam(c, "namespace")
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetAttributeNamespace(tx, name); err != nil {
			return nil
		}
		return buildstore.DeleteAttributeNamespace(tx, name)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// listAttributeDefinitions lists a namespace's attribute names; an unknown namespace is the
// service's 400 unknown_namespace here (not a 404, unlike its _meta).
func (a *api) listAttributeDefinitions(c *fiber.Ctx) error {
	name := pathParam(c, "namespace")
	var names []string
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetAttributeNamespace(tx, name); err != nil {
			return buildsvc.BadRequest("unknown_namespace", "Attribute namespace does not exist: %s", name)
		}
		list, err := buildstore.AttributeDefinitions(tx, name)
		for _, d := range list {
			names = append(names, d.Name)
		}
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// definitionNamespace reads the namespace of a definition route: missing is the service's 400
// unknown_attribute_namespace (the 404 is for the namespace's own _meta).
func definitionNamespace(tx *bbolt.Tx, name string) (buildstore.AttributeNamespace, error) {
	ns, err := buildstore.GetAttributeNamespace(tx, name)
	if err != nil {
		return ns, buildsvc.BadRequest("unknown_attribute_namespace", "Specified attribute namespace does not exist: '%s'", name)
	}
	return ns, nil
}

func (a *api) getAttributeDefinition(c *fiber.Ctx) error {
	nsName, name := pathParam(c, "namespace"), pathParam(c, "name")
	var d buildstore.AttributeDefinition
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, err := definitionNamespace(tx, nsName); err != nil {
			return err
		}
		var err error
		if d, err = buildstore.GetAttributeDefinition(tx, nsName, name); err != nil {
			return &kit.Error{Status: http.StatusNotFound, Code: "unknown_attribute", Reason: fmt.Sprintf("Unknown attribute '%s':'%s'", nsName, name)}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return sendXML(c, definitionDoc(d))
}

// mayChangeDefinitions: Admin, or a person the namespace's rules name (directly or through a
// group), as the service's can_modify_attribute_definition? has it.
func mayChangeDefinitions(tx *bbolt.Tx, who buildstore.Person, ns buildstore.AttributeNamespace) bool {
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

// parseDefinition reads and checks an attrib_type document for namespace:name.
func parseDefinition(c *fiber.Ctx, namespace, name string) (buildstore.AttributeDefinition, error) {
	const kind = "attribute definition"
	var x definitionXML
	if err := parseMeta(c.Body(), &x, kind); err != nil {
		return buildstore.AttributeDefinition{}, err
	}
	for _, e := range []error{refuseUnknown(kind, "definition", x.Unknown), refuseUnknownList(kind, "default", x.Default),
		refuseUnknownList(kind, "allowed", x.Allowed)} {
		if e != nil {
			return buildstore.AttributeDefinition{}, e
		}
	}
	if x.Name == "" || x.Namespace == "" {
		return buildstore.AttributeDefinition{}, buildsvc.Invalid(kind, "<definition> needs the attributes name and namespace")
	}
	if x.Name != name || x.Namespace != namespace {
		return buildstore.AttributeDefinition{}, pathMismatch(c)
	}
	d := buildstore.AttributeDefinition{Namespace: namespace, Name: name, Description: x.Description,
		IssueList: x.IssueList != nil, ModifiableBy: rulesRecord(x.ModifiableBy)}
	if x.Default != nil {
		d.Default = x.Default.Values
	}
	if x.Allowed != nil {
		d.Allowed = x.Allowed.Values
	}
	if x.Count != nil {
		n, err := strconv.Atoi(strings.TrimSpace(*x.Count))
		if err != nil || n < 0 {
			return d, buildsvc.Invalid(kind, "<count> takes a number of values (0 or more), not '%s'", *x.Count)
		}
		d.Count = &n
	}
	return d, nil
}

func refuseUnknownList(kind, parent string, l *valueListXML) error {
	if l == nil {
		return nil
	}
	return refuseUnknown(kind, parent, l.Unknown)
}

// putAttributeDefinition creates or replaces a definition. Values already set stay, as in the
// service, even where the new definition would refuse them.
func (a *api) putAttributeDefinition(c *fiber.Ctx) error {
	nsName, name, who := pathParam(c, "namespace"), pathParam(c, "name"), personOf(c)
	if err := checkDocSize(c); err != nil {
		return err
	}
	// Parsed before the transaction, reported in the service's order: namespace, permission,
	// then the document.
	d, perr := parseDefinition(c, nsName, name)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		ns, err := definitionNamespace(tx, nsName)
		if err != nil {
			return err
		}
		if !mayChangeDefinitions(tx, who, ns) {
			return buildsvc.Forbidden("admin_required", "Attribute type changes are not permitted")
		}
		if !buildstore.ValidAttributeName(name) {
			return buildsvc.BadRequest("invalid_attribute_name", "invalid attribute name '%s'", name)
		}
		if perr != nil {
			return perr
		}
		if err := checkRules(tx, "attribute definition", d.ModifiableBy, true); err != nil {
			return err
		}
		return buildstore.PutAttributeDefinition(tx, d)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// deleteAttributeDefinition removes a definition and every value set for it. A definition
// that does not exist is no error (the service answers ok); a missing namespace is.
func (a *api) deleteAttributeDefinition(c *fiber.Ctx) error {
	nsName, name, who := pathParam(c, "namespace"), pathParam(c, "name"), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		ns, err := definitionNamespace(tx, nsName)
		if err != nil {
			return err
		}
		if !mayChangeDefinitions(tx, who, ns) {
			return buildsvc.Forbidden("admin_required", "Attribute type changes are not permitted")
		}
		if _, err := buildstore.GetAttributeDefinition(tx, nsName, name); err != nil {
			return nil
		}
		return buildstore.DeleteAttributeDefinition(tx, nsName, name)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
