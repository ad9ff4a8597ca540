package buildapi

import (
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/attributes"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Attribute namespaces and definitions (/attribute/…: their _meta documents), and the routes
// of attribute values on projects, packages and binaries (…/_attribute, attributes_values.go).
// The handlers decode and render; the rules and codes (the service's 2.7-era
// AttributeController) are buildsvc's (attributes_*.go there). The one code decided here: 400
// illegal_request when the document names another namespace or attribute than the URL.

// bindAttributes registers the attribute routes. Called from Bind before bindSources: fiber
// matches in registration order, and /source/:project/_attribute must win over
// /source/:project/:package, …/:package/_attribute over …/:package/:filename.
func (a *api) bindAttributes(r fiber.Router) {
	a.get(r, "/attribute", answer(a.Build.Attributes.AttributeNamespaces, newDirectory)) // also /attribute/ (StrictRouting is off)
	a.get(r, "/attribute/:namespace/_meta", answerNamed("namespace", a.Build.Attributes.AttributeNamespace, namespaceDoc))
	r.Put("/attribute/:namespace/_meta", a.authenticated, a.putAttributeNamespace)
	r.Post("/attribute/:namespace/_meta", a.authenticated, a.putAttributeNamespace)
	r.Delete("/attribute/:namespace/_meta", a.authenticated, a.deleteAttributeNamespace)
	a.get(r, "/attribute/:namespace", answerNamed("namespace", a.Build.Attributes.AttributeDefinitions, newDirectory)) // also /attribute/NS/
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

// bodyDoc is the size and decoding error of an attribute write's body, for the domain,
// which reports them in the service's order.
func bodyDoc(c *fiber.Ctx, err error) attributes.AttributeDoc {
	return attributes.AttributeDoc{Size: len(c.Body()), Err: err}
}

// refuseUnknown reports the first element a schema does not allow.
func refuseUnknown(kind, parent string, list []unknownXML) error {
	if len(list) > 0 {
		return buildsvc.Invalid(kind, "element <%s> is not allowed in <%s>", list[0].XMLName.Local, parent)
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

// pathMismatch is the service's answer to a document that names another object than its URL.
func pathMismatch(c *fiber.Ctx) error {
	return buildsvc.BadRequest("illegal_request", "Illegal request: %s %s: path does not match content", c.Method(), c.Path())
}

// parseNamespace reads a namespace_meta document for the namespace name.
func parseNamespace(c *fiber.Ctx, name string) (buildstore.AttributeNamespace, error) {
	ns := buildstore.AttributeNamespace{Name: name}
	var d namespaceXML
	if err := parseMeta(c.Body(), &d, "attribute namespace"); err != nil {
		return ns, err
	}
	if err := refuseUnknown("attribute namespace", "namespace", d.Unknown); err != nil {
		return ns, err
	}
	if d.Name != name {
		return ns, pathMismatch(c)
	}
	ns.ModifiableBy = rulesRecord(d.ModifiableBy)
	return ns, nil
}

// putAttributeNamespace creates a namespace or replaces its rules (Admin only); its
// definitions stay.
func (a *api) putAttributeNamespace(c *fiber.Ctx) error {
	ns, err := parseNamespace(c, pathParam(c, "namespace"))
	return replyOK(c, a.Build.Attributes.PutAttributeNamespace(personOf(c), ns, bodyDoc(c, err)))
}

// deleteAttributeNamespace removes a namespace with its definitions and their values (Admin
// only); a missing one is no error.
func (a *api) deleteAttributeNamespace(c *fiber.Ctx) error {
	return replyOK(c, a.Build.Attributes.DeleteAttributeNamespace(personOf(c), pathParam(c, "namespace")))
}

func (a *api) getAttributeDefinition(c *fiber.Ctx) error {
	return replyXML(c, definitionDoc)(a.Build.Attributes.AttributeDefinition(pathParam(c, "namespace"), pathParam(c, "name")))
}

// parseDefinition reads an attrib_type document for namespace:name. The definition it returns
// always carries the URL's namespace and name.
func parseDefinition(c *fiber.Ctx, namespace, name string) (buildstore.AttributeDefinition, error) {
	const kind = "attribute definition"
	d := buildstore.AttributeDefinition{Namespace: namespace, Name: name}
	var x definitionXML
	if err := parseMeta(c.Body(), &x, kind); err != nil {
		return d, err
	}
	for _, e := range []error{refuseUnknown(kind, "definition", x.Unknown), refuseUnknownList(kind, "default", x.Default),
		refuseUnknownList(kind, "allowed", x.Allowed)} {
		if e != nil {
			return d, e
		}
	}
	if x.Name == "" || x.Namespace == "" {
		return d, buildsvc.Invalid(kind, "<definition> needs the attributes name and namespace")
	}
	if x.Name != name || x.Namespace != namespace {
		return d, pathMismatch(c)
	}
	d.Description, d.IssueList, d.ModifiableBy = x.Description, x.IssueList != nil, rulesRecord(x.ModifiableBy)
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

// putAttributeDefinition creates or replaces a definition; the document is parsed here and
// its faults reported by the domain in the service's order (namespace, permission, document).
func (a *api) putAttributeDefinition(c *fiber.Ctx) error {
	d, err := parseDefinition(c, pathParam(c, "namespace"), pathParam(c, "name"))
	return replyOK(c, a.Build.Attributes.PutAttributeDefinition(personOf(c), d, bodyDoc(c, err)))
}

// deleteAttributeDefinition removes a definition and every value set for it.
func (a *api) deleteAttributeDefinition(c *fiber.Ctx) error {
	return replyOK(c, a.Build.Attributes.DeleteAttributeDefinition(personOf(c), pathParam(c, "namespace"), pathParam(c, "name")))
}
