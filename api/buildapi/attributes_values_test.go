package buildapi

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// attrs is a POST body of attributes, each "NS:NAME=v1,v2" (no "=" for no values).
func attrs(list ...string) string {
	var b strings.Builder
	b.WriteString("<attributes>")
	for _, s := range list {
		full, values, _ := strings.Cut(s, "=")
		ns, name, _ := strings.Cut(full, ":")
		b.WriteString(`<attribute namespace="` + ns + `" name="` + name + `">`)
		if values != "" {
			for _, v := range strings.Split(values, ",") {
				b.WriteString("<value>" + v + "</value>")
			}
		}
		b.WriteString("</attribute>")
	}
	b.WriteString("</attributes>")
	return b.String()
}

const (
	cliAttrs = "/source/devel:tools/pocket-cli/_attribute"
	docAttrs = "/source/devel:tools/pocket-cli/pocket-cli-doc/_attribute"
)

var noAttributes = apitest.Expect{Status: 200, Exact: "<attributes></attributes>\n"}

func TestAttributeValuesRead(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"no credentials", req("GET", "/source/Pocket:1.0/_attribute", nil, ""), apitest.Expect{Status: 401}},
		{"project", req("GET", "/source/Pocket:1.0/_attribute", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<attributes>\n  <attribute name=\"OwnerRootProject\" namespace=\"OBS\"></attribute>\n</attributes>\n"}},
		{"project as _project", req("GET", "/source/Pocket:1.0/_project/_attribute", asBob, ""), shows(`name="OwnerRootProject"`)},
		{"package", req("GET", cliAttrs, asBob, ""), shows(`<attribute name="Maintained" namespace="OBS">`)},
		{"named", req("GET", cliAttrs+"/OBS:Maintained", asBob, ""), shows(`name="Maintained"`)},
		{"named, percent-encoded", req("GET", cliAttrs+"/OBS%3AMaintained", asBob, ""), shows(`name="Maintained"`)},
		{"named, not set", req("GET", cliAttrs+"/OBS:QualityCategory", asBob, ""), noAttributes},
		{"nothing set", req("GET", "/source/home:bob/_attribute", asBob, ""), noAttributes},
		{"not NS:NAME", req("GET", cliAttrs+"/Maintained", asBob, ""),
			failsWith(400, "invalid_attribute", "attribute 'Maintained' must be in the $NAMESPACE:$NAME style")},
		{"three parts", req("GET", cliAttrs+"/a:b:c", asBob, ""), failsWith(400, "invalid_attribute")},
		{"unknown definition", req("GET", cliAttrs+"/OBS:Nope", asBob, ""),
			failsWith(404, "unknown_attribute_type", "Attribute Type OBS:Nope does not exist")},
		{"unknown project", req("GET", "/source/nope/_attribute", asBob, ""), failsWith(404, "unknown_project", "Project not found: nope")},
		{"unknown package", req("GET", "/source/devel:tools/nope/_attribute", asBob, ""), failsWith(404, "unknown_package", "Package not found: devel:tools/nope")},
		{"unknown package, binary route", req("GET", "/source/devel:tools/nope/x/_attribute", asBob, ""), failsWith(404, "unknown_package")},
		{"binary of a project", req("GET", "/source/Pocket:1.0/_project/x/_attribute", asBob, ""), failsWith(400, "attribute_save_error")},
		{"a binary too long", req("GET", "/source/devel:tools/pocket-cli/"+strings.Repeat("b", 201)+"/_attribute", asBob, ""), failsWith(400, "invalid_binary_name")},
		{"package source listing unaffected", req("GET", "/source/devel:tools/pocket-cli", asBob, ""), shows(`<directory name="pocket-cli"`)},
	})
}

