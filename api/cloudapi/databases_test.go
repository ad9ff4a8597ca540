package cloudapi

import (
	"fmt"
	"strings"
	"testing"
)

// The demo world's databases (fixtures/data/databases.json), by id.
const (
	ordersSQL  = 1 // demo, sqldb mysql/8.0.26, 3 nodes, active, 7 auto backups + a snapshot
	catalogDoc = 2 // demo, docdb mongodb/4.4.10, active; carol holds read_only on it
	legacySQL  = 3 // demo, sqldb mysql/5.7.30, degraded
	reportsPG  = 4 // demo, sqldb postgresql/13.2, provisioning until 30 s after the first start
	partnerPG  = 5 // partner, sqldb postgresql/14.6, active
)

// dbPath is the path of a database (and what follows it) in its family.
func dbPath(fam string, id int, rest string) string {
	return fmt.Sprintf("/v4/databases/%s/instances/%d%s", fam, id, rest)
}

func xfilter(f string) map[string]string { return map[string]string{"X-Filter": f} }

// TestDatabaseCatalog: engines and types are public (rate-limited per IP), filterable, and an
// engine id is reachable with its slash as two path segments or escaped as one.
func TestDatabaseCatalog(t *testing.T) {
	e := newEnv(t, 1)
	e.run(t, []scenario{
		{name: "engines need no token", req: req{path: "/v4/databases/engines"}, status: 200,
			want: []string{`"results":12`, `{"id":"mysql/8.0.26","engine":"mysql","version":"8.0.26"}`, `{"id":"mongodb/4.4.10","engine":"mongodb","version":"4.4.10"}`,
				`{"id":"mysql/8","engine":"mysql","version":"8"}`, `{"id":"postgresql/17","engine":"postgresql","version":"17"}`},
			header: map[string]string{"X-RateLimit-Limit": "800"}},
		{name: "engines filtered", req: req{path: "/v4beta/databases/engines", header: xfilter(`{"engine":"postgresql"}`)}, status: 200,
			exact: `{"data":[{"id":"postgresql/13","engine":"postgresql","version":"13"},{"id":"postgresql/13.2","engine":"postgresql","version":"13.2"},` +
				`{"id":"postgresql/14","engine":"postgresql","version":"14"},{"id":"postgresql/14.6","engine":"postgresql","version":"14.6"},` +
				`{"id":"postgresql/15","engine":"postgresql","version":"15"},{"id":"postgresql/16","engine":"postgresql","version":"16"},` +
				`{"id":"postgresql/17","engine":"postgresql","version":"17"}],"page":1,"pages":1,"results":7}`},
		{name: "engines: a major version, as the current API lists them", req: req{path: "/v4/databases/engines/mysql/8"}, status: 200,
			exact: `{"id":"mysql/8","engine":"mysql","version":"8"}`},
		{name: "engines filtered by version", req: req{path: "/v4/databases/engines", header: xfilter(`{"version":{"+contains":"8.0"}}`)}, status: 200, want: []string{`"results":1`}},
		{name: "engines: not filterable", req: req{path: "/v4/databases/engines", header: xfilter(`{"id":"x"}`)}, status: 400,
			exact: `{"errors":[{"reason":"Cannot filter on id","field":"X-Filter"}]}`},
		{name: "engine with a slash", req: req{path: "/v4/databases/engines/mysql/8.0.26"}, status: 200, exact: `{"id":"mysql/8.0.26","engine":"mysql","version":"8.0.26"}`},
		{name: "engine escaped", req: req{path: "/v4/databases/engines/mysql%2F8.0.26"}, status: 200, exact: `{"id":"mysql/8.0.26","engine":"mysql","version":"8.0.26"}`},
		{name: "engine escaped lower case", req: req{path: "/v4beta/databases/engines/mongodb%2f6.0"}, status: 200, want: []string{`"id":"mongodb/6.0"`}},
		{name: "unknown engine", req: req{path: "/v4/databases/engines/mysql/9.9"}, status: 404, exact: `{"errors":[{"reason":"Not found"}]}`},
		{name: "engine without version", req: req{path: "/v4/databases/engines/mysql"}, status: 404},
		{name: "engine escaped twice", req: req{path: "/v4/databases/engines/mysql%252F8.0.26"}, status: 404},
		{name: "types", req: req{path: "/v4/databases/types"}, status: 200,
			want: []string{`"results":6`, `{"id":"g6-nanode-1","label":"DBaaS - Nanode 1GB","engines":{"mysql":[{"quantity":1,"price":{"hourly":0.0225,"monthly":15}},{"quantity":3,"price":{"hourly":0.0525,"monthly":35}}],`,
				`"memory":1024,"disk":25600,"vcpus":1,"deprecated":false,"class":"nanode"}`}},
		{name: "types not deprecated", req: req{path: "/v4/databases/types", header: xfilter(`{"deprecated":false}`)}, status: 200,
			want: []string{`"results":5`}, not: []string{"g5-standard-1"}},
		{name: "one type", req: req{path: "/v4/databases/types/g6-dedicated-2"}, status: 200,
			want: []string{`"id":"g6-dedicated-2"`, `"mongodb":[{"quantity":1,"price":{"hourly":0.0975,"monthly":65}},{"quantity":3,"price":{"hourly":0.2925,"monthly":195}}]`}},
		{name: "unknown type", req: req{path: "/v4/databases/types/g9-huge"}, status: 404},
	})
}

