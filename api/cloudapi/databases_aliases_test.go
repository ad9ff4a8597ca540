package cloudapi

import (
	"strings"
	"testing"
)

// TestDatabaseFamilyAliases: the real service's path names (mysql, postgresql for the seed's
// sqldb; mongodb for docdb) answer exactly as the seed's paths do, under both prefixes, with the
// seed's names in the answer; mongodb, like docdb, has no create; an alias is no way around a
// guard.
func TestDatabaseFamilyAliases(t *testing.T) {
	e := newEnv(t, 0)
	same := func(alias, seed string) {
		t.Helper()
		a, s := e.do(t, req{path: alias, token: demoToken}), e.do(t, req{path: seed, token: demoToken})
		if a.Status != 200 || a.Status != s.Status || a.Body != s.Body {
			t.Errorf("%s: %d %s\n%s: %d %s", alias, a.Status, a.Body, seed, s.Status, s.Body)
		}
	}
	same("/v4/databases/mysql/instances", "/v4/databases/sqldb/instances")
	same("/v4beta/databases/postgresql/instances", "/v4beta/databases/sqldb/instances")
	same("/v4/databases/mongodb/instances", "/v4/databases/docdb/instances")
	same(dbPath("mysql", ordersSQL, ""), dbPath("sqldb", ordersSQL, ""))
	same(dbPath("postgresql", reportsPG, ""), dbPath("sqldb", reportsPG, ""))
	same("/v4beta/databases/mongodb/instances/2", "/v4beta/databases/docdb/instances/2")
	same(dbPath("mysql", ordersSQL, "/backups"), dbPath("sqldb", ordersSQL, "/backups"))
	same(dbPath("mongodb", catalogDoc, "/ssl"), dbPath("docdb", catalogDoc, "/ssl"))
	if r := e.do(t, req{path: dbPath("mysql", ordersSQL, ""), token: demoToken}); !strings.Contains(r.Body, `"id":1,"label":"orders-sql"`) {
		t.Errorf("the answer keeps the seed's id: %s", r.Body)
	}
	if r := e.do(t, req{path: "/v4/databases/instances", token: demoToken}); !strings.Contains(r.Body, `"instance_uri":"/v4/databases/sqldb/instances/1"`) {
		t.Errorf("the answer keeps the seed's names: %s", r.Body)
	}
	e.run(t, []scenario{
		{name: "create through mysql", req: req{method: "POST", path: "/v4/databases/mysql/instances", token: demoToken, body: createBody()}, status: 200,
			want: []string{`"engine":"mysql"`, `"status":"provisioning"`}},
		{name: "create through postgresql", req: req{method: "POST", path: "/v4beta/databases/postgresql/instances", token: demoToken,
			body: createBody("label", `"pg-new"`, "engine", `"postgresql/13.2"`)}, status: 200, want: []string{`"engine":"postgresql"`}},
		{name: "no mongodb create", req: req{method: "POST", path: "/v4/databases/mongodb/instances", token: demoToken, body: createBody("engine", `"mongodb/4.4.10"`)}, status: 405,
			exact: `{"errors":[{"reason":"Method Not Allowed"}]}`},
		{name: "the family still matters", req: req{path: dbPath("mongodb", ordersSQL, ""), token: demoToken}, status: 404},
		{name: "not a family", req: req{path: dbPath("redis", ordersSQL, ""), token: demoToken}, status: 404},
		{name: "credentials reset stays unrestricted only", req: req{method: "POST", path: dbPath("mongodb", catalogDoc, "/credentials/reset"), token: carolToken}, status: 403},
		{name: "read-only grant cannot update", req: req{method: "PUT", path: dbPath("mongodb", catalogDoc, ""), token: carolToken, body: `{}`}, status: 403},
		{name: "no token", req: req{path: dbPath("mysql", ordersSQL, "/credentials")}, status: 401},
		{name: "scope named", req: req{path: dbPath("postgresql", ordersSQL, "/credentials"), token: demoToken}, status: 200,
			header: map[string]string{"X-Accepted-OAuth-Scopes": "databases:read_only"}},
	})
}
