package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// demoFarmCodes are the demo packages of devel:tools with their final code per arch (README.md,
// "Build farm (simulated)").
var demoFarmCodes = map[string]map[string]string{
	"pocket-cli":      {"x86_64": "succeeded", "aarch64": "succeeded"},
	"forge-utils":     {"x86_64": "succeeded", "aarch64": "succeeded"},
	"forge-build":     {"x86_64": "succeeded", "aarch64": "excluded"},
	"forge-changelog": {"x86_64": "succeeded", "aarch64": "disabled"},
	"pocket-lint":     {"x86_64": "failed", "aarch64": "failed"},
}

// TestOscDemoFarm: a fresh appliance with --dev-clock starts building the demo world at once —
// within a few seconds `osc results devel:tools` has something to show, and devel:tools'
// packages are building, scheduled, or unresolvable while devel:libs' libforge has not built —
// and moving the clock on, build time after build time, brings every package to the demo
// outcome, with "blocked" seen on the way.
func TestOscDemoFarm(t *testing.T) {
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--dev-clock", "--bootstrap-token", e2eToken,
		"--admin-password", e2eAdminPassword)
	p.waitReady(t)
	osc := oscFor(t, p.url, "alice", "alice-password")
	if code, text := osc("api", "/build/devel:tools/_result"); code != 0 && strings.Contains(text, "404") {
		t.Skip("GET /build/<project>/_result is not routed in this build")
	}
	// codes reads "package arch → code" of devel:tools through osc's CSV results.
	codes := func() map[string]string {
		out := map[string]string{}
		for pkg := range demoFarmCodes {
			code, text := osc("results", "--csv", "devel:tools", pkg)
			if code != 0 {
				t.Fatalf("osc results --csv devel:tools %s: %d %s", pkg, code, text)
			}
			for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
				f := strings.Split(line, "|") // repository|arch|state|dirty|code|details
				if len(f) >= 5 && f[0] == "standard" {
					out[pkg+" "+f[1]] = f[4]
				}
			}
		}
		return out
	}
	seen := map[string]bool{}
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, c := range codes() {
			seen[c] = true
		}
		if seen["building"] && seen["scheduled"] || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !seen["building"] || !seen["scheduled"] {
		t.Fatalf("within 5 s of the start devel:tools shows %v; want building and scheduled", seen)
	}
	if code, text := osc("results", "devel:tools"); code != 0 || !strings.Contains(text, "pocket-lint") {
		t.Fatalf("osc results devel:tools: %d %s", code, text)
	}
	done := func(got map[string]string) bool {
		for pkg, per := range demoFarmCodes {
			for arch, want := range per {
				if got[pkg+" "+arch] != want {
					return false
				}
			}
		}
		return true
	}
	var got map[string]string
	for i := 0; i < 30; i++ {
		if code, body := request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"9s"}`)); code != 200 {
			t.Fatalf("moving the clock: %d %s", code, body)
		}
		time.Sleep(1500 * time.Millisecond) // the farm's clock job runs every second
		got = codes()
		for _, c := range got {
			seen[c] = true
		}
		if done(got) {
			break
		}
	}
	if !done(got) {
		t.Fatalf("devel:tools after 30 build times: %v; want %v", got, demoFarmCodes)
	}
	if !seen["blocked"] {
		t.Errorf("never blocked on the way: %v", seen)
	}
	if code, text := osc("results", "--csv", "devel:libs", "libpocket-json"); code != 0 || !strings.Contains(text, "|unresolvable|nothing provides doxygen") {
		t.Errorf("libpocket-json: %d %s", code, text)
	}
}