// TestDatabaseViews: each family's list and view in its own shape, the generic list of all with
// instance_uri, X-Filter on the reference's fields, and 404 across families.
func TestDatabaseViews(t *testing.T) {
	e := newEnv(t, 0)
	get := func(path string, filter string) req {
		r := req{path: path, token: demoToken}
		if filter != "" {
			r.header = xfilter(filter)
		}
		return r
	}
	e.run(t, []scenario{
		{name: "sqldb list", req: get("/v4/databases/sqldb/instances", ""), status: 200,
			want:   []string{`"results":3`, `"label":"orders-sql"`, `"label":"legacy-sql"`, `"label":"reports-pg"`},
			not:    []string{"catalog-doc", "instance_uri", "partner-pg"},
			header: map[string]string{"X-Accepted-OAuth-Scopes": "databases:read_only"}},
		{name: "a mysql database", req: get(dbPath("sqldb", ordersSQL, ""), ""), status: 200,
			exact: `{"id":1,"label":"orders-sql","type":"g6-dedicated-2","engine":"mysql","version":"8.0.26","region":"us-east","status":"active","encrypted":true,` +
				`"allow_list":["203.0.113.0/24","198.51.100.7/32"],"cluster_size":3,` +
				`"hosts":{"primary":"lin-1-1001-mysql-primary.servers.db.pocketforge.test","secondary":"lin-1-1001-mysql-primary-private.servers.db.pocketforge.test",` +
				`"standby":"lin-1-1001-mysql-primary-private.servers.db.pocketforge.test"},` +
				`"ssl_connection":true,"replication_type":"semi_synch","port":3306,` +
				`"updates":{"frequency":"weekly","duration":2,"hour_of_day":3,"day_of_week":7,"week_of_month":null},` +
				`"created":"2026-11-02T12:00:00","updated":"2026-11-02T12:00:00",` +
				`"platform":"rdbms-default","members":{"203.0.113.4":"primary","203.0.113.5":"failover","203.0.113.6":"failover"},` +
				`"used_disk_size_gb":1,"total_disk_size_gb":80,"oldest_restore_time":"2026-11-02T12:00:00","fork":null,` + mysqlDefaults + `}`},
		{name: "a postgresql database, provisioning", req: get(dbPath("sqldb", reportsPG, ""), ""), status: 200,
			want: []string{`"status":"provisioning"`, `"hosts":{"primary":null,"secondary":null,"standby":null}`, `"replication_commit_type":"local","port":5432`,
				`"engine_config":{"pg":{"autovacuum_analyze_scale_factor":0.1,`, `"wal_writer_delay":200},"pglookout":{}}`,
				`"updates":{"frequency":"weekly","duration":3,"hour_of_day":0,"day_of_week":null,"week_of_month":null}`}},
		{name: "docdb list", req: get("/v4/databases/docdb/instances", ""), status: 200, want: []string{`"results":1`, `"label":"catalog-doc"`}},
		{name: "a docdb database", req: get(dbPath("docdb", catalogDoc, ""), ""), status: 200,
			want: []string{`"engine":"mongodb","version":"4.4.10"`, `"hosts":{"primary":"lin-2-1002-mongo-primary.servers.db.pocketforge.test","secondary":null,"standby":null}`,
				`"peers":["lin-2-1002.servers.db.pocketforge.test","lin-2-1003.servers.db.pocketforge.test","lin-2-1004.servers.db.pocketforge.test"]`,
				`"replica_set":"RS-catalog","ssl_connection":true,"compression_type":"snappy","storage_engine":"wiredtiger","port":27017`,
				`"week_of_month":2`}},
		{name: "every family", req: get("/v4/databases/instances", ""), status: 200,
			want: []string{`"results":4`, `"instance_uri":"/v4/databases/sqldb/instances/1"`, `"instance_uri":"/v4/databases/docdb/instances/2"`,
				`"port":27017,`}, not: []string{"ssl_connection", "replication_type", "peers"}},
		{name: "every family under v4beta", req: get("/v4beta/databases/instances", ""), status: 200, want: []string{`"results":4`}},
		{name: "filter status", req: get("/v4/databases/instances", `{"status":"degraded"}`), status: 200, want: []string{`"results":1`, "legacy-sql"}},
		{name: "filter engine and region", req: get("/v4/databases/sqldb/instances", `{"engine":"mysql","region":"us-east"}`), status: 200, want: []string{`"results":2`}},
		{name: "filter version", req: get("/v4/databases/instances", `{"version":"4.4.10"}`), status: 200, want: []string{`"results":1`, "catalog-doc"}},
		{name: "filter type or label", req: get("/v4/databases/instances", `{"+or":[{"type":"g6-nanode-1"},{"label":{"+contains":"CATALOG"}}]}`), status: 200,
			want: []string{`"results":2`, "reports-pg", "catalog-doc"}},
		{name: "ordered by label", req: get("/v4/databases/sqldb/instances", `{"+order_by":"label","+order":"desc"}`), status: 200,
			want: []string{`{"data":[{"id":4,"label":"reports-pg"`}},
		{name: "not filterable", req: get("/v4/databases/instances", `{"encrypted":true}`), status: 400,
			exact: `{"errors":[{"reason":"Cannot filter on encrypted","field":"X-Filter"}]}`},
		{name: "paginated", req: get("/v4/databases/instances?page_size=25&page=2", ""), status: 200, want: []string{`"data":[],"page":2,"pages":1,"results":4`}},
		{name: "a sqldb id under docdb", req: get(dbPath("docdb", ordersSQL, ""), ""), status: 404, exact: `{"errors":[{"reason":"Not found"}]}`},
		{name: "a docdb id under sqldb", req: get(dbPath("sqldb", catalogDoc, ""), ""), status: 404},
		{name: "another account's", req: get(dbPath("sqldb", partnerPG, ""), ""), status: 404},
		{name: "missing", req: get(dbPath("sqldb", 999, ""), ""), status: 404},
		{name: "not a number", req: get("/v4/databases/sqldb/instances/abc", ""), status: 404},
		{name: "the partner's own", req: req{path: dbPath("sqldb", partnerPG, ""), token: daveToken}, status: 200, want: []string{`"label":"partner-pg"`}},
	})
}

