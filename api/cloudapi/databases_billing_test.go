package cloudapi

import (
	"strings"
	"testing"
	"time"
)

// TestDatabaseInvoiced: a database created through the API is on the next invoice, billed by
// the hour at its type's price for its cluster size; the demo world's own are complimentary.
func TestDatabaseInvoiced(t *testing.T) {
	e := newEnv(t, 0)
	e.runJobs()
	e.run(t, []scenario{{name: "create", req: req{method: "POST", path: "/v4/databases/sqldb/instances", token: demoToken,
		body: createBody("cluster_size", `3`)}, status: 200}})
	e.clock.Set(time.Date(2026, 12, 1, 0, 0, 30, 0, time.UTC))
	e.runJobs()
	inv := lastInvoice(t, e, 1)
	var found []string
	for _, it := range inv.Items {
		if strings.HasPrefix(it.Label, "Managed Database") {
			found = append(found, it.Label)
			// Nov 22 12:00 → Dec 1 00:00: 204 hours × $0.0525 (g6-nanode-1, 3 nodes) = $10.71.
			if it.Quantity != 204 || it.AmountCents != 1071 || it.UnitPrice != "0.0525" || it.Region != "eu-west" || it.Type != "hourly" {
				t.Errorf("item: %+v", it)
			}
		}
	}
	if strings.Join(found, ",") != "Managed Database new-db (g6-nanode-1, 3 nodes)" {
		t.Fatalf("database items: %v (the demo's complimentary ones must not be billed)", found)
	}
}

// TestDatabaseHostileInput sends hostile bodies to every database endpoint that reads one: each
// gets a 4xx (or succeeds), never a 5xx.
func TestDatabaseHostileInput(t *testing.T) {
	e := newEnv(t, 0)
	bodies := []string{
		`null`, `[]`, `"str"`, `42`, `{"label":{}}`, `{"label":null,"engine":null}`, `{"allow_list":[null,{},[]]}`,
		`{"updates":null}`, `{"updates":{"week_of_month":{},"frequency":1}}`, `{"cluster_size":1e30}`, `{"cluster_size":-1}`,
		`{"allow_list":["` + strings.Repeat("1", 5000) + `"]}`, strings.Repeat("[", 20000), "\x00\xff garbage",
		`{"label":"` + strings.Repeat("é", 5000) + `"}`, `{"target":[],"label":"ok-label"}`, `{"a":1,"a":2}`,
		`{"label":"x.y","engine":"mysql/8.0.26","type":"g6-nanode-1","region":"us-east","allow_list":["::/0","0.0.0.0/0"]}`,
	}
	paths := []struct{ method, path string }{
		{"POST", "/v4/databases/sqldb/instances"}, {"PUT", dbPath("sqldb", ordersSQL, "")}, {"PUT", dbPath("docdb", catalogDoc, "")},
		{"POST", dbPath("sqldb", ordersSQL, "/backups")}, {"POST", dbPath("sqldb", ordersSQL, "/patch")},
		{"POST", dbPath("sqldb", ordersSQL, "/backups/1/restore")}, {"POST", dbPath("sqldb", ordersSQL, "/credentials/reset")},
	}
	for _, p := range paths {
		for _, b := range bodies {
			e.clock.Advance(time.Hour) // whatever a body started is over before the next
			if r := e.do(t, req{method: p.method, path: p.path, token: demoToken, body: b}); r.Status >= 500 {
				t.Errorf("%s %s with %.40q: %d %s", p.method, p.path, b, r.Status, r.Body)
			}
		}
	}
}
