package config

import (
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// writeConfig writes content to a fresh cfg.yaml and returns its path.
func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cfg.yaml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// mustLoad calls Load and fails the test on error.
func mustLoad(t *testing.T, args, env []string) *Config {
	t.Helper()
	c, err := Load(args, env)
	if err != nil {
		t.Fatalf("Load(%q, %q): %v", args, env, err)
	}
	return c
}

func TestDefaults(t *testing.T) {
	want := &Config{
		Addr:              "127.0.0.1:8080",
		Data:              "pocketforge.db",
		LogLevel:          slog.LevelInfo,
		LogFormat:         "text",
		BodyLimit:         256 << 20,
		SourceFileLimit:   100 << 20,
		BuildWorkers:      4,
		BuildTime:         8 * time.Second,
		ShutdownTimeout:   10 * time.Second,
		HeadTimeout:       20 * time.Second,
		MinUploadRate:     64 << 10,
		MaxConns:          0, // auto
		MaxConnsPerIP:     512,
		JournalSize:       1000,
		BatchDelay:        time.Millisecond,
		CloudRateScale:    1,
		TransferDelay:     5 * time.Second,
		DBProvisionTime:   30 * time.Second,
		SQLDBListen:       "127.0.0.1",
		SQLDBMaxInstances: 8,
		SQLDBPorts:        [2]int{13306, 13405},
		SQLDBMaxMemory:    256 << 20,
		ExplorerRate:      Rate{Max: 100, Window: time.Hour},
		ExplorerPoll:      30 * time.Second,
		SPDXInterval:      30 * time.Second,
		ExplorerGitOrg:    "pool",
		PublicMetrics:     true,

		ExplorerProxyPrefix: "/obs",
		ExplorerBackendUser: "explorer",
	}
	tests := []struct {
		name string
		args []string
		env  []string
	}{
		{"nil", nil, nil},
		{"empty", []string{}, []string{}},
		{"unrelated env", nil, []string{"PATH=/bin", "HOME=/root", "POCKETFORGE=1", "POCKETFORGE_ADDR_X=1"}},
		{"empty env values count as unset", nil, []string{"POCKETFORGE_ADDR=", "POCKETFORGE_JOURNAL_SIZE="}},
		{"empty config file", []string{"--config", writeConfig(t, "")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustLoad(t, tt.args, tt.env)
			got.ConfigFile = ""
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

// sample holds, for every option, a valid non-default raw value and how it shows in Redacted.
var sample = map[string][2]string{
	"data":                      {"other.db", "other.db"},
	"store":                     {"postgres://pf:pw@db.example.com/forge", "postgres://pf:xxxxx@db.example.com/forge"},
	"config":                    {"", ""}, // filled in per test: needs a real file
	"addr":                      {"0.0.0.0:9000", "0.0.0.0:9000"},
	"external-url":              {"https://forge.example.com/", "https://forge.example.com"},
	"download-url":              {"https://download.example.com/repositories/", "https://download.example.com/repositories"},
	"no-fixtures":               {"yes", "true"},
	"ephemeral":                 {"1", "true"},
	"bootstrap-token":           {"tok-12345678", "***"},
	"admin-password":            {"s3cret pass", "***"},
	"dev-clock":                 {"TRUE", "true"},
	"log-level":                 {"DEBUG", "debug"},
	"log-format":                {"JSON", "json"},
	"body-limit":                {"10MB", "10MB"},
	"source-file-limit":         {"2MiB", "2MiB"},
	"build-workers":             {"16", "16"},
	"build-time":                {"90s", "1m30s"},
	"explorer-rate":             {"20/10m", "20/10m"},
	"trusted-proxies":           {"10.0.0.0/8, 192.168.1.1", "10.0.0.0/8,192.168.1.1/32"},
	"explorer-follow":           {"Pocket:*, home:alice", "Pocket:*,home:alice"},
	"spdx-dir":                  {"/srv/sbom", "/srv/sbom"},
	"explorer-proxy-prefix":     {"/mirror/obs/", "/mirror/obs"},
	"explorer-backend-user":     {"bob", "bob"},
	"explorer-backend-password": {"bob-password", "***"},
	"explorer-git-org":          {" devel ", "devel"},
	"explorer-backend":          {"https://api.example.org/obs/", "https://api.example.org/obs"},
	"explorer-poll":             {"2m", "2m0s"},
	"spdx-interval":             {"5m", "5m0s"},
	"shutdown-timeout":          {"1m30s", "1m30s"},
	"head-timeout":              {"45s", "45s"},
	"min-upload-rate":           {"1MB", "1MB"},
	"max-conns":                 {"100", "100"},
	"max-conns-per-ip":          {"0", "0"},
	"journal-size":              {"0", "0"},
	"batch-delay":               {"5ms", "5ms"},
	"cloud-rate-scale":          {"0.01", "0.01"},
	"transfer-delay":            {"2h", "2h0m0s"},
	"db-provision-time":         {"10m", "10m0s"},
	"sqldb-listen":              {"[::1]", "::1"},
	"sqldb-max-instances":       {"3", "3"},
	"sqldb-ports":               {" 20000 - 20009", "20000-20009"},
	"sqldb-max-memory":          {"1GiB", "1GiB"},
	"public-metrics":            {"false", "false"},
}

func TestEnvTwins(t *testing.T) {
	cfg := writeConfig(t, "")
	for _, o := range options {
		t.Run(o.name, func(t *testing.T) {
			raw, shown := sample[o.name][0], sample[o.name][1]
			if o.name == "config" {
				raw, shown = cfg, cfg
			}
			c := mustLoad(t, nil, []string{EnvName(o.name) + "=" + raw})
			if got := redactedValue(c, o.name); got != shown {
				t.Errorf("%s=%q: %s = %q, want %q", EnvName(o.name), raw, o.name, got, shown)
			}
			if got := redactedValue(defaults(), o.name); got == shown {
				t.Errorf("sample for %s equals the default; pick another", o.name)
			}
		})
	}
}

// redactedValue returns c's Redacted value for the named option.
func redactedValue(c *Config, name string) string {
	for _, kv := range c.Redacted() {
		if kv[0] == name {
			return kv[1]
		}
	}
	return "<missing>"
}

func TestPrecedence(t *testing.T) {
	file := writeConfig(t, "addr: 10.0.0.1:1\njournal-size: 1\nlog-level: error\ndata: file.db\nno-fixtures: yes\n")
	other := writeConfig(t, "journal-size: 7\n")
	tests := []struct {
		name string
		args []string
		env  []string
		want func(c *Config) bool
	}{
		{"file beats default", []string{"--config", file}, nil,
			func(c *Config) bool { return c.Addr == "10.0.0.1:1" && c.JournalSize == 1 && c.NoFixtures }},
		{"env beats file", []string{"--config", file}, []string{"POCKETFORGE_ADDR=10.0.0.2:2", "POCKETFORGE_NO_FIXTURES=no"},
			func(c *Config) bool { return c.Addr == "10.0.0.2:2" && c.JournalSize == 1 && !c.NoFixtures }},
		{"flag beats env", []string{"--config", file, "--addr", "10.0.0.3:3", "--log-level=warn"},
			[]string{"POCKETFORGE_ADDR=10.0.0.2:2", "POCKETFORGE_LOG_LEVEL=debug"},
			func(c *Config) bool { return c.Addr == "10.0.0.3:3" && c.LogLevel == slog.LevelWarn }},
		{"bool flag false beats env true", []string{"--ephemeral=false"}, []string{"POCKETFORGE_EPHEMERAL=true"},
			func(c *Config) bool { return !c.Ephemeral }},
		{"bool flag true beats file", []string{"--config", file, "--no-fixtures=false"}, nil,
			func(c *Config) bool { return !c.NoFixtures }},
		{"flag beats file for data", []string{"--config", file, "--data", "flag.db"}, nil,
			func(c *Config) bool { return c.Data == "flag.db" }},
		{"config from env", nil, []string{"POCKETFORGE_CONFIG=" + file},
			func(c *Config) bool { return c.ConfigFile == file && c.JournalSize == 1 && c.Data == "file.db" }},
		{"config flag beats env", []string{"--config=" + other}, []string{"POCKETFORGE_CONFIG=" + file},
			func(c *Config) bool { return c.ConfigFile == other && c.JournalSize == 7 && c.Data == "pocketforge.db" }},
		{"config flag empty disables env file", []string{"--config="}, []string{"POCKETFORGE_CONFIG=" + file},
			func(c *Config) bool { return c.ConfigFile == "" && c.JournalSize == 1000 }},
		{"last env entry wins", nil, []string{"POCKETFORGE_JOURNAL_SIZE=5", "POCKETFORGE_JOURNAL_SIZE=6"},
			func(c *Config) bool { return c.JournalSize == 6 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustLoad(t, tt.args, tt.env)
			if !tt.want(c) {
				t.Errorf("unexpected config %+v", c)
			}
		})
	}
}

func TestFromFlagsCommonOnly(t *testing.T) {
	file := writeConfig(t, "journal-size: 42\nbody-limit: 64MiB\n")
	fs := pflag.NewFlagSet("export", pflag.ContinueOnError)
	RegisterCommon(fs)
	if fs.Lookup("addr") != nil || fs.Lookup("data") == nil || fs.Lookup("store") == nil || fs.Lookup("config") == nil {
		t.Fatal("RegisterCommon must add --data, --store and --config")
	}
	if err := fs.Parse([]string{"--data", "export.db", "--config", file}); err != nil {
		t.Fatal(err)
	}
	c, err := FromFlags(fs, []string{"POCKETFORGE_ADDR=:9999", "POCKETFORGE_JOURNAL_SIZE=43", "POCKETFORGE_DATA=env.db"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Data != "export.db" || c.Addr != ":9999" || c.JournalSize != 43 || c.BodyLimit != 64<<20 ||
		c.LogFormat != "text" || c.ConfigFile != file {
		t.Errorf("unexpected config %+v", c)
	}
}

func TestFromFlagsNilAndUnparsed(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	RegisterCommon(fs)
	RegisterServe(fs)
	for name, set := range map[string]*pflag.FlagSet{"nil": nil, "unparsed": fs} {
		t.Run(name, func(t *testing.T) {
			c, err := FromFlags(set, []string{"POCKETFORGE_ADDR=:1"})
			if err != nil || c.Addr != ":1" {
				t.Errorf("got %+v, %v", c, err)
			}
		})
	}
}

func TestLoadArgErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--nope"}, "unknown flag: --nope"},
		{"unknown shorthand", []string{"-x"}, "unknown shorthand flag: 'x' in -x"},
		{"missing argument", []string{"--addr"}, "flag needs an argument: --addr"},
		{"positional argument", []string{"serve"}, `unexpected argument "serve"`},
		{"bool garbage on the command line", []string{"--ephemeral=maybe"}, `"--ephemeral"`},
		{"a git org with a slash", []string{"--explorer-git-org=pool/x"}, "want a git organization name"},
		{"an empty git org", []string{"--explorer-git-org="}, "want a git organization name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.args, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

func TestExternalURLFor(t *testing.T) {
	cases := []struct {
		name, external, listen, want string
	}{
		{"configured wins", "https://forge.example.com", "127.0.0.1:8080", "https://forge.example.com"},
		{"loopback", "", "127.0.0.1:43123", "http://127.0.0.1:43123"},
		{"wildcard v4", "", "0.0.0.0:8080", "http://127.0.0.1:8080"},
		{"wildcard v6", "", "[::]:8080", "http://127.0.0.1:8080"},
		{"v6 address", "", "[::1]:8080", "http://[::1]:8080"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			addr, err := net.ResolveTCPAddr("tcp", c.listen)
			if err != nil {
				t.Fatal(err)
			}
			cfg := &Config{ExternalURL: c.external}
			if got := cfg.ExternalURLFor(addr); got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
}
