package cloudapi

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// restrictedUser adds a restricted user to the demo account with the given global grants and
// returns an all-scopes token of theirs.
func (e *env) restrictedUser(t *testing.T, name string, global cloudstore.GlobalGrants) string {
	t.Helper()
	err := e.db.Write(func(tx kv.Tx) error {
		u, err := cloudsvc.AddUser(tx, 1, cloudstore.NewUser{Username: name, Email: name + "@example.com", Restricted: true}, start)
		if err != nil {
			return err
		}
		_, err = cloudsvc.SetGrants(tx, u, &global, nil)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return e.token(t, name, "*", nil)
}

// TestDatabaseCreate: every wrong field of a sqldb create is reported at once, on its field;
// a good one answers the database provisioning; docdb has no create route.
func TestDatabaseCreate(t *testing.T) {
	e := newEnv(t, 0)
	post := func(body string) req {
		return req{method: "POST", path: "/v4/databases/sqldb/instances", token: demoToken, body: body}
	}
	readOnly := e.token(t, "demo", "databases:read_only", nil)
	erin := e.restrictedUser(t, "erin", cloudstore.GlobalGrants{})
	e.run(t, []scenario{
		{name: "nothing sent", req: post(`{}`), status: 400, exact: `{"errors":[{"reason":"label is required","field":"label"},` +
			`{"reason":"engine is required","field":"engine"},{"reason":"type is required","field":"type"},{"reason":"region is required","field":"region"}]}`},
		{name: "no body", req: post(``), status: 400, want: []string{`"field":"label"`, `"field":"region"`}},
		{name: "not JSON", req: post(`{"label":`), status: 400, want: []string{"Malformed JSON"}},
		{name: "not an object", req: post(`[]`), status: 400, want: []string{"JSON object"}},
		{name: "label too short", req: post(createBody("label", `"db"`)), status: 400, exact: `{"errors":[{"reason":"Label must be 3-32 characters","field":"label"}]}`},
		{name: "label too long", req: post(createBody("label", `"`+strings.Repeat("a", 33)+`"`)), status: 400, want: []string{"3-32"}},
		{name: "label with doubled dashes", req: post(createBody("label", `"my--db"`)), status: 400, want: []string{"in a row", `"field":"label"`}},
		{name: "label not a string", req: post(createBody("label", `42`)), status: 400, exact: `{"errors":[{"reason":"Must be a string","field":"label"}]}`},
		{name: "label taken", req: post(createBody("label", `"orders-sql"`)), status: 400,
			exact: `{"errors":[{"reason":"A database labeled \"orders-sql\" already exists on this account","field":"label"}]}`},
		{name: "label taken in another case", req: post(createBody("label", `"Orders-SQL"`)), status: 400, want: []string{"already exists"}},
		{name: "unknown engine", req: post(createBody("engine", `"mysql/9.0"`)), status: 400,
			exact: `{"errors":[{"reason":"Must be one of mysql/5.7.30, mysql/8, mysql/8.0.26, postgresql/13, postgresql/13.2, postgresql/14, postgresql/14.6, postgresql/15, postgresql/16, postgresql/17","field":"engine"}]}`},
		{name: "engine without version", req: post(createBody("engine", `"mysql"`)), status: 400, want: []string{`"field":"engine"`}},
		{name: "docdb engine", req: post(createBody("engine", `"mongodb/4.4.10"`)), status: 400,
			exact: `{"errors":[{"reason":"mongodb/4.4.10 is a document engine: new docdb databases cannot be created","field":"engine"}]}`},
		{name: "unknown type", req: post(createBody("type", `"g6-huge"`)), status: 400, want: []string{`does not exist`, `"field":"type"`}},
		{name: "deprecated type", req: post(createBody("type", `"g5-standard-1"`)), status: 400, want: []string{"deprecated", `"field":"type"`}},
		{name: "unknown region", req: post(createBody("region", `"mars-1"`)), status: 400,
			exact: `{"errors":[{"reason":"Must be one of us-east, us-west, eu-west, eu-central, ap-south","field":"region"}]}`},
		{name: "cluster of 2", req: post(createBody("cluster_size", `2`)), status: 400, exact: `{"errors":[{"reason":"Must be one of 1, 3","field":"cluster_size"}]}`},
		{name: "cluster size as text", req: post(createBody("cluster_size", `"3"`)), status: 400, exact: `{"errors":[{"reason":"Must be an integer","field":"cluster_size"}]}`},
		{name: "replication on one node", req: post(createBody("replication_type", `"asynch"`)), status: 400,
			exact: `{"errors":[{"reason":"Must be none for a single-node cluster","field":"replication_type"}]}`},
		{name: "no replication on three", req: post(createBody("cluster_size", `3`, "replication_type", `"none"`)), status: 400, want: []string{"high availability"}},
		{name: "unknown replication", req: post(createBody("replication_type", `"sync"`)), status: 400, want: []string{"Must be one of none, asynch, semi_synch"}},
		{name: "commit type on mysql", req: post(createBody("replication_commit_type", `"on"`)), status: 400, want: []string{`"field":"replication_commit_type"`}},
		{name: "commit type local on semi_synch", req: post(createBody("engine", `"postgresql/14.6"`, "cluster_size", `3`, "replication_commit_type", `"local"`)), status: 400,
			exact: `{"errors":[{"reason":"Must be one of on, remote_write, remote_apply for replication_type semi_synch","field":"replication_commit_type"}]}`},
		{name: "encrypted not a boolean", req: post(createBody("encrypted", `"yes"`)), status: 400, exact: `{"errors":[{"reason":"Must be a boolean","field":"encrypted"}]}`},
		{name: "allow_list not a list", req: post(createBody("allow_list", `"1.2.3.4"`)), status: 400,
			exact: `{"errors":[{"reason":"Must be a list of IP addresses or CIDR ranges","field":"allow_list"}]}`},
		{name: "allow_list entries", req: post(createBody("allow_list", `["1.2.3.4",7,"host.example","10.0.0.0/40"]`)), status: 400,
			exact: `{"errors":[{"reason":"Must be a string","field":"allow_list[1]"},` +
				`{"reason":"Must be an IPv4 or IPv6 address or CIDR range (e.g. 203.0.113.1 or 192.0.2.0/24)","field":"allow_list[2]"},` +
				`{"reason":"Must be an IPv4 or IPv6 address or CIDR range (e.g. 203.0.113.1 or 192.0.2.0/24)","field":"allow_list[3]"}]}`},
		{name: "every wrong field at once", req: post(`{"label":"x","engine":"oracle/19","type":1,"region":"mars-1","cluster_size":5,"allow_list":["nope"]}`), status: 400,
			exact: `{"errors":[{"reason":"Must be a string","field":"type"},{"reason":"Label must be 3-32 characters","field":"label"},` +
				`{"reason":"Must be one of mysql/5.7.30, mysql/8, mysql/8.0.26, postgresql/13, postgresql/13.2, postgresql/14, postgresql/14.6, postgresql/15, postgresql/16, postgresql/17","field":"engine"},` +
				`{"reason":"Must be one of us-east, us-west, eu-west, eu-central, ap-south","field":"region"},{"reason":"Must be one of 1, 3","field":"cluster_size"},` +
				`{"reason":"Must be an IPv4 or IPv6 address or CIDR range (e.g. 203.0.113.1 or 192.0.2.0/24)","field":"allow_list[0]"}]}`},
		{name: "read-only scope", req: req{method: "POST", path: "/v4/databases/sqldb/instances", token: readOnly, body: createBody()}, status: 403},
		{name: "restricted without add_databases", req: req{method: "POST", path: "/v4/databases/sqldb/instances", token: erin, body: createBody()}, status: 403,
			exact: `{"errors":[{"reason":"Unauthorized"}]}`},
		{name: "no docdb create", req: req{method: "POST", path: "/v4/databases/docdb/instances", token: demoToken, body: createBody("engine", `"mongodb/4.4.10"`)}, status: 405,
			exact: `{"errors":[{"reason":"Method Not Allowed"}]}`},
		{name: "created", req: post(createBody("cluster_size", `3`, "allow_list", `["203.0.113.1","192.0.1.7/24","2001:db8::1","203.0.113.1/32"]`)), status: 200,
			exact: `{"id":6,"label":"new-db","type":"g6-nanode-1","engine":"mysql","version":"8.0.26","region":"eu-west","status":"provisioning","encrypted":false,` +
				`"allow_list":["203.0.113.1/32","192.0.1.0/24","2001:db8::1/128"],"cluster_size":3,"hosts":{"primary":null,"secondary":null,"standby":null},` +
				`"ssl_connection":true,"replication_type":"semi_synch","port":3306,` +
				`"updates":{"frequency":"weekly","duration":3,"hour_of_day":0,"day_of_week":null,"week_of_month":null},"created":"2026-11-22T12:00:00","updated":"2026-11-22T12:00:00",` +
				`"platform":"rdbms-default","members":{},"used_disk_size_gb":0,"total_disk_size_gb":25,"oldest_restore_time":null,"fork":null,` +
				mysqlDefaults + `}`},
		{name: "postgresql under v4beta", req: req{method: "POST", path: "/v4beta/databases/sqldb/instances", token: demoToken,
			body: createBody("label", `"pg-two"`, "engine", `"postgresql/13.2"`, "ssl_connection", `false`, "encrypted", `true`)}, status: 200,
			want: []string{`"engine":"postgresql"`, `"encrypted":true`, `"ssl_connection":false,"replication_type":"none","replication_commit_type":"local","port":5432`}},
		{name: "the label is now taken", req: post(createBody()), status: 400, want: []string{"already exists"}},
		{name: "carol may (add_databases)", req: req{method: "POST", path: "/v4/databases/sqldb/instances", token: carolToken, body: createBody("label", `"carols-db"`)}, status: 200},
		{name: "carol sees hers and catalog-doc", req: req{path: "/v4/databases/instances", token: carolToken}, status: 200,
			want: []string{`"results":2`, "carols-db", "catalog-doc"}, not: []string{"orders-sql"}},
		{name: "the creation event", req: req{path: "/v4/account/events", token: demoToken, header: xfilter(`{"action":"database_create"}`)}, status: 200,
			want: []string{`"results":3`, `"entity":{"id":6,"label":"new-db","type":"database","url":"/v4/databases/sqldb/instances/6"}`}},
	})
}
