package buildapi

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc/attributes"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

var carolAuth = basic("carol", "carol-password")

// failsWith is code (sources_test.go) with the summary fragments written as plain text: the
// <status> document escapes quotes and angle brackets.
func failsWith(status int, c string, summary ...string) apitest.Expect {
	escaped := make([]string, len(summary))
	for i, s := range summary {
		escaped[i] = textEscaper.Replace(s)
	}
	return code(status, c, escaped...)
}

// shows is a 200 whose body contains every fragment.
func shows(fragments ...string) apitest.Expect {
	return apitest.Expect{Status: 200, Contains: fragments}
}

// hugeAttrDoc is a well-formed document past buildsvc.MaxAttributeDoc.
func hugeAttrDoc(root string) string {
	return "<" + root + `><description>` + strings.Repeat("x", attributes.MaxAttributeDoc) + "</description></" + root + ">"
}

// entityAttrDoc declares an entity and uses it: encoding/xml expands none, so it is refused.
func entityAttrDoc(root, attrs string) string {
	return `<!DOCTYPE ` + root + ` [<!ENTITY e "boom">]><` + root + ` ` + attrs + `>&e;</` + root + `>`
}

func TestAttributeNamespaces(t *testing.T) {
	e := newEnv(t)
	put := func(ns string, h map[string]string, body string) apitest.Request {
		return req("PUT", "/attribute/"+ns+"/_meta", h, body)
	}
	e.run(t, []scenario{
		{"no credentials", req("GET", "/attribute", nil, ""), apitest.Expect{Status: 401}},
		{"list", req("GET", "/attribute", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<directory count=\"1\">\n  <entry name=\"OBS\"></entry>\n</directory>\n"}},
		{"list with slash", req("GET", "/attribute/", asBob, ""), shows(`<directory count="1">`)},
		{"names of OBS", req("GET", "/attribute/OBS/", asBob, ""), shows(`<directory count="19">`, `<entry name="Maintained">`,
			`<entry name="OwnerRootProject">`, `<entry name="QualityCategory">`)},
		{"names of an unknown namespace", req("GET", "/attribute/nope/", asBob, ""),
			failsWith(400, "unknown_namespace", "Attribute namespace does not exist: nope")},
		{"meta", req("GET", "/attribute/OBS/_meta", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<namespace name=\"OBS\">\n  <modifiable_by user=\"Admin\"></modifiable_by>\n</namespace>\n"}},
		{"meta of an unknown namespace", req("GET", "/attribute/nope/_meta", asBob, ""),
			failsWith(404, "unknown_attribute_namespace", "Unknown attribute namespace 'nope'")},
		{"PUT without credentials", put("Pocket", nil, `<namespace name="Pocket"/>`), apitest.Expect{Status: 401}},
		{"PUT by a non-admin", put("Pocket", asAlice, `<namespace name="Pocket"/>`),
			failsWith(403, "admin_required", "Namespace changes are only permitted by the administrator")},
		{"DELETE by a non-admin", req("DELETE", "/attribute/OBS/_meta", asAlice, ""), failsWith(403, "admin_required")},
		{"name mismatch", put("Pocket", asAdmin, `<namespace name="Other"/>`),
			failsWith(400, "illegal_request", "Illegal request: PUT /attribute/Pocket/_meta: path does not match content")},
		{"no name", put("Pocket", asAdmin, `<namespace/>`), failsWith(400, "illegal_request")},
		{"empty body", put("Pocket", asAdmin, ""), failsWith(400, "validation_failed", "Document is empty")},
		{"ill-formed", put("Pocket", asAdmin, `<namespace name="Pocket">`), failsWith(400, "validation_failed")},
		{"wrong root", put("Pocket", asAdmin, `<project name="Pocket"/>`), failsWith(400, "validation_failed")},
		{"entity", put("Pocket", asAdmin, entityAttrDoc("namespace", `name="Pocket"`)), failsWith(400, "validation_failed")},
		{"huge", put("Pocket", asAdmin, hugeAttrDoc("namespace")), failsWith(413, "request_too_large")},
		{"unknown element", put("Pocket", asAdmin, `<namespace name="Pocket"><owner/></namespace>`),
			failsWith(400, "validation_failed", "element <owner> is not allowed in <namespace>")},
		{"a role rule", put("Pocket", asAdmin, `<namespace name="Pocket"><modifiable_by role="maintainer"/></namespace>`),
			failsWith(400, "validation_failed", "takes user and group, not role")},
		{"an empty rule", put("Pocket", asAdmin, `<namespace name="Pocket"><modifiable_by/></namespace>`),
			failsWith(400, "validation_failed", "no valid rules set")},
		{"an unknown person", put("Pocket", asAdmin, `<namespace name="Pocket"><modifiable_by user="nobody"/></namespace>`),
			failsWith(404, "not_found", "Couldn't find User with login = nobody")},
		{"an unknown group", put("Pocket", asAdmin, `<namespace name="Pocket"><modifiable_by group="nogroup"/></namespace>`),
			failsWith(404, "not_found", "Couldn't find Group 'nogroup'")},
		{"a colon in the name", put("a:b", asAdmin, `<namespace name="a:b"/>`), failsWith(400, "invalid_attribute_name")},
		{"leading punctuation", put("-a", asAdmin, `<namespace name="-a"/>`), failsWith(400, "invalid_attribute_name")},
		{"create", put("Pocket", asAdmin, `<namespace name="Pocket"><modifiable_by group="pocket-reviewers"/></namespace>`), ok},
		{"listed", req("GET", "/attribute", asBob, ""), shows(`<directory count="2">`, `<entry name="Pocket">`)},
		{"no definitions yet", req("GET", "/attribute/Pocket", asBob, ""), apitest.Expect{Status: 200, Exact: "<directory count=\"0\"></directory>\n"}},
		{"read back", req("GET", "/attribute/Pocket/_meta", asBob, ""), shows(`<modifiable_by group="pocket-reviewers">`)},
		{"POST replaces", req("POST", "/attribute/Pocket/_meta", asAdmin, `<namespace name="Pocket"><modifiable_by user="bob"/></namespace>`), ok},
		{"replaced", req("GET", "/attribute/Pocket/_meta", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<modifiable_by user="bob">`}, Excludes: []string{"pocket-reviewers"}}},
		{"DELETE", req("DELETE", "/attribute/Pocket/_meta", asAdmin, ""), ok},
		{"gone", req("GET", "/attribute/Pocket/_meta", asBob, ""), failsWith(404, "unknown_attribute_namespace")},
		{"DELETE again is ok", req("DELETE", "/attribute/Pocket/_meta", asAdmin, ""), ok},
	})
}

const tierDef = `<definition namespace="Pocket" name="Tier"><count>1</count>
<modifiable_by role="maintainer"/><allowed><value>gold</value><value>silver</value></allowed>
<issue_list/><default><value>silver</value></default><description>Support tier</description></definition>`

// tierCanonical is tierDef as the service renders it: its element order, not the document's.
const tierCanonical = `<definition name="Tier" namespace="Pocket">
  <description>Support tier</description>
  <default>
    <value>silver</value>
  </default>
  <allowed>
    <value>gold</value>
    <value>silver</value>
  </allowed>
  <count>1</count>
  <issue_list></issue_list>
  <modifiable_by role="maintainer"></modifiable_by>
</definition>
`

func TestAttributeDefinitions(t *testing.T) {
	e := newEnv(t)
	put := func(path string, h map[string]string, body string) apitest.Request {
		return req("PUT", "/attribute/"+path+"/_meta", h, body)
	}
	def := func(ns, name, inner string) string {
		return `<definition namespace="` + ns + `" name="` + name + `">` + inner + `</definition>`
	}
	e.run(t, []scenario{
		{"no credentials", req("GET", "/attribute/OBS/Maintained/_meta", nil, ""), apitest.Expect{Status: 401}},
		{"shipped: Maintained", req("GET", "/attribute/OBS/Maintained/_meta", asBob, ""), shows(`<definition name="Maintained" namespace="OBS">`,
			"<count>0</count>", `<modifiable_by user="Admin">`, "<description>Marks this object as maintained.")},
		{"shipped: OwnerRootProject", req("GET", "/attribute/OBS/OwnerRootProject/_meta", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{"<allowed>\n    <value>DisableDevel</value>\n    <value>BugownerOnly</value>\n  </allowed>"}, Excludes: []string{"<count>"}}},
		{"shipped: Issues", req("GET", "/attribute/OBS/Issues/_meta", asBob, ""), shows("<issue_list></issue_list>", `<modifiable_by role="reviewer">`)},
		{"unknown attribute", req("GET", "/attribute/OBS/Nope/_meta", asBob, ""), failsWith(404, "unknown_attribute", "Unknown attribute 'OBS':'Nope'")},
		{"unknown namespace", req("GET", "/attribute/nope/X/_meta", asBob, ""),
			failsWith(400, "unknown_attribute_namespace", "Specified attribute namespace does not exist: 'nope'")},
		{"PUT without credentials", put("OBS/Tier", nil, def("OBS", "Tier", "")), apitest.Expect{Status: 401}},
		{"PUT by a non-admin", put("OBS/Tier", asAlice, def("OBS", "Tier", "")), failsWith(403, "admin_required", "Attribute type changes are not permitted")},
		{"PUT under an unknown namespace", put("nope/Tier", asAdmin, def("nope", "Tier", "")), failsWith(400, "unknown_attribute_namespace")},
		{"DELETE by a non-admin", req("DELETE", "/attribute/OBS/Maintained/_meta", asAlice, ""), failsWith(403, "admin_required")},
		// The namespace Pocket lets the group pocket-reviewers (carol, alice) define attributes.
		{"namespace Pocket", req("PUT", "/attribute/Pocket/_meta", asAdmin, `<namespace name="Pocket"><modifiable_by group="pocket-reviewers"/></namespace>`), ok},
		{"bob is not in the group", put("Pocket/Tier", asBob, tierDef), failsWith(403, "admin_required")},
		{"name mismatch", put("Pocket/Tier", carolAuth, def("Pocket", "Other", "")),
			failsWith(400, "illegal_request", "Illegal request: PUT /attribute/Pocket/Tier/_meta: path does not match content")},
		{"namespace mismatch", put("Pocket/Tier", carolAuth, def("OBS", "Tier", "")), failsWith(400, "illegal_request")},
		{"no name", put("Pocket/Tier", carolAuth, `<definition namespace="Pocket"/>`), failsWith(400, "validation_failed", "needs the attributes name and namespace")},
		{"empty body", put("Pocket/Tier", carolAuth, ""), failsWith(400, "validation_failed")},
		{"ill-formed", put("Pocket/Tier", carolAuth, `<definition namespace="Pocket" name="Tier"><count>1</definition>`), failsWith(400, "validation_failed")},
		{"wrong root", put("Pocket/Tier", carolAuth, `<attribute namespace="Pocket" name="Tier"/>`), failsWith(400, "validation_failed")},
		{"entity", put("Pocket/Tier", carolAuth, entityAttrDoc("definition", `namespace="Pocket" name="Tier"`)), failsWith(400, "validation_failed")},
		{"huge", put("Pocket/Tier", carolAuth, hugeAttrDoc("definition")), failsWith(413, "request_too_large")},
		{"count not a number", put("Pocket/Tier", carolAuth, def("Pocket", "Tier", "<count>two</count>")), failsWith(400, "validation_failed", "not 'two'")},
		{"negative count", put("Pocket/Tier", carolAuth, def("Pocket", "Tier", "<count>-1</count>")), failsWith(400, "validation_failed")},
		{"unknown element", put("Pocket/Tier", carolAuth, def("Pocket", "Tier", "<type>x</type>")), failsWith(400, "validation_failed", "<type>")},
		{"unknown element in allowed", put("Pocket/Tier", carolAuth, def("Pocket", "Tier", "<allowed><v/></allowed>")), failsWith(400, "validation_failed")},
		{"unknown role", put("Pocket/Tier", carolAuth, def("Pocket", "Tier", `<modifiable_by role="owner"/>`)), failsWith(400, "validation_failed", "unknown role 'owner'")},
		{"empty rule", put("Pocket/Tier", carolAuth, def("Pocket", "Tier", `<modifiable_by/>`)), failsWith(400, "validation_failed")},
		{"unknown person", put("Pocket/Tier", carolAuth, def("Pocket", "Tier", `<modifiable_by user="nobody"/>`)), failsWith(404, "not_found")},
		{"unknown group", put("Pocket/Tier", carolAuth, def("Pocket", "Tier", `<modifiable_by group="nogroup"/>`)), failsWith(404, "not_found")},
		{"bad name", put("Pocket/.Tier", carolAuth, def("Pocket", ".Tier", "")), failsWith(400, "invalid_attribute_name", "invalid attribute name '.Tier'")},
		{"create", put("Pocket/Tier", carolAuth, tierDef), ok},
		{"canonical", req("GET", "/attribute/Pocket/Tier/_meta", asBob, ""), apitest.Expect{Status: 200, Exact: tierCanonical}},
		{"listed", req("GET", "/attribute/Pocket/", asBob, ""), shows(`<directory count="1">`, `<entry name="Tier">`)},
		{"POST replaces", req("POST", "/attribute/Pocket/Tier/_meta", asAlice, def("Pocket", "Tier", "<count>2</count>")), ok},
		{"replaced", req("GET", "/attribute/Pocket/Tier/_meta", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<definition name=\"Tier\" namespace=\"Pocket\">\n  <count>2</count>\n</definition>\n"}},
		{"DELETE an unknown one is ok", req("DELETE", "/attribute/Pocket/Nope/_meta", carolAuth, ""), ok},
		{"DELETE under an unknown namespace", req("DELETE", "/attribute/nope/X/_meta", asAdmin, ""), failsWith(400, "unknown_attribute_namespace")},
		{"DELETE without _meta", req("DELETE", "/attribute/Pocket/Tier", carolAuth, ""), ok},
		{"gone", req("GET", "/attribute/Pocket/Tier/_meta", asBob, ""), failsWith(404, "unknown_attribute")},
	})
}

// TestAttributeDeletesCascade: deleting a definition deletes its values; deleting a namespace
// deletes its definitions and their values; a definition made again starts without values.
func TestAttributeDeletesCascade(t *testing.T) {
	e := newEnv(t)
	tier := `<attributes><attribute namespace="Pocket" name="Tier"><value>gold</value></attribute></attributes>`
	e.run(t, []scenario{
		{"namespace", req("PUT", "/attribute/Pocket/_meta", asAdmin, `<namespace name="Pocket"/>`), ok},
		{"definition", req("PUT", "/attribute/Pocket/Tier/_meta", asAdmin, tierDef), ok},
		{"second definition", req("PUT", "/attribute/Pocket/Note/_meta", asAdmin, `<definition namespace="Pocket" name="Note"/>`), ok},
		{"set on a project", req("POST", "/source/home:alice/_attribute", asAlice, tier), ok},
		{"set on a package", req("POST", "/source/devel:tools/pocket-cli/_attribute", asAlice, tier), ok},
		{"set on a binary", req("POST", "/source/devel:tools/pocket-cli/pocket-cli-doc/_attribute", asAlice, tier), ok},
		{"and a note", req("POST", "/source/home:alice/_attribute/Pocket:Note", asAlice, `<attributes><attribute namespace="Pocket" name="Note"/></attributes>`), ok},
		{"delete the definition", req("DELETE", "/attribute/Pocket/Tier/_meta", asAdmin, ""), ok},
		{"project lost it", req("GET", "/source/home:alice/_attribute", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`name="Note"`}, Excludes: []string{"Tier"}}},
		{"package and binary lost it", req("GET", "/source/devel:tools/pocket-cli/_attribute", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"Tier"}}},
		{"defined again", req("PUT", "/attribute/Pocket/Tier/_meta", asAdmin, tierDef), ok},
		{"no value came back", req("GET", "/source/devel:tools/pocket-cli/_attribute", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"Tier"}}},
		{"delete the namespace", req("DELETE", "/attribute/Pocket/_meta", asAdmin, ""), ok},
		{"definitions gone", req("GET", "/attribute/Pocket/", asBob, ""), failsWith(400, "unknown_namespace")},
		{"values gone", req("GET", "/source/home:alice/_attribute", asBob, ""), apitest.Expect{Status: 200, Exact: "<attributes></attributes>\n"}},
		{"OBS untouched", req("GET", "/source/devel:tools/pocket-cli/_attribute", asBob, ""), shows(`name="Maintained"`)},
	})
}