// createBody is a good sqldb create body with some fields replaced (or removed, with "-").
func createBody(fields ...string) string {
	m := map[string]string{"label": `"new-db"`, "engine": `"mysql/8.0.26"`, "type": `"g6-nanode-1"`, "region": `"eu-west"`}
	for i := 0; i+1 < len(fields); i += 2 {
		m[fields[i]] = fields[i+1]
	}
	var parts []string
	for _, k := range []string{"label", "engine", "type", "region", "cluster_size", "encrypted", "ssl_connection", "replication_type", "replication_commit_type", "allow_list"} {
		if v, ok := m[k]; ok && v != "-" {
			parts = append(parts, fmt.Sprintf("%q:%s", k, v))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// mysqlDefaults is the engine_config of a mysql database that chose no setting.
const mysqlDefaults = `"engine_config":{"binlog_retention_period":600,"mysql":{"connect_timeout":10,"default_time_zone":"SYSTEM","group_concat_max_len":1024,"information_schema_stats_expiry":86400,"innodb_change_buffer_max_size":25,"innodb_flush_neighbors":1,"innodb_ft_min_token_size":3,"innodb_lock_wait_timeout":50,"innodb_log_buffer_size":16777216,"innodb_online_alter_log_max_size":134217728,"innodb_read_io_threads":4,"innodb_thread_concurrency":0,"innodb_write_io_threads":4,"interactive_timeout":28800,"internal_tmp_mem_storage_engine":"TempTable","max_allowed_packet":67108864,"max_heap_table_size":16777216,"net_buffer_length":16384,"net_read_timeout":30,"net_write_timeout":60,"sort_buffer_size":262144,"sql_mode":"ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,NO_ZERO_DATE,NO_ZERO_IN_DATE,ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES","tmp_table_size":16777216,"wait_timeout":28800}}`
