package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/fixtures/explorergen"
)

// The explorer end to end: the built binary with the demo world, `import-spdx` on a stopped
// appliance, the index beside the data file, --spdx-dir, and the per-IP rate limit.

// explorerPackage is a package entry of the explorer's answers.
type explorerPackage struct {
	PackageName    string `json:"package_name"`
	Arch           string `json:"arch"`
	Filename       string `json:"filename"`
	VCSURL         string `json:"vcs_url"`
	VCSOrg         string `json:"vcs_org"`
	TrackingBranch string `json:"tracking_branch"`
	CommitHash     string `json:"commit_hash"`
	Product        struct {
		Version  string `json:"version"`
		Arch     string `json:"architecture"`
		FullName string `json:"full_name"`
	} `json:"product"`
}

type explorerAnswer struct {
	SearchTerm   *string           `json:"search_term"`
	SearchCommit *string           `json:"search_commit"`
	Count        int               `json:"count"`
	Packages     []explorerPackage `json:"packages"`
	Results      []struct {
		FilePath    string `json:"file_path"`
		RPMFilename string `json:"rpm_filename"`
		Packages    []struct {
			PackageName  string `json:"package_name"`
			ProductBuild string `json:"product_build"`
		} `json:"packages"`
	} `json:"results"`
	Error string `json:"error"`
}

// explorerGet GETs path of p and decodes the answer, which must be JSON.
func explorerGet(t *testing.T, p *proc, path string) (*http.Response, explorerAnswer) {
	t.Helper()
	resp, err := httpClient.Get(p.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("GET %s: Content-Type %q", path, ct)
	}
	var a explorerAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatalf("GET %s: %d %s: %v", path, resp.StatusCode, body, err)
	}
	return resp, a
}

// explorerSearch GETs path and wants a 200.
func explorerSearch(t *testing.T, p *proc, path string) explorerAnswer {
	t.Helper()
	resp, a := explorerGet(t, p, path)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, a.Error)
	}
	if a.Count != len(a.Packages)+len(a.Results) {
		t.Errorf("GET %s: count %d with %d packages and %d results", path, a.Count, len(a.Packages), len(a.Results))
	}
	return a
}

// explorerProducts counts the packages per product of an answer.
func explorerProducts(a explorerAnswer) map[string]int {
	out := map[string]int{}
	for _, p := range a.Packages {
		out[p.Product.FullName]++
	}
	return out
}

// explorerWriteProducts writes generated products into dir as the importer reads them.
func explorerWriteProducts(t *testing.T, dir string, ps ...explorergen.Product) {
	t.Helper()
	if err := explorergen.WriteDir(dir, ps); err != nil {
		t.Fatal(err)
	}
}

// explorerProduct generates a small product named name with rpms RPMs (45 has busybox, 30 not).
func explorerProduct(name string, rpms int) explorergen.Product {
	return explorergen.Generate(explorergen.Options{Seed: 7, Packages: 20, FilesPerPackage: 3,
		Products: []explorergen.ProductSpec{{Name: name, Release: "1.0", Arch: "x86_64", Packages: rpms}}})[0]
}

