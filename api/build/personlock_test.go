package build

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/apitest"
)

// inactive is the answer to the right password of a locked or deleted person.
var inactive = code(403, "inactive_user", "<summary>User is registered but not in confirmed state. Your account is a registered account, but it is in a not active state.</summary>")

// bobsWorld gives bob a subproject and a package with a _service file, and makes home:bobby
// (another person's home, whose name starts like bob's).
func bobsWorld(t *testing.T, e *env) {
	t.Helper()
	e.run(t, []scenario{
		{"bob's subproject", req("PUT", "/source/home:bob:sub/_meta", asBob, prj("home:bob:sub", "")), ok},
		{"bob's package", req("PUT", "/source/home:bob/svc/_meta", asBob, `<package name="svc"><title>S</title><description/></package>`), ok},
		{"its _service", req("PUT", "/source/home:bob/svc/_service", asBob, serviceXML), want(200, `<revision rev="1"`)},
		{"home:bobby", req("PUT", "/source/home:bobby/_meta", asAdmin, prj("home:bobby", "")), ok},
	})
}

// TestPersonLock: cmd=lock locks the person out and locks every home project.
func TestPersonLock(t *testing.T) {
	e := newEnv(t)
	bobsWorld(t, e)
	token := e.newToken(t, "bob", asBob, "&project=home:bob&package=svc")
	locked := want(200, "<lock>", "<enable></enable>")
	e.run(t, []scenario{
		{"only Admin locks", req("POST", "/person/bob?cmd=lock", asAlice, ""), code(403, "no_permission")},
		{"Admin is never locked", req("POST", "/person/Admin?cmd=lock", asAdmin, ""), code(403, "no_permission")},
		{"unknown person", req("POST", "/person/nobody?cmd=lock", asAdmin, ""), code(404, "not_found")},
		{"the token runs before", req("POST", "/trigger/runservice", withToken(token), ""), ok},
		{"lock", req("POST", "/person/bob?cmd=lock", asAdmin, ""), ok},
		{"state locked", req("GET", "/person/bob", asAdmin, ""), want(200, "<state>locked</state>", "<email>bob@pocketforge.test</email>")},
		{"right password: inactive_user", req("GET", "/about", asBob, ""), inactive},
		{"wrong password: the challenge", req("GET", "/about", basic("bob", "nope"), ""), apitest.Expect{Status: 401,
			Header: map[string]string{"WWW-Authenticate": `Basic realm="API login"`}}},
		{"home:bob locked", req("GET", "/source/home:bob/_meta", asAdmin, ""), locked},
		{"home:bob:sub locked", req("GET", "/source/home:bob:sub/_meta", asAdmin, ""), locked},
		{"home:bobby is not bob's", req("GET", "/source/home:bobby/_meta", asAdmin, ""), apitest.Expect{Status: 200, Excludes: []string{"<lock>"}}},
		{"home:alice untouched", req("GET", "/source/home:alice/_meta", asAdmin, ""), apitest.Expect{Status: 200, Excludes: []string{"<lock>"}}},
		{"the token is refused", req("POST", "/trigger/runservice", withToken(token), ""), code(403, "no_permission", "no permission for package svc in project home:bob")},
		{"a locked home refuses writes, Admin's too", req("PUT", "/source/home:bob/svc/x", asAdmin, "x"), code(403, "project_locked")},
		{"lock again: still ok", req("POST", "/person/bob?cmd=lock", asAdmin, ""), ok},
		{"Admin confirms bob again", req("PUT", "/person/bob", asAdmin, `<person><login>bob</login><email>bob@pocketforge.test</email><state>confirmed</state></person>`), ok},
		{"bob signs in", req("GET", "/about", asBob, ""), apitest.Expect{Status: 200}},
		{"his home stays locked until unlocked", req("GET", "/source/home:bob/_meta", asBob, ""), locked},
	})
}

// TestPersonDelete: cmd=delete marks the person deleted, wipes the data, drops the tokens and
// removes the home projects.
func TestPersonDelete(t *testing.T) {
	e := newEnv(t)
	bobsWorld(t, e)
	token := e.newToken(t, "bob", asBob, "")
	e.run(t, []scenario{
		{"only Admin deletes", req("POST", "/person/bob?cmd=delete", asBob, ""), code(403, "no_permission")},
		{"Admin is never deleted", req("POST", "/person/Admin?cmd=delete", asAdmin, ""), code(403, "no_permission")},
		{"delete", req("POST", "/person/bob?cmd=delete", asAdmin, ""), ok},
		{"state deleted, data wiped", req("GET", "/person/bob", asAdmin, ""), apitest.Expect{Status: 200,
			Contains: []string{"<login>bob</login>", "<state>deleted</state>", "<email></email>"}, Excludes: []string{"Bob", "bob@"}}},
		{"right password: inactive_user", req("GET", "/about", asBob, ""), inactive},
		{"home:bob gone", req("GET", "/source/home:bob/_meta", asAdmin, ""), code(404, "unknown_project")},
		{"home:bob:sub gone", req("GET", "/source/home:bob:sub/_meta", asAdmin, ""), code(404, "unknown_project")},
		{"its package gone", req("GET", "/source/home:bob/svc", asAdmin, ""), code(404, "unknown_project")},
		{"home:bobby stays", req("GET", "/source/home:bobby/_meta", asAdmin, ""), apitest.Expect{Status: 200}},
		{"tokens dropped", req("GET", "/person/bob/token", asAdmin, ""), want(200, `<directory count="0">`)},
		{"the token signs in no more", req("POST", "/trigger/runservice?project=home:alice&package=x", withToken(token), ""), code(404, "not_found", "Token not found")},
		{"delete again: still ok", req("POST", "/person/bob?cmd=delete", asAdmin, ""), ok},
		{"unknown person", req("POST", "/person/nobody?cmd=delete", asAdmin, ""), code(404, "not_found")},
		{"alice: her branch project goes too", req("POST", "/person/alice?cmd=delete", asAdmin, ""), ok},
		{"projects left", req("GET", "/source", asAdmin, ""), apitest.Expect{Status: 200, Contains: []string{`<entry name="home:bobby">`},
			Excludes: []string{`"home:alice`, `"home:bob"`, `"home:bob:`}}},
	})
}
