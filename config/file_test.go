package config

import (
	"path/filepath"
	"testing"
	"time"
)

func TestFileValues(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    func(c *Config) bool
	}{
		{"every kind of value", `
addr: :8080
external-url: "https://forge.example.com/"
no-fixtures: true
ephemeral: yes
dev-clock: 1
body-limit: 64MiB
journal-size: 500
shutdown-timeout: 30s
batch-delay: 2ms
log-level: WARN
log-format: json
`, func(c *Config) bool {
			return c.Addr == ":8080" && c.ExternalURL == "https://forge.example.com" && c.NoFixtures &&
				c.Ephemeral && c.DevClock && c.BodyLimit == 64<<20 && c.JournalSize == 500 &&
				c.ShutdownTimeout == 30*time.Second && c.BatchDelay == 2*time.Millisecond && c.LogFormat == "json"
		}},
		{"comments only", "# nothing here\n", func(c *Config) bool { return c.Addr == "127.0.0.1:8080" }},
		{"document marker only", "---\n", func(c *Config) bool { return c.Addr == "127.0.0.1:8080" }},
		{"explicit null document", "--- ~\n", func(c *Config) bool { return c.Addr == "127.0.0.1:8080" }},
		{"empty mapping", "{}\n", func(c *Config) bool { return c.Addr == "127.0.0.1:8080" }},
		{"null value keeps default", "addr:\njournal-size: ~\n",
			func(c *Config) bool { return c.Addr == "127.0.0.1:8080" && c.JournalSize == 1000 }},
		{"quoted null is a string", "log-format: \"null\"\n", nil},
		{"unknown key with an anchor", "x: &p 9\n", nil},
		{"anchor and alias", "addr: &a \":1234\"\n", func(c *Config) bool { return c.Addr == ":1234" }},
		{"flow mapping", "{addr: \":1\", journal-size: 2}\n", func(c *Config) bool { return c.Addr == ":1" && c.JournalSize == 2 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load([]string{"--config", writeConfig(t, tt.content)}, nil)
			if tt.want == nil {
				if err == nil {
					t.Fatalf("no error, config %+v", c)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.want(c) {
				t.Errorf("unexpected config %+v", c)
			}
		})
	}
}

func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		content string // written to cfg.yaml unless path is set
		path    string
		want    []string
	}{
		{"unknown key", "addr: :1\nadr: :2\n", "", []string{"line 2: unknown key \"adr\""}},
		{"config key", "\nconfig: other.yaml\n", "", []string{"line 2:", `"config" not allowed`}},
		{"list document", "- addr\n- data\n", "", []string{"line 1:", "want a mapping", "found a list"}},
		{"scalar document", "addr\n", "", []string{"line 1:", "want a mapping", `found the single value "addr"`}},
		{"nested mapping", "addr:\n  host: x\n  port: 1\n", "", []string{"line 2:", "value for addr must be a single value", "found a mapping"}},
		{"list value", "journal-size: [1, 2]\n", "", []string{"line 1:", "value for journal-size", "found a list"}},
		{"alias to mapping", "data: &m {a: 1}\naddr: *m\n", "", []string{"line 1:", "value for data", "found a mapping"}},
		{"non-scalar key", "[a, b]: 1\n", "", []string{"line 1:", "keys must be flag names"}},
		{"duplicate key", "addr: :1\naddr: :2\n", "", []string{"line 2:", `key "addr" repeats line 1`}},
		{"malformed", "addr: :1\n  data: x\n", "", []string{"line 2:", "mapping values are not allowed"}},
		{"unclosed quote", "addr: \"abc\n", "", []string{"line 2:", "found unexpected end of stream"}},
		{"tab indentation", "addr:\n\t:1\n", "", []string{"line 2:", "tab"}},
		{"two documents", "addr: :1\n---\naddr: :2\n", "", []string{"line 3:", "more than one YAML document"}},
		{"missing file", "", filepath.Join(dir, "missing.yaml"), []string{"missing.yaml: no such file or directory"}},
		{"directory", "", dir, []string{"is a directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = writeConfig(t, tt.content)
			}
			_, err := Load([]string{"--config", path}, nil)
			wantErr(t, err, append([]string{"config file " + path + ": "}, tt.want...)...)
		})
	}
}
