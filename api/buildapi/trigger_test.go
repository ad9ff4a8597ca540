package buildapi

import (
	"regexp"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// serviceXML is a source service definition; nothing runs it here, its presence is what counts.
const serviceXML = `<services><service name="download_files"/></services>`

// newToken creates a token with the query (after cmd=create) for login and returns its secret.
func (e *env) newToken(t *testing.T, login string, auth map[string]string, query string) string {
	t.Helper()
	got := apitest.Do(t, e.app, req("POST", "/person/"+login+"/token?cmd=create"+query, auth, ""))
	m := regexp.MustCompile(`<data name="token">([0-9a-f]+)</data>`).FindStringSubmatch(got.Body)
	if got.Status != 200 || m == nil {
		t.Fatalf("token create %s: %d %s", query, got.Status, got.Body)
	}
	return m[1]
}

// withToken is an Authorization: Token header.
func withToken(secret string) map[string]string {
	return map[string]string{"Authorization": "Token " + secret}
}

// servicePackages makes home:alice/svc (with a _service file, one revision) and
// home:alice/plain (a spec file only).
func servicePackages(t *testing.T, e *env) {
	t.Helper()
	e.run(t, []scenario{
		{"svc meta", req("PUT", "/source/home:alice/svc/_meta", asAlice, `<package name="svc"><title>S</title><description/></package>`), ok},
		{"svc _service", req("PUT", "/source/home:alice/svc/_service", asAlice, serviceXML), want(200, `<revision rev="1"`)},
		{"plain meta", req("PUT", "/source/home:alice/plain/_meta", asAlice, `<package name="plain"><title>P</title><description/></package>`), ok},
		{"plain spec", req("PUT", "/source/home:alice/plain/plain.spec", asAlice, "Name: plain\nVersion: 1\n"), want(200, `<revision rev="1"`)},
	})
}

// TestTriggerRunService: POST /trigger/runservice signs in with a token only, and a run commits
// the package's tree again as the token's owner.
func TestTriggerRunService(t *testing.T) {
	e := newEnv(t)
	servicePackages(t, e)
	free := e.newToken(t, "alice", asAlice, "")
	bound := e.newToken(t, "alice", asAlice, "&project=home:alice&package=svc&description=ci")
	rebuild := e.newToken(t, "alice", asAlice, "&operation=rebuild")
	bobs := e.newToken(t, "bob", asBob, "")
	run := func(query string, h map[string]string) apitest.Request {
		return req("POST", "/trigger/runservice"+query, h, "")
	}
	svc := "?project=home:alice&package=svc"
	noToken := apitest.Expect{Status: 403, Contains: []string{`<status code="permission_denied">`, "<summary>No valid token found ", "Authorization", " header</summary>"},
		Header: map[string]string{"X-Opensuse-Errorcode": "permission_denied", "WWW-Authenticate": ""}}
	e.run(t, []scenario{
		{"no header: 403, no Basic challenge", run(svc, nil), noToken},
		{"Basic is not accepted here", run(svc, asAlice), noToken},
		{"Bearer is not a token", run(svc, map[string]string{"Authorization": "Bearer " + free}), noToken},
		{"lower-case scheme", run(svc, map[string]string{"Authorization": "token " + free}), noToken},
		{"bad characters", run(svc, withToken("abc$%")), noToken},
		{"empty token", run(svc, map[string]string{"Authorization": "Token "}), noToken},
		{"unknown token", run(svc, withToken("0123456789abcdef")), code(404, "not_found", "<summary>Token not found</summary>")},
		{"a rebuild token does not run services", run(svc, withToken(rebuild)), code(403, "permission_denied", "operation ", "rebuild", "not runservice")},
		{"unbound token, no parameters", run("", withToken(free)), code(400, "missing_parameter", "project")},
		{"unbound token, no package", run("?project=home:alice", withToken(free)), code(400, "missing_parameter", "package")},
		{"unknown project", run("?project=nope&package=svc", withToken(free)), code(404, "unknown_project", "Project not found: nope")},
		{"unknown package", run("?project=home:alice&package=nope", withToken(free)), code(404, "unknown_package", "Package not found: home:alice/nope")},
		{"no _service file: the backend's answer", run("?project=home:alice&package=plain", withToken(free)), code(404, "404", "<summary>no source service defined!</summary>")},
		{"bob may not change alice's package", run(svc, withToken(bobs)), code(403, "no_permission", "<summary>no permission for package svc in project home:alice</summary>")},
		{"unbound token runs", run(svc, withToken(free)), ok},
		{"a new revision by alice", req("GET", "/source/home:alice/svc/_history", asBob, ""), want(200, `<revision rev="2" vrev="2">`,
			"<user>alice</user>", "<comment>runservice via trigger</comment>")},
		{"the tree is the same", req("GET", "/source/home:alice/svc", asBob, ""), want(200, `rev="2"`, `<entry name="_service"`)},
		{"bound token, no parameters", run("", withToken(bound)), ok},
		{"bound token, its own package named", run(svc, withToken(bound)), ok},
		{"bound token, another package", run("?project=home:alice&package=plain", withToken(bound)), code(400, "bad_request", "Token is setup with another package.")},
		{"bound token, another project", run("?project=home:bob&package=svc", withToken(bound)), code(400, "bad_request", "Token is setup with another project.")},
		{"bare /trigger takes a runservice token", req("POST", "/trigger", withToken(bound), ""), ok},
		{"four runs, four revisions", req("GET", "/source/home:alice/svc/_history?rev=5", asBob, ""), want(200, `<revision rev="5"`)},
		{"the list shows triggered_at of the tokens used", req("GET", "/person/alice/token", asAlice, ""), want(200,
			`project="home:alice" package="svc" triggered_at="2026-11-22 12:00:00 UTC"`, `description="ci"`)},
		{"a token is no credential elsewhere", req("GET", "/about", withToken(free), ""), apitest.Expect{Status: 401,
			Header: map[string]string{"WWW-Authenticate": `Basic realm="API login"`}}},
		{"rebuild and release are not served (no build farm yet)", req("POST", "/trigger/rebuild", withToken(rebuild), ""), code(404, "not_found")},
		{"GET is not a trigger", req("GET", "/trigger/runservice", withToken(free), ""), code(405, "method_not_allowed")},
		{"alice locks her package", req("POST", "/source/home:alice/svc?cmd=lock", asAlice, ""), ok},
		{"a locked package refuses the run", run(svc, withToken(bound)), code(403, "no_permission")},
		{"unlock", req("POST", "/source/home:alice/svc?cmd=unlock&comment=go", asAlice, ""), ok},
		{"runs again", run(svc, withToken(bound)), ok},
		{"the token deleted", req("DELETE", "/person/alice/token/2", asAlice, ""), ok},
		{"signs in no more", run(svc, withToken(bound)), code(404, "not_found", "Token not found")},
	})
}

// TestTokenCreateChecks: a token bound to a package needs the package and the right to change it.
func TestTokenCreateChecks(t *testing.T) {
	e := newEnv(t)
	servicePackages(t, e)
	create := func(login, query string, h map[string]string) apitest.Request {
		return req("POST", "/person/"+login+"/token?cmd=create"+query, h, "")
	}
	e.run(t, []scenario{
		{"unknown project", create("alice", "&project=nope&package=svc", asAlice), code(404, "unknown_project", "Project not found: nope")},
		{"unknown package", create("alice", "&project=home:alice&package=nope", asAlice), code(404, "unknown_package", "Package not found: home:alice/nope")},
		{"package only", create("alice", "&package=svc", asAlice), code(400, "missing_parameter")},
		{"bob may not change alice's package", create("bob", "&project=home:alice&package=svc", asBob), code(403, "no_permission", "no permission for package svc in project home:alice")},
		{"Admin makes one for alice, checked against alice", create("alice", "&project=home:alice&package=svc", asAdmin), want(200, `<data name="token">`)},
		{"Admin may not make one for bob on alice's package", create("bob", "&project=home:alice&package=svc", asAdmin), code(403, "no_permission")},
		{"listed with project and package", req("GET", "/person/alice/token", asAlice, ""), apitest.Expect{Status: 200,
			Contains: []string{`project="home:alice" package="svc"`}, Excludes: []string{"triggered_at"}}},
	})
}
