package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/spdxcheck"
)

// productsURL is the explorer's package search for pocket-cli.
const productsURL = "/api/products/packages?q=pocket-cli"

// productEntry is what the supply-chain test reads of an explorer package entry.
type productEntry struct {
	Name     string `json:"package_name"`
	Arch     string `json:"arch"`
	Filename string `json:"filename"`
	VCSURL   string `json:"vcs_url"`
	Branch   string `json:"tracking_branch"`
	Commit   string `json:"commit_hash"`
	DistURL  string `json:"disturl"`
	Product  struct {
		FullName string `json:"full_name"`
	} `json:"product"`
}

// TestProductSupplyChain: the demo world as one story, against the built binary and with the
// real osc. On a fresh appliance the farm builds Pocket:1.0, then composes the Pocket 1.0
// products in Pocket:1.0/product, and the explorer shows them (readyz lists the background
// condition demo-products until then). A commit to devel:tools/pocket-cli that fails its
// build — Pocket:1.0's pocket-cli links to it — makes the product wait, then fail, and its
// badge turn red; the fix (a new version) rebuilds both, and the explorer's pocket-cli is the
// new version with the new commit and disturl, the old product build replaced. The SBOM the
// farm published validates against the SPDX 2.3 JSON schema.
func TestProductSupplyChain(t *testing.T) {
	t.Parallel()
	// A build lasts an hour of the appliance clock, which only the test moves on (61 minutes a
	// step: a build time and a little): the dev clock also runs with the wall clock, and with 8 s
	// builds a loaded machine could let pocket-cli's rebuild end before the blocked product was
	// seen.
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--dev-clock", "--bootstrap-token", e2eToken,
		"--admin-password", e2eAdminPassword, "--build-time", "1h")
	p.waitReady(t)
	if _, body := request(t, "GET", p.url+"/_appliance/readyz", "", nil); !strings.Contains(body, `{"name":"demo-products","ok":false,"background":true}`) {
		t.Errorf("a fresh appliance's readyz: %s", body)
	}
	advance := func(until func() bool, what string) {
		t.Helper()
		for i := 0; i < 60; i++ {
			if until() {
				return
			}
			if code, body := request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"61m"}`)); code != 200 {
				t.Fatalf("moving the clock: %d %s", code, body)
			}
			time.Sleep(1100 * time.Millisecond) // the farm's and the explorer's jobs run every second
		}
		t.Fatalf("after 60 build times, still not %s", what)
	}
	entries := func() []productEntry {
		t.Helper()
		code, body := request(t, "GET", p.url+productsURL, "", nil)
		if code != 200 {
			t.Fatalf("%s: %d %s", productsURL, code, body)
		}
		var doc struct {
			Packages []productEntry `json:"packages"`
		}
		if err := json.Unmarshal([]byte(body), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", productsURL, err, body)
		}
		var out []productEntry
		for _, e := range doc.Packages {
			if e.Name == "pocket-cli" && strings.HasPrefix(e.Product.FullName, "Pocket-1.0-x86_64-") {
				out = append(out, e)
			}
		}
		return out
	}
	advance(func() bool {
		_, body := request(t, "GET", p.url+"/_appliance/readyz", "", nil)
		return strings.Contains(body, `{"name":"demo-products","ok":true,"background":true}`)
	}, "the demo products in the explorer")
	before := entries()
	if len(before) != 1 || before[0].Product.FullName != "Pocket-1.0-x86_64-Build1.1" || before[0].VCSURL != "https://src.pocketforge.test/pool/pocket-cli" ||
		before[0].Branch != "pocket-1.0" || len(before[0].Commit) != 64 || !strings.HasPrefix(before[0].DistURL, "obs://pocketforge/Pocket:1.0/standard/") {
		t.Fatalf("pocket-cli in the farm's product: %+v", before)
	}
	badge := func() string {
		_, body := request(t, "GET", p.url+"/badge/Pocket:1.0/000productcompose.svg", "", nil)
		return body
	}
	if b := badge(); !strings.Contains(b, "passing") {
		t.Errorf("the product's badge after it built: %s", b)
	}
	// The published tree is behind the build API's sign-in: Basic credentials in the URL, as a
	// package manager sends them.
	signedIn := strings.Replace(p.url, "://", "://Admin:"+e2eAdminPassword+"@", 1)
	code, sbom := request(t, "GET", signedIn+"/published/Pocket:1.0/product/Pocket-1.0-x86_64-Build1.1/Pocket-1.0-x86_64-Build1.1.spdx.json", "", nil)
	if code != 200 {
		t.Fatalf("the published SBOM: %d %s", code, sbom)
	}
	if err := spdxcheck.Validate([]byte(sbom)); err != nil {
		t.Errorf("the farm's SBOM does not validate against the SPDX 2.3 schema: %v", err)
	}

	// alice breaks pocket-cli in devel:tools: its %check fails.
	osc, home := oscIn(t, p.url, "alice", "alice-password")
	must := func(dir string, args ...string) {
		t.Helper()
		if code, out := osc(dir, args...); code != 0 {
			t.Fatalf("osc %v: %d %s", args, code, out)
		}
	}
	must(home, "co", "devel:tools", "pocket-cli")
	wc := filepath.Join(home, "devel:tools", "pocket-cli")
	spec := filepath.Join(wc, "pocket-cli.spec")
	orig, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(orig), "%files", "%check\n# the new tests fail on every arch\nexit 1\n\n%files", 1)
	if err := os.WriteFile(spec, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	must(wc, "ci", "-m", "Run the test suite")
	product := func() string {
		_, text := osc(home, "results", "--csv", "-r", "product", "-a", "x86_64", "Pocket:1.0", "000productcompose")
		return text
	}
	// With the clock held still, pocket-cli's rebuild cannot finish: the scheduler's next pass
	// (within a second) finds it scheduled or building, and the product blocked by it.
	var seen []string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		r := product()
		seen = append(seen, r)
		if strings.Contains(r, "|blocked|") {
			break
		}
	}
	if joined := strings.Join(seen, "\n"); !strings.Contains(joined, "|blocked|") {
		t.Errorf("the product was never blocked while pocket-cli rebuilt:\n%s", joined)
	}
	advance(func() bool { return strings.Contains(product(), "|failed|") }, "the product failed")
	if _, log := osc(home, "remotebuildlog", "Pocket:1.0", "000productcompose", "product", "x86_64"); !strings.Contains(log, "pocket-cli (Pocket:1.0/standard), whose build failed") {
		t.Errorf("the failed product's log:\n%s", log)
	}
	advance(func() bool { return strings.Contains(badge(), "failed") }, "the product's badge red")
	if b := badge(); !strings.Contains(b, "#e05d44") {
		t.Errorf("the failed product's badge is not red: %s", b)
	}

	// The fix: a new version without the failing check.
	fixed := strings.Replace(string(orig), "1.1.0", "1.1.1", -1)
	if err := os.WriteFile(spec, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	must(wc, "ci", "-m", "Update to 1.1.1: the tests pass")
	var after []productEntry
	advance(func() bool {
		after = entries()
		return len(after) == 1 && strings.HasPrefix(after[0].Filename, "pocket-cli-1.1.1-")
	}, "the explorer showing pocket-cli 1.1.1")
	a := after[0]
	if a.Product.FullName == before[0].Product.FullName || !strings.HasPrefix(a.Product.FullName, "Pocket-1.0-x86_64-Build") ||
		a.Commit == before[0].Commit || len(a.Commit) != 64 || a.DistURL == before[0].DistURL {
		t.Errorf("after the fix pocket-cli is %+v; before %+v", a, before[0])
	}
	if b := badge(); !strings.Contains(b, "passing") {
		t.Errorf("the product's badge after the fix: %s", b)
	}
	if code, body := request(t, "GET", p.url+"/api/products/packages?q=pocket-cli", "", nil); code != 200 || strings.Contains(body, before[0].Product.FullName) {
		t.Errorf("the old product build is still listed: %d %s", code, body)
	}
}
