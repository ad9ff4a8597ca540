package cloudsvc

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store"
)

// TestEngineConfig (issue 33): engine_config settings are checked against the engine's schema
// — kind, bounds, choices, pattern, unknown names — every problem on its path and nothing applied
// then; null clears a setting; the view shows every group, the chosen settings and the defaults
// of the settings the Terraform provider computes, and no default for the ones it does not.
func TestEngineConfig(t *testing.T) {
	apply := func(engine string, set map[string]any, raw string) (map[string]any, string) {
		var p store.Problems
		out := ApplyEngineConfig(&p, engine, set, json.RawMessage(raw))
		var reasons []string
		for _, x := range p {
			reasons = append(reasons, x.Field+": "+x.Reason)
		}
		return out, strings.Join(reasons, "; ")
	}
	set, problems := apply("mysql", nil, `{"binlog_retention_period":900,"mysql":{"connect_timeout":20,"sql_mode":"ANSI,TRADITIONAL","innodb_ft_server_stopword_table":"db/t"}}`)
	if problems != "" || set["mysql/connect_timeout"] != 20.0 || set["binlog_retention_period"] != 900.0 || set["mysql/sql_mode"] != "ANSI,TRADITIONAL" {
		t.Fatalf("valid settings: %v %s", set, problems)
	}
	for raw, want := range map[string]string{
		`{"mysql":{"connect_timeout":1}}`:                      "engine_config.mysql.connect_timeout: Must be between 2 and 3600",
		`{"mysql":{"connect_timeout":2.5}}`:                    "engine_config.mysql.connect_timeout: Must be an integer",
		`{"mysql":{"connect_timeout":"10"}}`:                   "engine_config.mysql.connect_timeout: Must be a number",
		`{"mysql":{"internal_tmp_mem_storage_engine":"x"}}`:    "engine_config.mysql.internal_tmp_mem_storage_engine: Must be one of TempTable, MEMORY",
		`{"mysql":{"sql_mode":"ansi"}}`:                        "engine_config.mysql.sql_mode: Must match ^[A-Z_]*(,[A-Z_]+)*$",
		`{"mysql":{"nope":1}}`:                                 "engine_config.mysql.nope: Unknown setting (see GET /databases/<engine>/config)",
		`{"mysql":5}`:                                          "engine_config.mysql: Must be an object",
		`[1]`:                                                  "engine_config: Must be an object",
		`{"mysql":{"sql_require_primary_key":"yes"}}`:          "engine_config.mysql.sql_require_primary_key: Must be a boolean",
		`{"mysql":{"connect_timeout":1,"wait_timeout":0}}`:     "engine_config.mysql.connect_timeout: Must be between 2 and 3600; engine_config.mysql.wait_timeout: Must be between 1 and 2147483",
		`{"work_mem":4}`:                                       "engine_config.work_mem: Unknown setting (see GET /databases/<engine>/config)",
		`{"binlog_retention_period":86401,"mysql":{"x":true}}`: "engine_config.binlog_retention_period: Must be between 600 and 86400; engine_config.mysql.x: Unknown setting (see GET /databases/<engine>/config)",
	} {
		if out, got := apply("mysql", set, raw); got != want || out["mysql/connect_timeout"] != 20.0 {
			t.Errorf("%s: %q, want %q (settings %v)", raw, got, want, out)
		}
	}
	cleared, problems := apply("mysql", set, `{"mysql":{"innodb_ft_server_stopword_table":null,"wait_timeout":100}}`)
	if _, ok := cleared["mysql/innodb_ft_server_stopword_table"]; ok || problems != "" || cleared["mysql/wait_timeout"] != 100.0 || cleared["mysql/connect_timeout"] != 20.0 {
		t.Errorf("null clears, others merge: %v %s", cleared, problems)
	}
	if _, ok := set["mysql/wait_timeout"]; ok {
		t.Error("apply changed the settings it was given")
	}
	view := EngineConfigView("mysql", cleared)
	mysql := view["mysql"].(map[string]any)
	if mysql["connect_timeout"] != 20.0 || mysql["wait_timeout"] != 100.0 || mysql["net_write_timeout"] != 60 || view["binlog_retention_period"] != 900.0 {
		t.Errorf("view: %v", view)
	}
	for _, unset := range []string{"innodb_ft_server_stopword_table", "innodb_rollback_on_timeout", "sql_require_primary_key"} {
		if _, ok := mysql[unset]; ok {
			t.Errorf("%s shown without being set (the provider would see drift)", unset)
		}
	}
	pg := EngineConfigView("postgresql", nil)
	if _, ok := pg["pglookout"].(map[string]any); !ok || pg["work_mem"] != nil || pg["pg"].(map[string]any)["jit"] != true {
		t.Errorf("postgresql view: %v", pg)
	}
	if _, problems := apply("mongodb", nil, `{"a":1}`); problems != "engine_config: mongodb databases take no engine_config" {
		t.Errorf("mongodb: %s", problems)
	}
	schema := EngineConfigSchema("postgresql")
	if info := schema["pg"].(map[string]any)["pg_partman_bgw.interval"].(map[string]any); info["minimum"] != 3600.0 || info["type"] != "integer" {
		t.Errorf("schema: %v", info)
	}
}
