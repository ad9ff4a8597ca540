package cloudapi

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// dbEndpoint is one database route with a body that gets past validation, and what the
// restricted user carol gets on it: she holds read_only on catalog-doc only.
type dbEndpoint struct {
	method, path, body string
	level              string // the scope level it needs
	carolOnDoc         int    // carol on catalog-doc
}

// TestDatabaseAuthorization: no token 401, a token without the databases scope (or with only
// read_only where read_write is needed) 403, restricted users per their database grants (an
// invisible database is 404, a read-only one 403 for changes), delete and credentials reset for
// unrestricted users only, another account's database 404.
func TestDatabaseAuthorization(t *testing.T) {
	e := newEnv(t, 0)
	noScope := e.token(t, "demo", "account:read_write events:read_write", nil)
	readOnly := e.token(t, "demo", "databases:read_only", nil)
	doc := func(rest string) string { return dbPath("docdb", catalogDoc, rest) }
	endpoints := []dbEndpoint{
		{"GET", doc(""), "", "read_only", 200},
		{"PUT", doc(""), `{"label":"catalog-two"}`, "read_write", 403},
		{"DELETE", doc(""), "", "read_write", 403},
		{"GET", doc("/backups"), "", "read_write", 200},
		{"POST", doc("/backups"), `{"label":"authz"}`, "read_write", 403},
		{"GET", doc("/backups/9"), "", "read_write", 200},
		{"DELETE", doc("/backups/9"), "", "read_write", 403},
		{"POST", doc("/backups/9/restore"), "", "read_write", 403},
		{"GET", doc("/credentials"), "", "read_only", 200},
		{"POST", doc("/credentials/reset"), "", "read_write", 403},
		{"GET", doc("/ssl"), "", "read_only", 200},
		{"POST", doc("/patch"), "", "read_write", 403},
	}
	for _, ep := range endpoints {
		r := func(token string) req { return req{method: ep.method, path: ep.path, body: ep.body, token: token} }
		other := r(daveToken)
		other.path = strings.Replace(ep.path, fmt.Sprint(catalogDoc), fmt.Sprint(partnerPG), 1)
		hidden := r(carolToken)
		hidden.path = strings.Replace(strings.Replace(ep.path, "docdb", "sqldb", 1), fmt.Sprintf("/%d", catalogDoc), fmt.Sprintf("/%d", ordersSQL), 1)
		list := []scenario{
			{name: "no token", req: r(""), status: 401, exact: `{"errors":[{"reason":"Invalid Token"}]}`},
			{name: "no databases scope", req: r(noScope), status: 403, header: map[string]string{"X-Accepted-OAuth-Scopes": "databases:" + ep.level}},
			{name: "carol on catalog-doc", req: r(carolToken), status: ep.carolOnDoc},
			{name: "carol on orders-sql (no grant)", req: hidden, status: map[bool]int{true: 403, false: 404}[ep.method == "DELETE" && !strings.Contains(ep.path, "backups") || strings.HasSuffix(ep.path, "/reset")]},
			{name: "the partner on the demo's", req: r(daveToken), status: 404},
			{name: "docdb path to the partner's sqldb", req: other, status: 404},
		}
		if ep.level == "read_only" {
			list = append(list, scenario{name: "read-only scope", req: r(readOnly), status: 200})
		} else {
			list = append(list, scenario{name: "read-only scope", req: r(readOnly), status: 403})
		}
		t.Run(ep.method+" "+ep.path, func(t *testing.T) { e.run(t, list) })
	}
	e.run(t, []scenario{
		{name: "carol's lists", req: req{path: "/v4/databases/sqldb/instances", token: carolToken}, status: 200, exact: `{"data":[],"page":1,"pages":1,"results":0}`},
		{name: "carol's docdb list", req: req{path: "/v4/databases/docdb/instances", token: carolToken}, status: 200, want: []string{`"results":1`, "catalog-doc"}},
		{name: "lists need the scope", req: req{path: "/v4/databases/instances", token: noScope}, status: 403},
		{name: "lists need a token", req: req{path: "/v4/databases/sqldb/instances"}, status: 401},
		{name: "a databases:read_write token may delete", req: req{method: "DELETE", path: dbPath("sqldb", legacySQL, ""), token: e.token(t, "demo", "databases:read_write", nil)}, status: 200},
	})
}