func TestAttributeValuesWrite(t *testing.T) {
	e := newEnv(t)
	quality := func(v string) string { return attrs("OBS:QualityCategory=" + v) }
	e.run(t, []scenario{
		{"no credentials", req("POST", cliAttrs, nil, quality("Stable")), apitest.Expect{Status: 401}},
		// QualityCategory: one value of four, set by a maintainer (alice maintains devel:tools).
		{"maintainer sets", req("POST", cliAttrs+"?comment=stable+now", asAlice, quality("Stable")), ok},
		{"read back", req("GET", cliAttrs+"/OBS:QualityCategory", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<attributes>\n  <attribute name=\"QualityCategory\" namespace=\"OBS\">\n    <value>Stable</value>\n  </attribute>\n</attributes>\n"}},
		{"replaced", req("POST", cliAttrs, asAlice, quality("Testing")), ok},
		{"replaced value", req("GET", cliAttrs, asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{"<value>Testing</value>", `name="Maintained"`}, Excludes: []string{"Stable"}}},
		{"not a maintainer", req("POST", cliAttrs, asBob, quality("Stable")),
			failsWith(403, "change_attribute_no_permission", "user bob has no permission to change attribute OBS:QualityCategory")},
		{"a value not allowed", req("POST", cliAttrs, asAlice, quality("Gold")),
			failsWith(400, "attribute_save_error", "attribute value Gold for 'OBS:QualityCategory' is not allowed. Please use one of: Stable, Testing, Development, Private")},
		{"too many values", req("POST", cliAttrs, asAlice, quality("Stable,Testing")),
			failsWith(400, "attribute_save_error", "attribute 'OBS:QualityCategory' has 2 values, but only 1 are allowed")},
		{"no value", req("POST", cliAttrs, asAlice, attrs("OBS:QualityCategory")), failsWith(400, "attribute_save_error", "has 0 values")},
		// Maintained: Admin's by its rule, although alice maintains the package's project.
		{"a rule replaces the maintainers", req("POST", "/source/devel:tools/forge-utils/_attribute", asAlice, attrs("OBS:Maintained")),
			failsWith(403, "change_attribute_no_permission")},
		{"Admin sets", req("POST", "/source/devel:tools/forge-utils/_attribute", asAdmin, attrs("OBS:Maintained")), ok},
		{"count 0 takes no value", req("POST", "/source/devel:tools/forge-utils/_attribute", asAdmin, attrs("OBS:Maintained=x")),
			failsWith(400, "attribute_save_error", "has 1 values, but only 0 are allowed")},
		// Issues: reviewers may set them (carol reviews devel:tools); trackers must exist.
		{"issues by a reviewer", req("POST", "/source/devel:tools/_attribute", carolAuth,
			`<attributes><attribute namespace="OBS" name="Issues"><issue name="12" tracker="pocket"/><issue name="12" tracker="pocket"/></attribute></attributes>`), ok},
		{"issues read back once", req("GET", "/source/devel:tools/_attribute", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<attributes>\n  <attribute name=\"Issues\" namespace=\"OBS\">\n    <issue name=\"12\" tracker=\"pocket\"></issue>\n  </attribute>\n</attributes>\n"}},
		{"issues elsewhere: no role", req("POST", "/source/home:alice/_attribute", carolAuth,
			`<attributes><attribute namespace="OBS" name="Issues"><issue name="1" tracker="pocket"/></attribute></attributes>`), failsWith(403, "change_attribute_no_permission")},
		{"unknown tracker", req("POST", "/source/devel:tools/_attribute", carolAuth,
			`<attributes><attribute namespace="OBS" name="Issues"><issue name="1" tracker="nope"/></attribute></attributes>`),
			failsWith(404, "not_found", "Couldn't find IssueTracker with name = nope")},
		{"issue without tracker", req("POST", "/source/devel:tools/_attribute", carolAuth,
			`<attributes><attribute namespace="OBS" name="Issues"><issue name="1"/></attribute></attributes>`), failsWith(400, "attribute_save_error")},
		{"issues not allowed", req("POST", "/source/devel:tools/forge-utils/_attribute", asAdmin,
			`<attributes><attribute namespace="OBS" name="Maintained"><issue name="1" tracker="pocket"/></attribute></attributes>`),
			failsWith(400, "attribute_save_error", "has issue elements which are not allowed in this attribute")},
		// Documents.
		{"unknown definition", req("POST", cliAttrs, asAdmin, attrs("OBS:Nope")), failsWith(404, "unknown_attribute_type", "Attribute Type OBS:Nope does not exist")},
		{"unknown definition in the URL", req("POST", cliAttrs+"/OBS:Nope", asAdmin, attrs("OBS:Maintained")), failsWith(404, "unknown_attribute_type")},
		{"no namespace", req("POST", cliAttrs, asAdmin, `<attributes><attribute name="Maintained"/></attributes>`),
			failsWith(400, "change_attribute_attribute_error", "Need namespace and name as parameters")},
		{"empty body", req("POST", cliAttrs, asAdmin, ""), failsWith(400, "validation_failed", "Document is empty")},
		{"ill-formed", req("POST", cliAttrs, asAdmin, `<attributes><attribute namespace="OBS" name="Maintained"></attributes>`), failsWith(400, "validation_failed")},
		{"wrong root", req("POST", cliAttrs, asAdmin, `<project name="x"/>`), failsWith(400, "validation_failed", "not <project>")},
		{"entity", req("POST", cliAttrs, asAdmin, entityAttrDoc("attributes", "")), failsWith(400, "validation_failed")},
		{"huge", req("POST", cliAttrs, asAdmin, hugeAttrDoc("attributes")), failsWith(413, "request_too_large")},
		{"unknown element", req("POST", cliAttrs, asAdmin, `<attributes><attribute namespace="OBS" name="Maintained"><val/></attribute></attributes>`),
			failsWith(400, "validation_failed", "<val> is not allowed in <attribute>")},
		{"unknown top element", req("POST", cliAttrs, asAdmin, `<attributes><attrib/></attributes>`), failsWith(400, "validation_failed")},
		{"unknown project wins over a bad body", req("POST", "/source/nope/_attribute", asAdmin, "<"), failsWith(404, "unknown_project")},
		{"unknown package", req("POST", "/source/devel:tools/nope/_attribute", asAdmin, attrs("OBS:Maintained")), failsWith(404, "unknown_package")},
		{"one <attribute> is a list of one", req("POST", "/source/home:alice/_attribute", asAlice,
			`<attribute namespace="OBS" name="QualityCategory"><value>Private</value></attribute>`), ok},
		{"PUT is POST", req("PUT", "/source/home:bob/_attribute", asBob, quality("Development")), ok},
		{"empty list changes nothing", req("POST", "/source/home:bob/_attribute", asBob, "<attributes/>"), ok},
		{"stored", req("GET", "/source/home:bob/_attribute", asAlice, ""), shows("<value>Development</value>")},
		{"no file _attribute was made", req("GET", "/source/home:bob", asAlice, ""), apitest.Expect{Status: 200, Excludes: []string{"_attribute"}}},
		// All or nothing: the second attribute is refused, so the first is not stored either.
		{"all or nothing", req("POST", "/source/home:alice/_attribute", asAlice, attrs("OBS:BranchTarget", "OBS:Maintained")), failsWith(403, "change_attribute_no_permission")},
		{"nothing stored", req("GET", "/source/home:alice/_attribute", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"BranchTarget"}}},
	})
}

