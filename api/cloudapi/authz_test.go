package cloudapi

import (
	"fmt"
	"testing"
	"time"
)

// endpoint is one route of this API, with a body good enough to get past validation.
type endpoint struct {
	method, path, body string
	public             bool
	anyToken           bool   // any valid token may call it (the caller's own profile)
	carol              int    // status for carol (restricted, account_access read_only, no user grants)
	area               string // the scope area it needs
}

// TestAuthorizationMatrix runs every endpoint of the cloud identity API with: no token, an unknown
// token, an expired token, a token without the needed scope, the restricted user carol, and the
// partner account's owner reaching for the demo account's resources.
func TestAuthorizationMatrix(t *testing.T) {
	e := newEnv(t, 0)
	past := start.Add(-time.Minute)
	expired := e.token(t, "demo", "*", &past)
	wrongScope := e.token(t, "demo", "events:read_write", nil)
	readOnly := e.token(t, "demo", "account:read_only", nil)
	carolTok := e.do(t, req{method: "POST", path: "/v4/profile/tokens", token: carolToken, body: `{"label":"m"}`})
	var ct tokenView
	decode(t, carolTok.Body, &ct)

	endpoints := []endpoint{
		{method: "GET", path: "/v4/account/users", carol: 403, area: "account"},
		{method: "POST", path: "/v4/account/users", body: `{"username":"matrix1","email":"m@example.com"}`, carol: 403, area: "account"},
		{method: "GET", path: "/v4/account/users/demo", carol: 403, area: "account"},
		{method: "PUT", path: "/v4/account/users/carol", body: `{}`, carol: 403, area: "account"},
		{method: "DELETE", path: "/v4/account/users/nobody", carol: 403, area: "account"},
		{method: "GET", path: "/v4/account/users/carol/grants", carol: 403, area: "account"},
		{method: "PUT", path: "/v4/account/users/carol/grants", body: `{}`, carol: 403, area: "account"},
		{method: "GET", path: "/v4/account/oauth-clients", carol: 200, area: "account"},
		{method: "POST", path: "/v4/account/oauth-clients", body: `{"label":"m","redirect_uri":"https://m.example.com"}`, carol: 403, area: "account"},
		{method: "GET", path: "/v4/account/oauth-clients/" + cliClient, carol: 200, area: "account"},
		{method: "PUT", path: "/v4/account/oauth-clients/" + cliClient, body: `{}`, carol: 403, area: "account"},
		{method: "DELETE", path: "/v4/account/oauth-clients/0000000000000000000f", carol: 403, area: "account"},
		{method: "POST", path: "/v4/account/oauth-clients/0000000000000000000f/reset-secret", carol: 403, area: "account"},
		{method: "PUT", path: "/v4/account/oauth-clients/0000000000000000000f/thumbnail", carol: 403, area: "account"},
		{method: "GET", path: "/v4/account/oauth-clients/" + cliClient + "/thumbnail", public: true},
		{method: "GET", path: "/v4/profile", anyToken: true, carol: 200},
		{method: "GET", path: "/v4/profile/grants", anyToken: true, carol: 200},
		{method: "GET", path: "/v4/profile/tokens", carol: 200, area: "account"},
		{method: "POST", path: "/v4/profile/tokens", body: `{"label":"m","scopes":"account:read_only"}`, carol: 200, area: "account"},
		{method: "GET", path: fmt.Sprintf("/v4/profile/tokens/%d", ct.ID), carol: 200, area: "account"},
		{method: "PUT", path: fmt.Sprintf("/v4/profile/tokens/%d", ct.ID), body: `{"label":"n"}`, carol: 200, area: "account"},
		{method: "DELETE", path: "/v4/profile/tokens/999999", carol: 404, area: "account"},
	}
	for _, ep := range endpoints {
		name := ep.method + " " + ep.path
		r := func(token string) req { return req{method: ep.method, path: ep.path, body: ep.body, token: token} }
		var list []scenario
		if ep.public {
			list = append(list, scenario{name: name + " needs no token", req: r(""), status: 404}) // the demo client has no thumbnail
		} else {
			list = append(list,
				scenario{name: name + " without a token", req: r(""), status: 401, exact: `{"errors":[{"reason":"Invalid Token"}]}`},
				scenario{name: name + " with an unknown token", req: r("nope"), status: 401},
				scenario{name: name + " with an expired token", req: r(expired), status: 401},
				scenario{name: name + " as restricted carol", req: r(carolToken), status: ep.carol},
			)
			if !ep.anyToken {
				list = append(list, scenario{name: name + " without the scope", req: r(wrongScope), status: 403,
					exact: `{"errors":[{"reason":"Unauthorized"}]}`, header: map[string]string{"X-Accepted-OAuth-Scopes": acceptedFor(ep), "X-OAuth-Scopes": "events:read_write"}})
				if ep.method != "GET" {
					list = append(list, scenario{name: name + " with a read-only scope", req: r(readOnly), status: 403})
				}
			}
		}
		e.run(t, list)
	}
	// The partner account sees none of the demo account's resources.
	e.run(t, []scenario{
		{name: "other account's user", req: req{path: "/v4/account/users/carol", token: daveToken}, status: 404},
		{name: "other account's user update", req: req{method: "PUT", path: "/v4/account/users/carol", token: daveToken, body: `{"email":"x@example.com"}`}, status: 404},
		{name: "other account's user delete", req: req{method: "DELETE", path: "/v4/account/users/demo", token: daveToken}, status: 404},
		{name: "other account's grants", req: req{path: "/v4/account/users/carol/grants", token: daveToken}, status: 404},
		{name: "other account's users list", req: req{path: "/v4/account/users", token: daveToken}, status: 200, want: []string{`"results":1`, `"username":"dave"`}},
		{name: "other account's client", req: req{path: "/v4/account/oauth-clients/" + cliClient, token: daveToken}, status: 404},
		{name: "other account's client reset", req: req{method: "POST", path: "/v4/account/oauth-clients/" + cliClient + "/reset-secret", token: daveToken}, status: 404},
		{name: "other user's token", req: req{path: fmt.Sprintf("/v4/profile/tokens/%d", ct.ID), token: daveToken}, status: 404},
		{name: "other user's token delete", req: req{method: "DELETE", path: fmt.Sprintf("/v4/profile/tokens/%d", ct.ID), token: daveToken}, status: 404},
	})
}

func acceptedFor(ep endpoint) string {
	if ep.method == "GET" {
		return ep.area + ":read_only"
	}
	return ep.area + ":read_write"
}
