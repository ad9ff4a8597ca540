package cloudapi

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

func TestUsers(t *testing.T) {
	e := newEnv(t, 0)
	long := strings.Repeat("a", 33)
	e.run(t, []scenario{
		{name: "list", req: req{path: "/v4/account/users", token: demoToken}, status: 200,
			exact:  `{"data":[{"username":"carol","email":"carol@demo.pocketforge.test","restricted":true,"ssh_keys":[],"tfa_enabled":false,"verified_phone_number":null},{"username":"demo","email":"demo@demo.pocketforge.test","restricted":false,"ssh_keys":[],"tfa_enabled":false,"verified_phone_number":null}],"page":1,"pages":1,"results":2}`,
			header: map[string]string{"X-OAuth-Scopes": "*", "X-Accepted-OAuth-Scopes": "account:read_only", "Content-Type": "application/json"}},
		{name: "list under v4beta", req: req{path: "/v4beta/account/users", token: demoToken}, status: 200, want: []string{`"results":2`}},
		{name: "list filtered", req: req{path: "/v4/account/users", token: demoToken, header: map[string]string{"X-Filter": `{"username":"demo"}`}},
			status: 200, want: []string{`"results":1`, `"username":"demo"`}},
		{name: "filter on a field that is not filterable", req: req{path: "/v4/account/users", token: demoToken, header: map[string]string{"X-Filter": `{"email":"x"}`}},
			status: 400, exact: `{"errors":[{"reason":"Cannot filter on email","field":"X-Filter"}]}`},
		{name: "malformed filter", req: req{path: "/v4/account/users", token: demoToken, header: map[string]string{"X-Filter": `{"username":`}},
			status: 400, want: []string{`"field":"X-Filter"`}},
		{name: "page size out of range", req: req{path: "/v4/account/users?page_size=10", token: demoToken}, status: 400, want: []string{`"field":"page_size"`}},
		{name: "page zero", req: req{path: "/v4/account/users?page=0", token: demoToken}, status: 400, want: []string{`"field":"page"`}},
		{name: "view", req: req{path: "/v4/account/users/carol", token: demoToken}, status: 200, want: []string{`"username":"carol"`, `"restricted":true`}},
		{name: "view is case-insensitive", req: req{path: "/v4/account/users/CAROL", token: demoToken}, status: 200, want: []string{`"username":"carol"`}},
		{name: "view missing", req: req{path: "/v4/account/users/nobody", token: demoToken}, status: 404, exact: `{"errors":[{"reason":"Not found"}]}`},
		{name: "view another account's user", req: req{path: "/v4/account/users/dave", token: demoToken}, status: 404},
		{name: "create", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":"erin","email":"erin@example.com","restricted":true,"unknown":"ignored"}`},
			status: 200, exact: `{"username":"erin","email":"erin@example.com","restricted":true,"ssh_keys":[],"tfa_enabled":false,"verified_phone_number":null}`},
		{name: "create duplicate (any case)", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":"ERIN","email":"e2@example.com"}`},
			status: 400, exact: `{"errors":[{"reason":"Username is already taken","field":"username"}]}`},
		{name: "create duplicate across accounts", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":"dave","email":"d@example.com"}`},
			status: 400, want: []string{"already taken"}},
		{name: "create missing fields", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{}`},
			status: 400, exact: `{"errors":[{"reason":"username is required","field":"username"},{"reason":"email is required","field":"email"}]}`},
		{name: "create bad values all reported", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":"a--b","email":"not-an-email"}`},
			status: 400, want: []string{`"field":"username"`, `"field":"email"`}},
		{name: "create too long", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":"` + long + `","email":"x@example.com"}`},
			status: 400, want: []string{"between 3 and 32"}},
		{name: "create wrong types", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":7,"email":["x"],"restricted":"yes"}`},
			status: 400, want: []string{`{"reason":"Must be a string","field":"username"}`, `{"reason":"Must be a string","field":"email"}`, `{"reason":"Must be a boolean","field":"restricted"}`}},
		{name: "create malformed JSON", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":`}, status: 400, want: []string{"Malformed JSON"}},
		{name: "create non-object JSON", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `["x"]`}, status: 400, want: []string{"JSON object"}},
		{name: "update email", req: req{method: "PUT", path: "/v4/account/users/erin", token: demoToken, body: `{"email":"erin2@example.com"}`},
			status: 200, want: []string{`"email":"erin2@example.com"`, `"restricted":true`}},
		{name: "update bad email", req: req{method: "PUT", path: "/v4/account/users/erin", token: demoToken, body: `{"email":"@"}`}, status: 400, want: []string{`"field":"email"`}},
		{name: "rename", req: req{method: "PUT", path: "/v4/account/users/erin", token: demoToken, body: `{"username":"erin-2"}`}, status: 200, want: []string{`"username":"erin-2"`}},
		{name: "old name gone", req: req{path: "/v4/account/users/erin", token: demoToken}, status: 404},
		{name: "rename onto a taken name", req: req{method: "PUT", path: "/v4/account/users/erin-2", token: demoToken, body: `{"username":"carol"}`}, status: 400},
		{name: "delete self", req: req{method: "DELETE", path: "/v4/account/users/demo", token: demoToken}, status: 400, want: []string{"your own user"}},
		{name: "delete", req: req{method: "DELETE", path: "/v4/account/users/erin-2", token: demoToken}, status: 200, exact: `{}`},
		{name: "deleted", req: req{path: "/v4/account/users/erin-2", token: demoToken}, status: 404},
	})
	// The welcome e-mail with a password-setup link, and the events.
	e.db.View(func(tx kv.Tx) error {
		mails, _ := outbox.List(tx, "erin@example.com", 0)
		if len(mails) != 1 || !strings.Contains(mails[0].Body, "http://pocketforge.test/oauth/password-setup?token=") {
			t.Errorf("welcome mail: %+v", mails)
		}
		acct, _ := cloudstore.AccountByName(tx, "demo")
		events, _ := cloudstore.AccountEvents(tx, acct.ID)
		var actions []string
		for _, ev := range events {
			actions = append(actions, ev.Action)
		}
		if strings.Join(actions, " ") != "user_create user_update user_update user_delete" {
			t.Errorf("events %v", actions)
		}
		return nil
	})
}

// TestRestrictAndDeleteUser: a newly restricted user has no grants; a deleted user's tokens stop
// working at once.
func TestRestrictAndDeleteUser(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{
		{name: "create unrestricted", req: req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":"frank","email":"frank@example.com"}`}, status: 200},
		{name: "unrestricted has no grants", req: req{path: "/v4/account/users/frank/grants", token: demoToken}, status: 204, exact: ""},
		{name: "restrict", req: req{method: "PUT", path: "/v4/account/users/frank", token: demoToken, body: `{"restricted":true}`}, status: 200},
		{name: "restricted starts with none", req: req{path: "/v4/account/users/frank/grants", token: demoToken}, status: 200,
			want: []string{`"account_access":null`, `{"id":1,"label":"web-1","permissions":null}`}},
	})
	frank := e.token(t, "frank", "*", nil)
	e.run(t, []scenario{
		{name: "frank's token works", req: req{path: "/v4/profile", token: frank}, status: 200},
		{name: "delete frank", req: req{method: "DELETE", path: "/v4/account/users/frank", token: demoToken}, status: 200},
		{name: "frank is logged out", req: req{path: "/v4/profile", token: frank}, status: 401, exact: `{"errors":[{"reason":"Invalid Token"}]}`},
	})
}
