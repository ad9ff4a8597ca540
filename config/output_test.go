package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestRedacted(t *testing.T) {
	tests := []struct {
		name      string
		env       []string
		wantToken string
		wantPass  string
	}{
		{"unset secrets are empty", nil, "", ""},
		{"set secrets are masked", []string{"POCKETFORGE_BOOTSTRAP_TOKEN=abcdefgh1234", "POCKETFORGE_ADMIN_PASSWORD=hunter22"}, "***", "***"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustLoad(t, nil, tt.env)
			r := c.Redacted()
			if len(r) != len(options) {
				t.Fatalf("Redacted has %d pairs, want %d", len(r), len(options))
			}
			for i, kv := range r {
				if kv[0] != options[i].name {
					t.Errorf("pair %d key %q, want %q", i, kv[0], options[i].name)
				}
				if strings.Contains(kv[1], "abcdefgh1234") || strings.Contains(kv[1], "hunter22") {
					t.Errorf("secret leaked in %v", kv)
				}
			}
			if got := redactedValue(c, "bootstrap-token"); got != tt.wantToken {
				t.Errorf("bootstrap-token = %q, want %q", got, tt.wantToken)
			}
			if got := redactedValue(c, "admin-password"); got != tt.wantPass {
				t.Errorf("admin-password = %q, want %q", got, tt.wantPass)
			}
		})
	}
}

// TestRedactedRoundTrip checks that every non-secret value Redacted prints parses back to the
// same config, so the start-up log can be pasted into a config file (a URL shown with its
// password masked, --store, is given again as the secrets are).
func TestRedactedRoundTrip(t *testing.T) {
	var env []string // env, not flags: pflag bools refuse "yes"
	for name, v := range sample {
		if name != "config" {
			env = append(env, EnvName(name)+"="+v[0])
		}
	}
	c := mustLoad(t, nil, env)
	var again []string
	for _, kv := range c.Redacted() {
		if o := lookupOption(kv[0]); !o.secret && o.mask == nil { // a masked URL's password is masked
			again = append(again, "--"+kv[0]+"="+kv[1])
		}
	}
	d := mustLoad(t, again, []string{"POCKETFORGE_BOOTSTRAP_TOKEN=" + c.BootstrapToken, "POCKETFORGE_ADMIN_PASSWORD=" + c.AdminPassword,
		"POCKETFORGE_EXPLORER_BACKEND_PASSWORD=" + c.ExplorerBackendPassword, "POCKETFORGE_STORE=" + c.Store})
	if !reflect.DeepEqual(c, d) {
		t.Errorf("round trip changed the config:\n%+v\n%+v", c, d)
	}
}

func TestEnvName(t *testing.T) {
	tests := []struct{ flag, want string }{
		{"addr", "POCKETFORGE_ADDR"},
		{"external-url", "POCKETFORGE_EXTERNAL_URL"},
		{"no-fixtures", "POCKETFORGE_NO_FIXTURES"},
		{"shutdown-timeout", "POCKETFORGE_SHUTDOWN_TIMEOUT"},
		{"config", "POCKETFORGE_CONFIG"},
	}
	for _, tt := range tests {
		t.Run(tt.flag, func(t *testing.T) {
			if got := EnvName(tt.flag); got != tt.want {
				t.Errorf("EnvName(%q) = %q, want %q", tt.flag, got, tt.want)
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want bool
	}{
		{"default loopback", nil, false},
		{"all IPv4 interfaces", []string{"--addr", "0.0.0.0:8080"}, true},
		{"all IPv6 interfaces", []string{"--addr", "[::]:8080"}, true},
		{"empty host", []string{"--addr", ":8080"}, true},
		{"specific IP", []string{"--addr", "192.168.1.5:8080"}, false},
		{"hostname", []string{"--addr", "forge.local:0"}, false},
		{"external URL set", []string{"--addr", "0.0.0.0:8080", "--external-url", "http://forge.lan:8080"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustLoad(t, tt.args, nil)
			if got := len(c.Warnings) > 0; got != tt.want {
				t.Fatalf("warnings = %q, want some: %v", c.Warnings, tt.want)
			}
			if tt.want && !strings.Contains(c.Warnings[0], "--external-url") {
				t.Errorf("warning does not suggest --external-url: %q", c.Warnings[0])
			}
		})
	}
}

func TestRegisterSplit(t *testing.T) {
	common := pflag.NewFlagSet("common", pflag.ContinueOnError)
	serve := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	RegisterCommon(common)
	RegisterServe(serve)
	for _, o := range options {
		t.Run(o.name, func(t *testing.T) {
			inCommon, inServe := common.Lookup(o.name) != nil, serve.Lookup(o.name) != nil
			if inCommon == inServe {
				t.Errorf("--%s: in common %v, in serve %v; want exactly one", o.name, inCommon, inServe)
			}
			f := common.Lookup(o.name)
			if f == nil {
				f = serve.Lookup(o.name)
			}
			if f.Usage == "" {
				t.Errorf("--%s has no usage text", o.name)
			}
		})
	}
}
