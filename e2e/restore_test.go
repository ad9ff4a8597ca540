package e2e

import (
	"encoding/json"
	"github.com/pocketforge/pocketforge/internal/testkit"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRestoreRefusesDamagedSnapshot flips 64 bytes in the middle of a real snapshot (the demo
// world; on the first key from the middle on, where damage leaves every offset intact: the copy
// alone read such a file without complaint):
// POST /_appliance/restore answers 400 in the appliance's JSON error format and the data reads as
// before; `pocketforge import` refuses the same file and leaves its data file alone.
func TestRestoreRefusesDamagedSnapshot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "d.db")
	p := start(t, "--data", data, "--bootstrap-token", e2eToken)
	p.waitReady(t)
	code, snap := request(t, "GET", p.url+"/_appliance/snapshot", e2eToken, nil)
	if code != 200 || len(snap) < 1<<16 {
		t.Fatalf("snapshot: %d (%d bytes)", code, len(snap))
	}
	_, before := request(t, "GET", p.url+"/v4/profile", e2eToken, nil)
	damaged := []byte(snap)
	for i, at := 0, midKey(t, damaged); i < 64; i++ {
		damaged[at+i] ^= 0xff
	}
	restoreDamaged(t, p, damaged)
	if code, after := request(t, "GET", p.url+"/v4/profile", e2eToken, nil); code != 200 || after != before {
		t.Fatalf("data changed by a refused restore: %d\n%s\nwas\n%s", code, after, before)
	}
	p.stop(t, syscall.SIGTERM)

	file := filepath.Join(dir, "damaged.db")
	os.WriteFile(file, damaged, 0o600)
	copyData := filepath.Join(dir, "copy.db")
	if code, _, _ := runCLI(t, "import", file, "--data", copyData); code == 0 {
		t.Fatal("import of a damaged snapshot succeeded")
	}
	if code, out, errOut := runCLI(t, "import", file, "--data", data, "--force"); code == 0 || !strings.Contains(errOut, "damaged") {
		t.Fatalf("import --force of a damaged snapshot: exit %d\n%s%s", code, out, errOut)
	}
	q := start(t, "--data", data, "--bootstrap-token", e2eToken)
	q.waitReady(t)
	if code, after := request(t, "GET", q.url+"/v4/profile", e2eToken, nil); code != 200 || after != before {
		t.Fatalf("data changed by a refused import: %d\n%s", code, after)
	}
}

// restoreDamaged posts a damaged snapshot and expects the appliance's 400.
func restoreDamaged(t *testing.T, p *proc, damaged []byte) {
	t.Helper()
	req, _ := newRequest("POST", p.url+"/_appliance/restore", e2eToken, string(damaged))
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Error string `json:"error"`
	}
	err = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != 400 || err != nil || resp.Header.Get("Content-Type") != "application/json" ||
		!strings.Contains(body.Error, "not a pocketforge data file") || !strings.Contains(body.Error, "damaged") {
		t.Fatalf("damaged restore: %d %s %+v (%v)", resp.StatusCode, resp.Header.Get("Content-Type"), body, err)
	}
}

// midKey is testkit.MidKey: a key mid-file, where damage is what a check can see.
func midKey(t *testing.T, snap []byte) int { return testkit.MidKey(t, snap) }
