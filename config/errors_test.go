package config

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// invalidCases are bad values for one option each, with a fragment of the expected reason.
var invalidCases = []struct {
	name   string
	flag   string
	value  string
	reason string
}{
	{"addr no port", "addr", "abc", "missing port"},
	{"addr port too big", "addr", "127.0.0.1:70000", "out of range 0..65535"},
	{"addr port not a number", "addr", "127.0.0.1:x", `port "x" is not a number`},
	{"addr empty port", "addr", "localhost:", "missing port"},
	{"addr negative port", "addr", ":-1", "not a number"},
	{"addr bad host", "addr", "bad_host!:80", "neither an IP address nor a hostname"},
	{"addr unbracketed IPv6", "addr", "::1:80", "too many colons"},
	{"data empty", "data", "", "must not be empty"},
	{"external-url relative", "external-url", "/forge", "absolute URL"},
	{"external-url host only", "external-url", "forge.example.com", "absolute URL"},
	{"external-url ftp", "external-url", "ftp://forge.example.com", `scheme "ftp"`},
	{"external-url query", "external-url", "https://forge.example.com/?a=1", "query"},
	{"external-url empty query", "external-url", "https://forge.example.com/?", "query"},
	{"external-url fragment", "external-url", "https://forge.example.com/#top", "fragment"},
	{"external-url no host", "external-url", "http:///path", "missing host"},
	{"external-url opaque", "external-url", "http:forge", "missing host"},
	{"external-url userinfo", "external-url", "https://u:p@forge.example.com", "user info"},
	{"external-url space", "external-url", "https://forge.example.com/a b", "spaces"},
	{"external-url bad port", "external-url", "https://forge.example.com:x", "not a URL"},
	{"log-level unknown", "log-level", "verbose", "debug, info, warn or error"},
	{"log-format unknown", "log-format", "xml", "text or json"},
	{"body-limit garbage", "body-limit", "lots", "whole number of bytes"},
	{"body-limit too small", "body-limit", "1000", "1KiB..16GiB"},
	{"body-limit too big", "body-limit", "17GiB", "1KiB..16GiB"},
	{"body-limit unknown unit", "body-limit", "12XB", `unknown unit "XB"`},
	{"body-limit fraction", "body-limit", "1.5GiB", "whole number"},
	{"body-limit overflow", "body-limit", "99999999999999999999", "too large"},
	{"shutdown-timeout garbage", "shutdown-timeout", "soon", "duration"},
	{"shutdown-timeout no unit", "shutdown-timeout", "10", "duration"},
	{"shutdown-timeout zero", "shutdown-timeout", "0s", "more than 0"},
	{"shutdown-timeout too long", "shutdown-timeout", "11m", "at most 10m0s"},
	{"journal-size negative", "journal-size", "-1", "0..100000"},
	{"journal-size too big", "journal-size", "200000", "0..100000"},
	{"journal-size garbage", "journal-size", "many", "whole number"},
	{"batch-delay negative", "batch-delay", "-1ms", "more than 0"},
	{"batch-delay too long", "batch-delay", "101ms", "at most 100ms"},
	{"build-workers zero", "build-workers", "0", "out of range 1..64"},
	{"build-workers too many", "build-workers", "65", "out of range 1..64"},
	{"build-time too short", "build-time", "500ms", "want 1s..1h0m0s"},
	{"build-time too long", "build-time", "2h", "want 1s..1h0m0s"},
	{"build-time garbage", "build-time", "soon", "duration"},
	{"cloud-rate-scale garbage", "cloud-rate-scale", "fast", "number from 0 to 1000"},
	{"cloud-rate-scale negative", "cloud-rate-scale", "-1", "number from 0 to 1000"},
	{"cloud-rate-scale NaN", "cloud-rate-scale", "NaN", "number from 0 to 1000"},
	{"bootstrap-token too short", "bootstrap-token", "short", "8..128"},
	{"bootstrap-token too long", "bootstrap-token", strings.Repeat("t", 129), "8..128"},
	{"bootstrap-token space", "bootstrap-token", "abc def ghi", "space"},
	{"bootstrap-token non-ASCII", "bootstrap-token", "abcdefgh\u00e9", "printable ASCII"},
	{"admin-password too short", "admin-password", "abc", "6..128"},
	{"admin-password newline", "admin-password", "abcdef\nghi", "control character"},
	{"no-fixtures garbage", "no-fixtures", "maybe", "true/false"},
	{"ephemeral garbage", "ephemeral", "2", "true/false"},
	{"dev-clock garbage", "dev-clock", "on", "true/false"},
	{"sqldb-listen with a port", "sqldb-listen", "127.0.0.1:3306", "no port"},
	{"sqldb-listen host name", "sqldb-listen", "localhost", "want an IP address"},
	{"sqldb-max-instances zero", "sqldb-max-instances", "0", "out of range 1..1000"},
	{"sqldb-ports reversed", "sqldb-ports", "14000-13000", "want 1024 <= LOW <= HIGH <= 65535"},
	{"sqldb-ports one number", "sqldb-ports", "13306", "want LOW-HIGH"},
	{"sqldb-max-memory too small", "sqldb-max-memory", "1KiB", "out of range 1MiB..64GiB"},
}

// TestInvalidValues feeds each bad value through every source and checks that the one-line
// error names the flag, the source, the value (unless secret) and the reason.
func TestInvalidValues(t *testing.T) {
	for _, tc := range invalidCases {
		o := lookupOption(tc.flag)
		quoted := ` "` + strings.ReplaceAll(tc.value, "\n", `\n`) + `"`
		if o.secret {
			quoted = ""
		}
		t.Run(tc.name+"/flag", func(t *testing.T) {
			_, err := Load([]string{"--" + tc.flag + "=" + tc.value}, nil)
			if o.isBool {
				wantErr(t, err, `"--`+tc.flag+`"`) // pflag's own bool parsing answers first
				return
			}
			wantErr(t, err, "invalid value"+quoted+" for --"+tc.flag+": ", tc.reason)
		})
		t.Run(tc.name+"/env", func(t *testing.T) {
			if tc.value == "" {
				t.Skip("an empty variable counts as unset")
			}
			env := EnvName(tc.flag)
			_, err := Load(nil, []string{env + "=" + tc.value})
			wantErr(t, err, "invalid value"+quoted+" for "+env+" (--"+tc.flag+"): ", tc.reason)
		})
		t.Run(tc.name+"/file", func(t *testing.T) {
			doc, err := yaml.Marshal(map[string]string{tc.flag: tc.value})
			if err != nil {
				t.Fatal(err)
			}
			path := writeConfig(t, "# pocketforge\n\n"+string(doc))
			_, err = Load([]string{"--config", path}, nil)
			wantErr(t, err, "config file "+path+": line 3: invalid value"+quoted+" for "+tc.flag+": ", tc.reason)
		})
	}
}

// TestSecretsNotEchoed checks that a rejected secret never appears in the error text.
func TestSecretsNotEchoed(t *testing.T) {
	tests := []struct{ name, env string }{
		{"token", "POCKETFORGE_BOOTSTRAP_TOKEN=topsecret with space"},
		{"password", "POCKETFORGE_ADMIN_PASSWORD=pw\x01secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(nil, []string{tt.env})
			if err == nil || strings.Contains(err.Error(), "secret") {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// wantErr fails unless err is a one-line error containing every fragment.
func wantErr(t *testing.T, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", fragments)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error spans lines: %q", msg)
	}
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			t.Errorf("error %q does not contain %q", msg, f)
		}
	}
}
