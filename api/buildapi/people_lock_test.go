package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
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

// TestRegistration: POST /person?cmd=register needs no sign-in and follows the
// configuration's registration: deny (default), allow, confirmation.
func TestRegistration(t *testing.T) {
	e := newEnv(t)
	asAdmin := basic("Admin", adminPassword)
	reg := func(login, password string) apitest.Request {
		return req("POST", "/person?cmd=register", nil, "<unregisteredperson><login>"+login+"</login><email>"+login+
			"@example.org</email><realname>New Person</realname><password>"+password+"</password></unregisteredperson>")
	}
	confAs := func(who map[string]string, mode string) apitest.Request {
		return req("PUT", "/configuration", who, "<configuration><title>t</title><description/><registration>"+mode+"</registration></configuration>")
	}
	conf := func(mode string) apitest.Request { return confAs(asAdmin, mode) }
	e.run(t, []scenario{
		{"denied by default", reg("newbie", "secret-pw"), code(400, "err_register_save", "Sorry, sign up is disabled")},
		{"the configuration says deny", req("GET", "/configuration", asBob, ""), want(200, "<registration>deny</registration>")},
		{"a bad mode", conf("sometimes"), code(400, "validation_failed")},
		{"bob may not allow it", confAs(asBob, "allow"), code(403, "no_permission")},
		{"allow", conf("allow"), ok},
		{"register", reg("newbie", "secret-pw"), ok},
		{"signs in at once", req("GET", "/person/newbie", basic("newbie", "secret-pw"), ""), want(200, "<login>newbie</login>", "<state>confirmed</state>")},
		{"taken", reg("newbie", "secret-pw"), code(400, "err_register_save", "has already been taken")},
		{"a bad login", reg("../x", "secret-pw"), code(400, "err_register_save", "not a valid login")},
		{"a short password", reg("shorty", "abc"), code(400, "err_register_save", "password")},
		{"not a registration document", req("POST", "/person?cmd=register", nil, "<person/>"), code(400, "validation_failed")},
		{"another command", req("POST", "/person?cmd=frob", nil, ""), code(400, "unknown_command")},
		{"confirmation", conf("confirmation"), ok},
		{"registered, to be confirmed", reg("waiting", "secret-pw"), code(400, "err_register_save", "An admin has to confirm your account now")},
		{"cannot sign in yet", req("GET", "/person/waiting", basic("waiting", "secret-pw"), ""), code(403, "inactive_user")},
		{"Admin confirms", req("PUT", "/person/waiting", asAdmin, "<person><login>waiting</login><email>waiting@example.org</email><state>confirmed</state></person>"), ok},
		{"now signs in", req("GET", "/person/waiting", basic("waiting", "secret-pw"), ""), want(200, "<state>confirmed</state>")},
		{"Admin may not create a bad login by PUT", req("PUT", "/person/a:b", asAdmin, "<person><login>a:b</login><email>x@example.org</email></person>"), code(400, "invalid_login")},
	})
}
