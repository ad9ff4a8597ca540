package e2e

import (
	"encoding/xml"
	"path/filepath"
	"regexp"
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
// within a few seconds `osc results devel:tools` shows packages scheduled, excluded and
// disabled while Pocket:1.0 builds — and moving the clock on, build time after build time,
// brings every package to the demo outcome, devel:tools building and blocked on the way.
func TestOscDemoFarm(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--dev-clock", "--bootstrap-token", e2eToken,
		"--admin-password", e2eAdminPassword)
	p.waitReady(t)
	osc := oscFor(t, p.url, "alice", "alice-password")
	if code, text := osc("api", "/build/devel:tools/_result"); code != 0 && strings.Contains(text, "404") {
		t.Skip("GET /build/<project>/_result is not routed in this build")
	}
	// codes reads "package arch → code" of devel:tools' standard repository with one osc call.
	codes := func() map[string]string {
		code, text := osc("api", "/build/devel:tools/_result?repository=standard")
		if code != 0 {
			t.Fatalf("osc api _result: %d %s", code, text)
		}
		var doc struct {
			Results []struct {
				Arch     string `xml:"arch,attr"`
				Statuses []struct {
					Package string `xml:"package,attr"`
					Code    string `xml:"code,attr"`
				} `xml:"status"`
			} `xml:"result"`
		}
		if err := xml.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatalf("_result: %v\n%s", err, text)
		}
		out := map[string]string{}
		for _, r := range doc.Results {
			for _, st := range r.Statuses {
				out[st.Package+" "+r.Arch] = st.Code
			}
		}
		return out
	}
	// The first pass finds the unresolvable, excluded and disabled packages at once and
	// schedules the rest; the workers take Pocket:1.0's jobs first (its pass came first).
	seen := map[string]bool{}
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, c := range codes() {
			seen[c] = true
		}
		if seen["scheduled"] && seen["excluded"] && seen["disabled"] || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !seen["scheduled"] || !seen["excluded"] || !seen["disabled"] {
		t.Fatalf("within 5 s of the start devel:tools shows %v; want scheduled, excluded and disabled", seen)
	}
	if code, text := osc("results", "--csv", "Pocket:1.0", "pocket-base"); code != 0 || !strings.Contains(text, "|building|") && !strings.Contains(text, "|scheduled|") {
		t.Errorf("Pocket:1.0/pocket-base at the start: %d %s", code, text)
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
		time.Sleep(1200 * time.Millisecond) // the farm's clock job runs every second
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
	// Blocked lasts a build time or less, between two samples at most: the fixtures test
	// (TestDemoFarmOutcome) asserts it tick by tick.
	t.Logf("devel:tools codes seen on the way: %v", seen)
	if !seen["building"] {
		t.Errorf("devel:tools was never building on the way: %v", seen)
	}
	if code, text := osc("results", "--csv", "devel:libs", "libpocket-json"); code != 0 || !strings.Contains(text, "|unresolvable|nothing provides doxygen") {
		t.Errorf("libpocket-json: %d %s", code, text)
	}
	if code, text := osc("results", "--csv", "devel:tools", "pocket-lint"); code != 0 || !regexp.MustCompile(`(?m)^standard\|x86_64\|\w+\|False\|failed\|`).MatchString(text) {
		t.Errorf("pocket-lint: %d %s", code, text)
	}
}