func TestAttributeValuesBinaries(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"set on a binary", req("POST", docAttrs, asAlice, attrs("OBS:QualityCategory=Private")), ok},
		{"the binary's", req("GET", docAttrs, asBob, ""), apitest.Expect{Status: 200,
			Exact: "<attributes>\n  <attribute name=\"QualityCategory\" namespace=\"OBS\" binary=\"pocket-cli-doc\">\n    <value>Private</value>\n  </attribute>\n</attributes>\n"}},
		{"the package's show all", req("GET", cliAttrs, asBob, ""), shows(`name="Maintained" namespace="OBS">`, `binary="pocket-cli-doc"`)},
		{"?binary= filters", req("GET", cliAttrs+"?binary=pocket-cli-doc", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`binary="pocket-cli-doc"`}, Excludes: []string{"Maintained"}}},
		{"another binary's", req("GET", "/source/devel:tools/pocket-cli/pocket-cli-bin/_attribute", asBob, ""), noAttributes},
		{"binary in the document", req("POST", cliAttrs, asAlice,
			`<attributes><attribute namespace="OBS" name="QualityCategory" binary="pocket-cli-bin"><value>Stable</value></attribute></attributes>`), ok},
		{"went to that binary", req("GET", "/source/devel:tools/pocket-cli/pocket-cli-bin/_attribute/OBS:QualityCategory", asBob, ""), shows("<value>Stable</value>")},
		{"document and URL disagree", req("POST", docAttrs, asAlice,
			`<attributes><attribute namespace="OBS" name="QualityCategory" binary="other"><value>Stable</value></attribute></attributes>`),
			failsWith(400, "illegal_request", "binary in xml data ('other') does not match resource path component ('pocket-cli-doc')")},
		{"a binary on a project", req("POST", "/source/home:alice/_attribute", asAlice,
			`<attributes><attribute namespace="OBS" name="QualityCategory" binary="x"><value>Stable</value></attribute></attributes>`),
			failsWith(400, "attribute_save_error", "binary packages are not allowed in project attributes")},
		{"a bad binary name", req("POST", cliAttrs, asAlice,
			`<attributes><attribute namespace="OBS" name="QualityCategory" binary="a&#x9;b"><value>Stable</value></attribute></attributes>`),
			failsWith(400, "invalid_binary_name")},
		{"delete the binary's", req("DELETE", docAttrs+"/OBS:QualityCategory", asAlice, ""), ok},
		{"binary's gone", req("GET", docAttrs, asBob, ""), noAttributes},
		{"the other binary's stays", req("GET", "/source/devel:tools/pocket-cli/pocket-cli-bin/_attribute", asBob, ""), shows("Stable")},
		{"the package's own stays", req("GET", cliAttrs+"/OBS:Maintained", asBob, ""), shows(`name="Maintained"`)},
	})
}

