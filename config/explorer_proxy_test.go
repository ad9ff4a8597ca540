package config

import (
	"testing"
	"time"
)

// TestProxyPrefix: --explorer-proxy-prefix takes a path of its own and refuses, with the flag
// named, every prefix that would shadow one of the appliance's routes or leave the root.
func TestProxyPrefix(t *testing.T) {
	good := map[string]string{"": "/obs", "/obs": "/obs", "/obs/": "/obs", "/explorer/obs": "/explorer/obs", "/OBS-2.7_x~y": "/OBS-2.7_x~y"}
	for in, want := range good {
		args := []string{}
		if in != "" {
			args = append(args, "--explorer-proxy-prefix="+in)
		}
		c, err := Load(args, nil)
		if err != nil || c.ExplorerProxyPrefix != want {
			t.Errorf("%q: got %q, %v; want %q", in, c.ExplorerProxyPrefix, err, want)
		}
	}
	bad := map[string]string{
		"obs":            `must start with "/"`,
		"/":              "must not be /",
		"//obs":          "empty segment",
		"/obs//x":        "empty segment",
		"/obs/../source": `"." or ".."`,
		"/./obs":         `"." or ".."`,
		"/obs x":         "segments may only hold",
		"/obs%2f..":      "segments may only hold",
		"/source":        "/source is one of the appliance's own routes",
		"/build/obs":     "/build is one of the appliance's own routes",
		"/api":           "/api is one of the appliance's own routes",
		"/Request":       "/Request is one of the appliance's own routes",
		"/_appliance":    "/_appliance is one of the appliance's own routes",
		"/_x":            "one of the appliance's own routes",
		"/v4":            "/v4 is one of",
		"/badge/x":       "/badge is one of",
	}
	for in, reason := range bad {
		_, err := Load([]string{"--explorer-proxy-prefix=" + in}, nil)
		wantErr(t, err, `invalid value "`+in+`" for --explorer-proxy-prefix: `, reason)
	}
}

// TestParseProxyPrefix: the exported check api's tests run on every root they mount.
func TestParseProxyPrefix(t *testing.T) {
	if _, err := ParseProxyPrefix("/source"); err == nil {
		t.Fatal("/source accepted")
	}
	if p, err := ParseProxyPrefix("/obs/"); err != nil || p != "/obs" {
		t.Fatal(p, err)
	}
}

// TestBackendCredentials: the backend identity's flags refuse what Basic credentials cannot
// carry; the password is never echoed.
func TestBackendCredentials(t *testing.T) {
	c, err := Load(nil, nil)
	if err != nil || c.ExplorerBackendUser != "explorer" || c.BackendPassword() != "explorer-password" {
		t.Fatalf("defaults %q %q %v", c.ExplorerBackendUser, c.ExplorerBackendPassword, err)
	}
	_, err = Load([]string{"--explorer-backend-user=a:b"}, nil)
	wantErr(t, err, `invalid value "a:b" for --explorer-backend-user: `, "no spaces, colons")
	_, err = Load([]string{"--explorer-backend-password=se\ncret"}, nil)
	wantErr(t, err, "invalid value for --explorer-backend-password: ", "control characters")
	c = mustLoad(t, nil, []string{"POCKETFORGE_EXPLORER_BACKEND_PASSWORD=bobs-secret"})
	if c.BackendPassword() != "bobs-secret" || redactedValue(c, "explorer-backend-password") != "***" {
		t.Errorf("the backend password %q is not used or not masked: %q", c.BackendPassword(), redactedValue(c, "explorer-backend-password"))
	}
}

// TestBackendURL: --explorer-backend takes an http or https base URL and nothing else; empty
// is the in-process backend. --explorer-poll has bounds.
func TestBackendURL(t *testing.T) {
	c, err := Load(nil, nil)
	if err != nil || c.ExplorerBackend != "" || c.ExplorerPoll != 30*time.Second {
		t.Fatalf("defaults %q %v %v", c.ExplorerBackend, c.ExplorerPoll, err)
	}
	for in, reason := range map[string]string{
		"ftp://x":         "http or https",
		"api.example.org": "http or https",
		"http://":         "no host",
		"http://u:p@h":    "credentials",
		"http://h/?a=b":   "query",
		"https://h/#x":    "fragment",
		"http://h/%zz":    "http or https",
	} {
		_, err := Load([]string{"--explorer-backend=" + in}, nil)
		wantErr(t, err, `invalid value "`+in+`" for --explorer-backend: `, reason)
	}
	for _, in := range []string{"0", "500ms", "25h", "x"} {
		if _, err := Load([]string{"--explorer-poll=" + in}, nil); err == nil {
			t.Errorf("--explorer-poll=%s accepted", in)
		}
	}
}
