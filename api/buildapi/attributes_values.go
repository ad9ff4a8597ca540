package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/attributes"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Attribute values on projects, packages and binaries: GET, POST (PUT) and DELETE on
// /source/P[/K[/B]]/_attribute[/NS:NAME]. The handlers decode the route and the document and
// render; the rules are buildsvc's (attributes_values.go there). The comment parameter is
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

// attributeDoc renders one attribute with the values the domain chose to show.
func attributeDoc(at buildstore.Attribute) attributeXML {
	return attributeXML{Name: at.Name, Namespace: at.Namespace, Binary: at.Binary, Values: at.Values,
		Issues: docsOf(at.Issues, func(i buildstore.AttributeIssue) issueXML { return issueXML(i) })}
}

// attributesDoc renders a container's attributes.
func attributesDoc(list []buildstore.Attribute) attributesXML {
	return attributesXML{Attributes: docsOf(list, attributeDoc)}
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

// attribRouteOf reads what a …/_attribute URL names; package "_project" is the project
// itself, as in the service. A binary comes from the path, or from ?binary= on a package route.
func attribRouteOf(c *fiber.Ctx) attributes.AttributeRoute {
	r := attributes.AttributeRoute{Project: pathParam(c, "project"), Package: pathParam(c, "package"),
		Binary: pathParam(c, "binary"), Attribute: pathParam(c, "attribute")}
	if r.Package == "_project" {
		r.Package = ""
	}
	if r.Binary == "" && r.Package != "" {
		r.Binary = c.Query("binary")
	}
	return r
}

// queryFlag reads a boolean query parameter the way osc sends them (with_default=1).
func queryFlag(c *fiber.Ctx, key string) bool {
	v := c.Query(key)
	return v != "" && v != "0" && v != "false"
}

// getAttributes lists a container's attributes (with_default=1, with_project=1: see
// buildsvc.AttributeQuery).
func (a *api) getAttributes(c *fiber.Ctx) error {
	q := attributes.AttributeQuery{WithDefault: queryFlag(c, "with_default"), WithProject: queryFlag(c, "with_project")}
	return replyXML(c, attributesDoc)(a.Build.Attributes.Attributes(attribRouteOf(c), q))
}

// attributeRecords is what a POST's attributes name and set, for the domain to check.
func attributeRecords(docs []attributeXML) []buildstore.Attribute {
	out := make([]buildstore.Attribute, len(docs))
	for i, x := range docs {
		out[i] = buildstore.Attribute{Namespace: x.Namespace, Name: x.Name, Binary: x.Binary, Values: x.Values}
		for _, is := range x.Issues {
			out[i].Issues = append(out[i].Issues, buildstore.AttributeIssue(is))
		}
	}
	return out
}

// postAttributes sets the attributes of the document (replacing their values and issues; the
// others stay), whole or not at all.
func (a *api) postAttributes(c *fiber.Ctx) error {
	docs, err := parseAttributes(c.Body())
	return replyOK(c, a.Build.Attributes.SetAttributes(personOf(c), attribRouteOf(c), attributeRecords(docs), bodyDoc(c, err)))
}

// deleteAttribute removes the URL's attribute from the container.
func (a *api) deleteAttribute(c *fiber.Ctx) error {
	return replyOK(c, a.Build.Attributes.DeleteAttribute(personOf(c), attribRouteOf(c)))
}