func TestAttributeValuesDeleteAndLock(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"no credentials", req("DELETE", cliAttrs+"/OBS:Maintained", nil, ""), apitest.Expect{Status: 401}},
		{"no attribute named", req("DELETE", cliAttrs, asAdmin, ""), failsWith(400, "missing_attribute", "No attribute got specified for delete")},
		{"not NS:NAME", req("DELETE", cliAttrs+"/Maintained", asAdmin, ""), failsWith(400, "invalid_attribute")},
		{"unknown definition", req("DELETE", cliAttrs+"/OBS:Nope", asAdmin, ""), failsWith(404, "unknown_attribute_type")},
		{"not set", req("DELETE", cliAttrs+"/OBS:QualityCategory", asAdmin, ""), failsWith(404, "not_found", "Attribute OBS:QualityCategory does not exist")},
		{"unknown project", req("DELETE", "/source/nope/_attribute/OBS:Maintained", asAdmin, ""), failsWith(404, "unknown_project")},
		{"a maintainer may not delete Admin's", req("DELETE", cliAttrs+"/OBS:Maintained", asAlice, ""), failsWith(403, "change_attribute_no_permission")},
		{"Admin deletes", req("DELETE", cliAttrs+"/OBS:Maintained?comment=unmaintained", asAdmin, ""), ok},
		{"gone", req("GET", cliAttrs, asBob, ""), noAttributes},
		{"again", req("DELETE", cliAttrs+"/OBS:Maintained", asAdmin, ""), failsWith(404, "not_found")},
		// A locked project refuses attribute writes, from Admin too, and locks its packages.
		{"set before the lock", req("POST", "/source/devel:libs/_attribute", asAlice, attrs("OBS:QualityCategory=Stable")), ok},
		{"lock devel:libs", req("POST", "/source/devel:libs?cmd=lock", asAlice, ""), ok},
		{"POST refused", req("POST", "/source/devel:libs/_attribute", asAlice, attrs("OBS:QualityCategory=Testing")), failsWith(403, "project_locked")},
		{"Admin refused too", req("POST", "/source/devel:libs/_attribute", asAdmin, attrs("OBS:Maintained")), failsWith(403, "project_locked")},
		{"its package refused", req("POST", "/source/devel:libs/libpocket/_attribute", asAdmin, attrs("OBS:Maintained")), failsWith(403, "project_locked")},
		{"DELETE refused", req("DELETE", "/source/devel:libs/_attribute/OBS:QualityCategory", asAlice, ""), failsWith(403, "project_locked")},
		{"permission comes first", req("POST", "/source/devel:libs/_attribute", asBob, attrs("OBS:QualityCategory=Testing")), failsWith(403, "change_attribute_no_permission")},
		{"reading is fine", req("GET", "/source/devel:libs/_attribute", asBob, ""), shows("<value>Stable</value>")},
		{"package lock", req("POST", "/source/devel:tools/forge-utils?cmd=lock", asAlice, ""), ok},
		{"locked package refused", req("POST", "/source/devel:tools/forge-utils/_attribute", asAlice, attrs("OBS:QualityCategory=Stable")), failsWith(403, "project_locked")},
		{"its project is not", req("POST", "/source/devel:tools/_attribute", asAlice, attrs("OBS:QualityCategory=Stable")), ok},
	})
}