// TestRestrictedCreator: a restricted user who creates a database holds read_write on it — but
// deleting it or resetting its credentials stays for unrestricted users.
func TestRestrictedCreator(t *testing.T) {
	e := newEnv(t, 0)
	r := e.do(t, req{method: "POST", path: "/v4/databases/sqldb/instances", token: carolToken, body: createBody("label", `"carols-db"`)})
	if r.Status != 200 {
		t.Fatal(r.Body)
	}
	e.at(time.Minute)
	mine := func(method, rest, body string) req {
		return req{method: method, path: dbPath("sqldb", 6, rest), token: carolToken, body: body}
	}
	e.run(t, []scenario{
		{name: "view", req: mine("GET", "", ""), status: 200},
		{name: "update", req: mine("PUT", "", `{"label":"carols-db2"}`), status: 200},
		{name: "delete", req: mine("DELETE", "", ""), status: 403},
		{name: "reset", req: mine("POST", "/credentials/reset", ""), status: 403},
		{name: "carol sees her event", req: req{path: "/v4/account/events", token: carolToken, header: xfilter(`{"action":"database_create"}`)}, status: 200, want: []string{`"results":1`}},
		{name: "the owner deletes it", req: req{method: "DELETE", path: dbPath("sqldb", 6, ""), token: demoToken}, status: 400, want: []string{"updating"}},
	})
	e.at(2 * time.Minute)
	e.run(t, []scenario{
		{name: "the owner deletes it", req: req{method: "DELETE", path: dbPath("sqldb", 6, ""), token: demoToken}, status: 200},
		{name: "carol's grant went with it", req: req{path: "/v4/databases/instances", token: carolToken}, status: 200, want: []string{`"results":1`}},
	})
}

// TestConcurrentDatabaseChanges: a PUT and a patch sent together on one active database —
// exactly one succeeds; the other sees it updating and gets a 400.
func TestConcurrentDatabaseChanges(t *testing.T) {
	e := newEnv(t, 0)
	for round := 0; round < 10; round++ {
		e.at(time.Duration(round) * time.Hour)
		reqs := []struct{ method, path, body string }{
			{"PUT", dbPath("sqldb", ordersSQL, ""), fmt.Sprintf(`{"label":"orders-%d"}`, round)},
			{"POST", dbPath("sqldb", ordersSQL, "/patch"), `{}`},
			{"POST", dbPath("sqldb", ordersSQL, "/backups"), `{"label":"race"}`},
		}
		statuses := make([]int, len(reqs))
		var wg sync.WaitGroup
		for i, r := range reqs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				hr := httptest.NewRequest(r.method, r.path, strings.NewReader(r.body))
				hr.Header.Set("Authorization", "Bearer "+demoToken)
				hr.Header.Set("Content-Type", "application/json")
				if resp, err := e.app.Test(hr, -1); err == nil {
					statuses[i] = resp.StatusCode
				}
			}()
		}
		wg.Wait()
		ok, refused := 0, 0
		for _, s := range statuses {
			switch s {
			case 200:
				ok++
			case 400:
				refused++
			}
		}
		if ok != 1 || refused != len(reqs)-1 {
			t.Fatalf("round %d: statuses %v, want one 200 and the rest 400", round, statuses)
		}
	}
}

// TestDatabaseCredentialsReadOnlyGrant: the credentials view needs only read_only, as the
// reference marks it (x-linode-grant: read_only on every family's credentials view, "the root
// username and password for an accessible database"): carol, read_only on catalog-doc, reads
// the same root password as the owner, also after a reset she may not do herself.
func TestDatabaseCredentialsReadOnlyGrant(t *testing.T) {
	e := newEnv(t, 0)
	creds := func(token string) string {
		t.Helper()
		r := e.do(t, req{path: dbPath("mongodb", catalogDoc, "/credentials"), token: token})
		if r.Status != 200 {
			t.Fatalf("credentials: %d %s", r.Status, r.Body)
		}
		return r.Body
	}
	if owner, carol := creds(demoToken), creds(carolToken); carol != owner || !strings.Contains(carol, `"username":"linroot"`) {
		t.Fatalf("carol %s, the owner %s", carol, owner)
	}
	e.run(t, []scenario{
		{name: "carol may not reset", req: req{method: "POST", path: dbPath("docdb", catalogDoc, "/credentials/reset"), token: carolToken}, status: 403},
		{name: "the owner resets", req: req{method: "POST", path: dbPath("docdb", catalogDoc, "/credentials/reset"), token: demoToken}, status: 200},
	})
	if owner, carol := creds(demoToken), creds(carolToken); carol != owner {
		t.Fatalf("after the reset: carol %s, the owner %s", carol, owner)
	}
}