// TestExplorerDemoAndImportSPDX: the demo world answers the three searches once its farm has
// built Pocket 1.0; import-spdx adds products to a stopped appliance; a restart serves them
// from the index kept beside the data file, and a start without that index rebuilds it.
func TestExplorerDemoAndImportSPDX(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "pocketforge.db")
	p := startDemo(t, data, "--dev-clock", "--bootstrap-token", e2eToken)
	p.waitReady(t)
	if got := p.waitProducts(t, e2eToken); strings.Join(got, " ") != strings.Join(demoProducts, " ") {
		t.Fatalf("the demo products: %v, want %v", got, demoProducts)
	}

	// pocket-cli in the three demo products, with its git references to pool/pocket-cli.
	a := explorerSearch(t, p, "/api/products/packages?q=pocket-cli")
	if got := explorerProducts(a); a.Count != 3 || got["Pocket-1.0-x86_64-Build1.1"] != 1 || got["Pocket-1.0-aarch64-Build1.1"] != 1 || got["Pocket-0.9-x86_64-Build1.1"] != 1 {
		t.Fatalf("packages?q=pocket-cli: %d packages in %v", a.Count, got)
	}
	a = explorerSearch(t, p, "/api/products/vcs-search?q=pool/pocket-cli%40pocket-1.0")
	if a.Count != 2 {
		t.Fatalf("vcs-search pool/pocket-cli@pocket-1.0: %d packages", a.Count)
	}
	commit := a.Packages[0].CommitHash
	for _, pk := range a.Packages {
		if pk.PackageName != "pocket-cli" || pk.VCSURL != "https://src.pocketforge.test/pool/pocket-cli" || pk.VCSOrg != "pool" ||
			pk.TrackingBranch != "pocket-1.0" || pk.Product.Version != "1.0" || pk.CommitHash != commit || len(commit) != 64 {
			t.Errorf("vcs-search entry %+v", pk)
		}
	}
	a = explorerSearch(t, p, "/api/products/vcs-search?q="+commit[:8])
	if a.Count != 2 || a.SearchCommit == nil || *a.SearchCommit != commit[:8] {
		t.Errorf("vcs-search of the commit prefix %s: %d packages, search_commit %v", commit[:8], a.Count, a.SearchCommit)
	}
	// One RPM of pocket-cli a product: 1.0.0 in 0.9, 1.1.0 for each arch of 1.0.
	a = explorerSearch(t, p, "/api/products/files?q=/usr/bin/pocket-cli")
	if a.Count != 3 {
		t.Errorf("files?q=/usr/bin/pocket-cli: %d results", a.Count)
	}
	for _, r := range a.Results {
		if r.FilePath != "/usr/bin/pocket-cli" || !strings.HasPrefix(r.RPMFilename, "pocket-cli-1.") || len(r.Packages) != 1 || r.Packages[0].PackageName != "pocket-cli" {
			t.Errorf("files result %+v", r)
		}
	}
	if resp, a := explorerGet(t, p, "/api/products/files?q=x"); resp.StatusCode != 400 || a.Error != "search term must be at least 2 characters" {
		t.Errorf("files?q=x: %d %q", resp.StatusCode, a.Error)
	}

	// Products to import: two good ones (one in a subdirectory), then a directory with a broken one.
	dir := t.TempDir()
	explorerWriteProducts(t, dir, explorerProduct("Pocket-1.0-x86_64-Build7.1", 45))
	explorerWriteProducts(t, filepath.Join(dir, "more"), explorerProduct("Pocket-1.0-x86_64-Build8.1", 30))
	brokenDir := t.TempDir()
	broken := explorerProduct("Pocket-1.0-x86_64-Build9.1", 30)
	broken.SPDX = broken.SPDX[:len(broken.SPDX)/2]
	mismatch := explorerProduct("Pocket-1.0-x86_64-Build11.1", 30) // a half-synced mirror: primary's checksum is off
	for name, data := range mismatch.Repodata {
		if strings.HasSuffix(name, "-primary.xml.gz") {
			mismatch.Repodata[name] = append(data, 0)
		}
	}
	explorerWriteProducts(t, brokenDir, broken, explorerProduct("Pocket-1.0-x86_64-Build10.1", 30), mismatch)
	brokenFile := filepath.Join(brokenDir, broken.Name, broken.Name+".spdx.json")
	mismatchDir := filepath.Join(brokenDir, mismatch.Name)

	if !onPostgres(t) { // on a database the offline tools run beside the nodes: nothing to refuse
		code, _, stderr := runCLI(t, "import-spdx", "--data", data, dir)
		if code != 4 || !strings.Contains(stderr, "in use by another process") { // refused as things stand (issue 32)
			t.Errorf("import-spdx while the server runs: exit %d, %s", code, stderr)
		}
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("stop: exit %d", code)
	}

	code, stdout, stderr := runCLI(t, "import-spdx", "--data", data, dir)
	if code != 0 || !strings.Contains(stdout, "imported Pocket-1.0-x86_64-Build7.1: 45 packages, 45 RPMs") ||
		!strings.Contains(stdout, "imported Pocket-1.0-x86_64-Build8.1: 30 packages, 30 RPMs") {
		t.Fatalf("import-spdx: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "import-spdx", "--data", data, dir)
	if code != 0 || strings.Count(stdout, "unchanged Pocket-1.0-x86_64-Build") != 2 {
		t.Errorf("import-spdx of unchanged files: exit %d\n%s", code, stdout)
	}
	code, stdout, stderr = runCLI(t, "import-spdx", "--data", data, brokenDir)
	if code != 1 || !strings.Contains(stdout, "not imported: "+brokenFile+": ") || !strings.Contains(stdout, "imported Pocket-1.0-x86_64-Build10.1") ||
		!strings.Contains(stdout, "not imported: "+mismatchDir+": repodata/") || !strings.Contains(stdout, "-primary.xml.gz: sha256 checksum mismatch") ||
		lastLine(stderr) != "pocketforge: 2 products were not imported" {
		t.Errorf("import-spdx with a broken file: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	code, _, stderr = runCLI(t, "import-spdx", "--data", data, filepath.Join(dir, "nope"))
	if code != 3 || !strings.Contains(stderr, "nope") { // a missing file (issue 32)
		t.Errorf("import-spdx of a missing path: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(data + ".index"); err != nil {
		t.Fatalf("no index beside the data file: %v", err)
	}

	// A restart serves the imports from the index on disk: nothing to rebuild.
	checkImported := func(p *proc) {
		t.Helper()
		a := explorerSearch(t, p, "/api/products/packages?q=busybox")
		if got := explorerProducts(a); got["Pocket-1.0-x86_64-Build7.1"] != 10 || got["Pocket-1.0-x86_64-Build8.1"] != 0 || got["Pocket-1.0-x86_64-Build9.1"] != 0 || got["Pocket-1.0-x86_64-Build11.1"] != 0 {
			t.Errorf("packages?q=busybox by product: %v", got)
		}
		a = explorerSearch(t, p, "/api/products/vcs-search?q=pocket-cli%23pocket-1.0")
		if got := explorerProducts(a); len(got) != 5 || got["Pocket-1.0-x86_64-Build10.1"] != 1 {
			t.Errorf("vcs-search pocket-cli#pocket-1.0 by product: %v", got)
		}
		builds := map[string]bool{}
		for _, q := range []string{"pocket", "pocket-cli"} { // the generated products' file, the demo's
			a = explorerSearch(t, p, "/api/products/files?q="+q)
			for _, r := range a.Results {
				for _, pk := range r.Packages {
					builds[pk.ProductBuild] = true
				}
			}
		}
		if !builds["Build7.1"] || !builds["Build8.1"] || !builds["Build1.1"] || builds["Build9.1"] {
			t.Errorf("files?q=pocket and pocket-cli: builds %v", builds)
		}
	}
	q := start(t, "--data", data)
	q.waitReady(t)
	checkImported(q)
	// (On a database the imports went in through import-spdx's own replica and index, not the
	// node's: the node's index beside its replica is behind and is rebuilt, as on another node.)
	if log := q.waitLog(t, "msg=ready"); !onPostgres(t) && strings.Contains(log, "explorer search index rebuilt") {
		t.Errorf("the index beside the data file was rebuilt at start:\n%s", log)
	}
	q.stop(t, syscall.SIGTERM)

	// Without it, the start rebuilds it from the store.
	if err := os.RemoveAll(data + ".index"); err != nil {
		t.Fatal(err)
	}
	r := start(t, "--data", data)
	r.waitReady(t)
	r.waitLog(t, "explorer search index rebuilt")
	checkImported(r)
	if _, err := os.Stat(data + ".index"); err != nil {
		t.Errorf("the index was not written again: %v", err)
	}
	r.stop(t, syscall.SIGTERM)
}

// TestExplorerSPDXDir: a product dropped into --spdx-dir while the appliance runs is imported
// within an interval and searchable; its removal removes it.
func TestExplorerSPDXDir(t *testing.T) {
	t.Parallel()
	const token = "explorer-e2e-token-0001"
	spdxDir := t.TempDir()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--no-fixtures", "--bootstrap-token", token,
		"--spdx-dir", spdxDir, "--spdx-interval", "200ms")
	p.waitReady(t)
	const name = "Pocket-1.0-x86_64-Build7.1"

	// Written elsewhere on the same file system and moved in, so no scan sees half a product.
	staging := filepath.Join(filepath.Dir(spdxDir), "staging")
	explorerWriteProducts(t, staging, explorerProduct(name, 45))
	if err := os.Rename(filepath.Join(staging, name), filepath.Join(spdxDir, name)); err != nil {
		t.Fatal(err)
	}
	waitProducts := func(want string) {
		t.Helper()
		var body string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			var code int
			if code, body = request(t, "GET", p.url+"/_appliance/explorer/products", token, nil); code == 200 && strings.Contains(body, want) {
				return
			}
		}
		t.Fatalf("products never showed %s: %s\nlog: %s", want, body, p.stderr)
	}
	waitProducts(`"full_name":"` + name + `"`)
	a := explorerSearch(t, p, "/api/products/packages?q=busybox")
	if got := explorerProducts(a); got[name] != 10 || a.Count != 10 {
		t.Errorf("packages?q=busybox after the drop: %v", got)
	}
	a = explorerSearch(t, p, "/api/products/files?q=/usr/bin/pocket")
	if a.Count != 1 {
		t.Errorf("files?q=/usr/bin/pocket after the drop: %d results", a.Count)
	}
	p.waitLog(t, `msg="explorer: product imported"`)

	if err := os.RemoveAll(filepath.Join(spdxDir, name)); err != nil {
		t.Fatal(err)
	}
	waitProducts(`{"products":[]}`)
	if a := explorerSearch(t, p, "/api/products/packages?q=busybox"); a.Count != 0 {
		t.Errorf("packages?q=busybox after the removal: %d", a.Count)
	}
}

// TestExplorerRateLimitFlood: with the default limit, the 101st request from one address in
// an hour is a 429; forged X-Forwarded-For headers buy nothing; health stays up.
func TestExplorerRateLimitFlood(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--no-fixtures")
	p.waitReady(t)
	for i := 1; i <= 100; i++ {
		req, _ := http.NewRequest("GET", p.url+"/api/products/packages?q="+url.QueryEscape("pocket"), nil)
		req.Header.Set("X-Forwarded-For", "198.51.100."+strconv.Itoa(i))
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Limit") != "100" || resp.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(100-i) {
			t.Fatalf("request %d: %d, limit %q, remaining %q", i, resp.StatusCode, resp.Header.Get("X-RateLimit-Limit"), resp.Header.Get("X-RateLimit-Remaining"))
		}
	}
	resp, a := explorerGet(t, p, "/api/products/vcs-search?q=pocket-cli")
	retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != 429 || retry < 1 || retry > 3600 || resp.Header.Get("X-RateLimit-Remaining") != "0" ||
		!strings.HasPrefix(a.Error, "rate limit exceeded: 100 requests per hour from one address") {
		t.Fatalf("the 101st request: %d, Retry-After %q, error %q", resp.StatusCode, resp.Header.Get("Retry-After"), a.Error)
	}
	if code, body := request(t, "GET", p.url+"/_appliance/livez", "", nil); code != 200 {
		t.Errorf("livez during a flood: %d %s", code, body)
	}
}
