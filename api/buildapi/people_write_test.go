package buildapi

import (
	"regexp"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// req is a request with a method, path, body and credentials.
func areq(method, path, body string, auth map[string]string) apitest.Request {
	return apitest.Request{Method: method, Path: path, Body: body, Header: auth}
}

var (
	noAuth    = apitest.Expect{Status: 401}
	forbid    = apitest.Expect{Status: 403}
	missing   = apitest.Expect{Status: 404}
	bad       = apitest.Expect{Status: 400}
	aliceDoc  = `<person><login>alice</login><email>a@x.test</email><realname>Alice New</realname><state>confirmed</state></person>`
	adminAuth = basic("Admin", adminPassword)
	aliceAuth = basic("alice", "alice-password")
	bobAuth   = basic("bob", "bob-password")
)

func TestPersonWrites(t *testing.T) {
	e := newEnv(t)
	cpw := func(login, body string, auth map[string]string) apitest.Request {
		return areq("POST", "/person/"+login+"?cmd=change_password", body, auth)
	}
	e.run(t, []scenario{
		{"no credentials", areq("PUT", "/person/alice", aliceDoc, nil), noAuth},
		{"another person", areq("PUT", "/person/alice", aliceDoc, bobAuth), forbid},
		{"login mismatch", areq("PUT", "/person/alice", `<person><login>bob</login></person>`, aliceAuth), apitest.Expect{Status: 400, Contains: []string{`code="login_mismatch"`}}},
		{"not xml", areq("PUT", "/person/alice", `<person`, aliceAuth), bad},
		{"bad email", areq("PUT", "/person/alice", `<person><login>alice</login><email>nope</email></person>`, aliceAuth), bad},
		{"self may not lock", areq("PUT", "/person/alice", `<person><login>alice</login><state>locked</state></person>`, aliceAuth), forbid},
		{"self may not become Admin", areq("PUT", "/person/alice", `<person><login>alice</login><globalrole>Admin</globalrole></person>`, aliceAuth), forbid},
		{"self edit", areq("PUT", "/person/alice", aliceDoc, aliceAuth), ok},
		{"edited", areq("GET", "/person/alice", "", aliceAuth), apitest.Expect{Status: 200, Contains: []string{"<realname>Alice New</realname>", "<email>a@x.test</email>"}}},
		{"unknown role", areq("PUT", "/person/bob", `<person><login>bob</login><globalrole>King</globalrole></person>`, adminAuth), bad},
		{"Admin creates", areq("PUT", "/person/dave", `<person><login>dave</login><email>d@x.test</email></person>`, adminAuth), ok},
		{"created", areq("GET", "/person/dave", "", adminAuth), apitest.Expect{Status: 200, Contains: []string{"<state>confirmed</state>"}}},
		{"only Admin creates", areq("PUT", "/person/erin", `<person><login>erin</login></person>`, aliceAuth), forbid},
		{"registration is off", areq("POST", "/person?cmd=register", `<unregisteredperson><login>newbie</login><email>n@example.org</email><password>secret-pw</password></unregisteredperson>`, nil),
			apitest.Expect{Status: 400, Contains: []string{`code="err_register_save"`, "Sorry, sign up is disabled"}}},
		{"password too short", cpw("alice", "short", aliceAuth), apitest.Expect{Status: 400, Contains: []string{`code="invalid_password"`}}},
		{"password of another", cpw("alice", "new-password", bobAuth), forbid},
		{"password of nobody", cpw("nobody", "new-password", adminAuth), missing},
		{"unknown command", areq("POST", "/person/alice?cmd=fly", "", aliceAuth), bad},
		{"change password (first line)", cpw("alice", "new-password\nignored", aliceAuth), ok},
		{"old password ends", areq("GET", "/about", "", aliceAuth), noAuth},
		{"new password signs in", areq("GET", "/about", "", basic("alice", "new-password")), apitest.Expect{Status: 200}},
		{"Admin sets dave's", cpw("dave", "dave-password", adminAuth), ok},
		{"dave signs in", areq("GET", "/about", "", basic("dave", "dave-password")), apitest.Expect{Status: 200}},
		{"lock is Admin's", areq("POST", "/person/dave?cmd=lock", "", basic("dave", "dave-password")), forbid},
		{"lock", areq("POST", "/person/dave?cmd=lock", "", adminAuth), ok},
		{"locked out", areq("GET", "/about", "", basic("dave", "dave-password")), apitest.Expect{Status: 403, Contains: []string{`code="inactive_user"`}}},
		{"Admin cannot be deleted", areq("POST", "/person/Admin?cmd=delete", "", adminAuth), forbid},
		{"delete", areq("POST", "/person/bob?cmd=delete", "", adminAuth), ok},
		{"deleted", areq("GET", "/person/bob", "", adminAuth), apitest.Expect{Status: 200, Contains: []string{"<state>deleted</state>"}}},
		{"delete nobody", areq("POST", "/person/nobody?cmd=delete", "", adminAuth), missing},
	})
}

func TestTokens(t *testing.T) {
	e := newEnv(t)
	created := apitest.Expect{Status: 200, Contains: []string{`<status code="ok">`, `<data name="token">`, `<data name="id">1</data>`}}
	e.run(t, []scenario{
		{"no credentials", areq("GET", "/person/alice/token", "", nil), noAuth},
		{"empty", areq("GET", "/person/alice/token", "", aliceAuth), apitest.Expect{Status: 200, Contains: []string{`<directory count="0">`}}},
		{"another person's", areq("GET", "/person/alice/token", "", bobAuth), forbid},
		{"unknown person", areq("GET", "/person/nobody/token", "", adminAuth), missing},
		{"no cmd", areq("POST", "/person/alice/token", "", aliceAuth), bad},
		{"bad operation", areq("POST", "/person/alice/token?cmd=create&operation=fly", "", aliceAuth), bad},
		{"project without package", areq("POST", "/person/alice/token?cmd=create&project=home:alice", "", aliceAuth), bad},
		{"unknown package", areq("POST", "/person/alice/token?cmd=create&project=home:alice&package=nope", "", aliceAuth), missing},
		{"create", areq("POST", "/person/alice/token?cmd=create&description=ci", "", aliceAuth), created},
		{"create for another", areq("POST", "/person/alice/token?cmd=create", "", bobAuth), forbid},
		{"listed", areq("GET", "/person/alice/token", "", adminAuth), apitest.Expect{Status: 200, Contains: []string{`<directory count="1">`,
			`id="1"`, `kind="runservice"`, `description="ci"`}}},
		{"delete another's", areq("DELETE", "/person/alice/token/1", "", bobAuth), forbid},
		{"delete from the wrong person", areq("DELETE", "/person/bob/token/1", "", bobAuth), missing},
		{"delete bad id", areq("DELETE", "/person/alice/token/x", "", aliceAuth), missing},
		{"delete", areq("DELETE", "/person/alice/token/1", "", aliceAuth), ok},
		{"gone", areq("DELETE", "/person/alice/token/1", "", aliceAuth), apitest.Expect{Status: 404, Contains: []string{`code="unknown_token"`}}},
	})
	// The list shows the secret's first 8 characters, never more.
	got := apitest.Do(t, e.app, areq("POST", "/person/alice/token?cmd=create", "", aliceAuth))
	secret := regexp.MustCompile(`<data name="token">([0-9a-f]+)</data>`).FindStringSubmatch(got.Body)
	if len(secret) != 2 || len(secret[1]) != 40 {
		t.Fatalf("create: %s", got.Body)
	}
	e.run(t, []scenario{{"prefix only", areq("GET", "/person/alice/token", "", aliceAuth),
		apitest.Expect{Status: 200, Contains: []string{`string="` + secret[1][:8] + `"`}, Excludes: []string{secret[1]}}}})
}

func TestGroupWrites(t *testing.T) {
	e := newEnv(t)
	doc := `<group><title>pocket-reviewers</title><email>r@x.test</email><maintainer userid="alice"/><person><person userid="bob"/></person></group>`
	e.run(t, []scenario{
		{"no credentials", areq("PUT", "/group/pocket-reviewers", doc, nil), noAuth},
		{"not a maintainer", areq("PUT", "/group/pocket-reviewers", doc, bobAuth), forbid},
		{"title mismatch", areq("PUT", "/group/other", doc, adminAuth), bad},
		{"unknown member", areq("PUT", "/group/pocket-reviewers", `<group><title>pocket-reviewers</title><person><person userid="nobody"/></person></group>`, aliceAuth), bad},
		{"maintainer replaces", areq("PUT", "/group/pocket-reviewers", doc, aliceAuth), ok},
		{"replaced", areq("GET", "/group/pocket-reviewers", "", bobAuth), apitest.Expect{Status: 200, Contains: []string{"<email>r@x.test</email>", `<person userid="bob">`}, Excludes: []string{"carol"}}},
		{"only Admin creates", areq("PUT", "/group/new", `<group><title>new</title></group>`, aliceAuth), forbid},
		{"Admin creates", areq("PUT", "/group/new", `<group><title>new</title></group>`, adminAuth), ok},
		{"add_user", areq("POST", "/group/pocket-reviewers?cmd=add_user&userid=carol", "", aliceAuth), ok},
		{"add_user unknown", areq("POST", "/group/pocket-reviewers?cmd=add_user&userid=nobody", "", aliceAuth), missing},
		{"add_user no userid", areq("POST", "/group/pocket-reviewers?cmd=add_user", "", aliceAuth), bad},
		{"add_user not maintainer", areq("POST", "/group/pocket-reviewers?cmd=add_user&userid=bob", "", bobAuth), forbid},
		{"remove_user", areq("POST", "/group/pocket-reviewers?cmd=remove_user&userid=bob", "", aliceAuth), ok},
		{"set_email removes", areq("POST", "/group/pocket-reviewers?cmd=set_email", "", aliceAuth), ok},
		{"after commands", areq("GET", "/group/pocket-reviewers", "", bobAuth), apitest.Expect{Status: 200, Contains: []string{`<person userid="carol">`},
			Excludes: []string{"<email>", `userid="bob"`}}},
		{"unknown command", areq("POST", "/group/pocket-reviewers?cmd=fly", "", aliceAuth), bad},
		{"unknown group", areq("POST", "/group/nope?cmd=set_email", "", adminAuth), missing},
		{"delete is Admin's", areq("DELETE", "/group/new", "", aliceAuth), forbid},
		{"delete", areq("DELETE", "/group/new", "", adminAuth), ok},
		{"delete again", areq("DELETE", "/group/new", "", adminAuth), missing},
	})
}
