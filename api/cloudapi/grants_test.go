package cloudapi

import "testing"

func TestGrants(t *testing.T) {
	e := newEnv(t, 0)
	path := "/v4/account/users/carol/grants"
	e.run(t, []scenario{
		{name: "view", req: req{path: path, token: demoToken}, status: 200,
			exact: `{"balancer":[],"domain":[],"global":{"account_access":"read_only","add_instances":false,"add_balancers":false,"add_databases":true,"add_domains":false,"add_monitoring":false,"add_scripts":false,"monitoring_subscription":false,"add_images":false,"add_volumes":false,"add_firewalls":false,"cancel_account":false},"image":[],"instance":[{"id":1,"label":"web-1","permissions":"read_write"},{"id":2,"label":"web-2","permissions":"read_only"},{"id":3,"label":"worker-1","permissions":null},{"id":4,"label":"batch-1","permissions":null},{"id":5,"label":"edge-1","permissions":null}],"monitoring":[],"script":[],"volume":[]}`},
		{name: "unrestricted user: 204, no body", req: req{path: "/v4/account/users/demo/grants", token: demoToken}, status: 204, exact: ""},
		{name: "change only what is sent", req: req{method: "PUT", path: path, token: demoToken,
			body: `{"global":{"add_volumes":true,"add_linodes":true},"instance":[{"id":3,"permissions":"read_only"}]}`}, status: 200,
			want: []string{`"account_access":"read_only"`, `"add_databases":true`, `"add_volumes":true`, `"add_instances":false`,
				`{"id":1,"label":"web-1","permissions":"read_write"}`, `{"id":3,"label":"worker-1","permissions":"read_only"}`}},
		{name: "remove access with null, account_access to read_write", req: req{method: "PUT", path: path, token: demoToken,
			body: `{"global":{"account_access":"read_write"},"instance":[{"id":1,"permissions":null}]}`}, status: 200,
			want: []string{`"account_access":"read_write"`, `{"id":1,"label":"web-1","permissions":null}`, `"add_volumes":true`}},
		{name: "account_access null", req: req{method: "PUT", path: path, token: demoToken, body: `{"global":{"account_access":null}}`},
			status: 200, want: []string{`"account_access":null`}},
		{name: "bad values all reported", req: req{method: "PUT", path: path, token: demoToken,
			body: `{"global":{"account_access":"admin","add_images":"yes"},"instance":[{"id":3,"permissions":"owner"},{"id":99,"permissions":"read_only"},{"permissions":"read_only"}]}`},
			status: 400, want: []string{`"field":"global.add_images"`, `"field":"global.account_access"`, `"field":"instance[0].permissions"`, `"field":"instance[1].id"`, `"field":"instance[2].id"`}},
		{name: "another account's instance", req: req{method: "PUT", path: path, token: demoToken, body: `{"instance":[{"id":6,"permissions":"read_only"}]}`},
			status: 400, want: []string{`"field":"instance[0].id"`}},
		{name: "array of the wrong type", req: req{method: "PUT", path: path, token: demoToken, body: `{"instance":{"id":1}}`}, status: 400, want: []string{`"field":"instance"`}},
		{name: "grants of an unrestricted user cannot be set", req: req{method: "PUT", path: "/v4/account/users/demo/grants", token: demoToken, body: `{"global":{"add_images":true}}`}, status: 400},
		{name: "another account's user", req: req{path: "/v4/account/users/dave/grants", token: demoToken}, status: 404},
		{name: "profile grants of a restricted user", req: req{path: "/v4/profile/grants", token: carolToken}, status: 200, want: []string{`"instance":[`}},
		{name: "profile grants of an unrestricted user", req: req{path: "/v4/profile/grants", token: demoToken}, status: 204},
	})
}
