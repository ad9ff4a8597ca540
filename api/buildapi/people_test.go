package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

func TestAuthentication(t *testing.T) {
	e := newEnv(t)
	about := func(h map[string]string) apitest.Request { return apitest.Request{Path: "/about", Header: h} }
	challenge := apitest.Expect{Status: 401, Exact: `<status code="authentication_required"><summary>Authentication required</summary></status>`,
		Header: map[string]string{"WWW-Authenticate": `Basic realm="API login"`, "X-Opensuse-Errorcode": "authentication_required"}}
	e.run(t, []scenario{
		{"no credentials: the challenge osc waits for", about(nil), challenge},
		{"wrong password", about(basic("Admin", "nope")), challenge},
		{"unknown person", about(basic("mallory", "x")), challenge},
		{"not Basic", about(map[string]string{"Authorization": "Bearer x"}), challenge},
		{"garbage Basic", about(map[string]string{"Authorization": "Basic !!!"}), challenge},
		{"Admin with --admin-password", about(basic("Admin", adminPassword)),
			apitest.Expect{Status: 200, Contains: []string{"<about>", "<revision>2.7</revision>"}}},
		{"a packager", about(basic("alice", "alice-password")), apitest.Expect{Status: 200}},
	})
	// A session cookie spares the next challenge.
	got := apitest.Do(t, e.app, about(basic("bob", "bob-password")))
	cookie := got.Header.Get("Set-Cookie")
	if cookie == "" {
		t.Fatal("no session cookie")
	}
	e.run(t, []scenario{{"the session cookie signs in", about(map[string]string{"Cookie": cookie[:len("openSUSE_session=")+48]}), apitest.Expect{Status: 200}}})
	// A locked person cannot sign in, even with a remembered password: the real service's 403
	// inactive_user, not the challenge (that stays for a wrong password).
	e.db.Write(func(tx kv.Tx) error {
		p, _ := buildstore.GetPerson(tx, "alice")
		p.State = buildstore.StateLocked
		return buildstore.PutPerson(tx, p)
	})
	e.run(t, []scenario{
		{"locked", about(basic("alice", "alice-password")), apitest.Expect{Status: 403, Contains: []string{`<status code="inactive_user">`},
			Header: map[string]string{"X-Opensuse-Errorcode": "inactive_user", "WWW-Authenticate": ""}}},
		{"locked, wrong password", about(basic("alice", "nope")), challenge},
	})
}

func TestInstanceAndPeople(t *testing.T) {
	e := newEnv(t)
	admin := basic("Admin", adminPassword)
	get := func(path string) apitest.Request { return apitest.Request{Path: path, Header: admin} }
	e.run(t, []scenario{
		{"architectures", get("/architectures"), apitest.Expect{Status: 200, Contains: []string{`<directory count="35">`, `<entry name="x86_64"></entry>`, `<entry name="aarch64"></entry>`}}},
		{"one architecture", get("/architectures/riscv64"), apitest.Expect{Status: 200, Contains: []string{`<architecture name="riscv64"></architecture>`}}},
		{"unknown architecture", get("/architectures/z80"), apitest.Expect{Status: 404, Contains: []string{`code="unknown_architecture"`}}},
		{"person", get("/person/alice"), apitest.Expect{Status: 200, Contains: []string{"<login>alice</login>", "<email>alice@pocketforge.test</email>",
			"<realname>Alice Packager</realname>", "<state>confirmed</state>"}, Excludes: []string{"password"}}},
		{"Admin has the Admin role", get("/person/Admin"), apitest.Expect{Status: 200, Contains: []string{"<globalrole>Admin</globalrole>"}}},
		{"unknown person", get("/person/nobody"), apitest.Expect{Status: 404, Contains: []string{`<status code="not_found">`, "<summary>Couldn't find User with login = nobody</summary>"}}},
		{"groups", get("/group"), apitest.Expect{Status: 200, Contains: []string{`<directory count="1">`, `<entry name="pocket-reviewers">`}}},
		{"groups of a person", get("/group?login=bob"), apitest.Expect{Status: 200, Contains: []string{`<directory count="0">`}}},
		{"group", get("/group/pocket-reviewers"), apitest.Expect{Status: 200, Contains: []string{"<title>pocket-reviewers</title>",
			`<maintainer userid="alice"></maintainer>`, `<person userid="carol"></person>`}}},
		{"unknown group", get("/group/nope"), apitest.Expect{Status: 404}},
	})
}