// TestAttributeDefaultsAndProject: with_default shows the definition's defaults for an
// attribute set without values; with_project adds the project's attributes to a package's.
func TestAttributeDefaultsAndProject(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"a definition with a default", req("PUT", "/attribute/OBS/Tier/_meta", asAdmin,
			`<definition namespace="OBS" name="Tier"><default><value>silver</value></default></definition>`), ok},
		{"set without values", req("POST", cliAttrs, asAlice, attrs("OBS:Tier")), ok},
		{"plain", req("GET", cliAttrs+"/OBS:Tier", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"silver"}}},
		{"with_default", req("GET", cliAttrs+"/OBS:Tier?with_default=1", asBob, ""), shows("<value>silver</value>")},
		{"with_default=0", req("GET", cliAttrs+"/OBS:Tier?with_default=0", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"silver"}}},
		{"a value hides the default", req("POST", cliAttrs, asAlice, attrs("OBS:Tier=gold")), ok},
		{"value shown", req("GET", cliAttrs+"/OBS:Tier?with_default=1", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{"<value>gold</value>"}, Excludes: []string{"silver"}}},
		{"project attribute", req("POST", "/source/devel:tools/_attribute", asAlice, attrs("OBS:QualityCategory=Testing")), ok},
		{"package alone", req("GET", cliAttrs, asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"QualityCategory"}}},
		{"with_project", req("GET", cliAttrs+"?with_project=1", asBob, ""), shows("<value>gold</value>", `name="QualityCategory"`, `name="Maintained"`)},
	})
}

// TestAttributeOddInputs: no input makes an attribute route fail with a 5xx — odd names
// (NUL bytes, bad escapes, very long, unicode) on every route and method, odd bodies on every
// write.
func TestAttributeOddInputs(t *testing.T) {
	e := newEnv(t)
	names := []string{"x", "%00", "a%00b", "a%25b", "..", "_project", strings.Repeat("n", 300), "%C3%A9", "OBS:Maintained", ":", "a:b:c"}
	bodies := []string{"", "<", "<attributes/>", "<attribute/>", `<definition namespace="%s" name="%s"/>`, `<namespace name="x"/>`,
		"<attributes><attribute namespace=\"OBS\" name=\"Maintained\"><value>&#0;</value></attribute></attributes>",
		"\xff\xfe<a/>", strings.Repeat("<a>", 10000)}
	var paths []string
	for _, n := range names {
		paths = append(paths, "/attribute/"+n+"/_meta", "/attribute/"+n+"/", "/attribute/OBS/"+n+"/_meta", "/attribute/"+n+"/"+n,
			"/source/"+n+"/_attribute", "/source/home:alice/_attribute/"+n, "/source/devel:tools/"+n+"/_attribute",
			"/source/devel:tools/pocket-cli/"+n+"/_attribute", "/source/devel:tools/pocket-cli/_attribute/"+n,
			"/source/devel:tools/pocket-cli/"+n+"/_attribute/"+n)
	}
	for _, path := range paths {
		for _, method := range []string{"GET", "POST", "PUT", "DELETE"} {
			list := []string{""}
			if method == "POST" || method == "PUT" {
				list = bodies
			}
			for _, body := range list {
				got := apitest.Do(t, e.app, req(method, path, asAdmin, body))
				if got.Status >= 500 {
					t.Fatalf("%s %s %.40q: %d %s", method, path, body, got.Status, got.Body)
				}
			}
		}
	}
}
