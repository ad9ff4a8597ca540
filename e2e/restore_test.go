package e2e

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.etcd.io/bbolt"
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

// midKey returns the offset of the first key of the first live bbolt leaf page (flags 0x02,
// page header 16 bytes, then 16-byte elements whose second word is the key's offset) from the
// middle of snap on (wrapping around to its start). Which record lies mid-file varies from run to run; a key is damage a check
// can see (bbolt keeps no checksum of values). A page the data file freed still looks like a
// leaf, but damage there is no damage — the farm's writes on a fresh appliance leave many such
// pages — so bbolt, opening a copy, says which pages are free.
func midKey(t *testing.T, snap []byte) int {
	t.Helper()
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(copyPath, snap, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bbolt.Open(copyPath, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const ps = 4096
	at := -1
	pages := len(snap) / ps
	db.View(func(tx *bbolt.Tx) error {
		// From the middle on, then from the start (past the two meta pages): the second half
		// may hold only freed pages.
		for i := 0; i < pages && at < 0; i++ {
			page := (pages/2 + i) % pages
			if page < 2 {
				continue
			}
			p := snap[page*ps:]
			if binary.LittleEndian.Uint16(p[8:]) != 0x02 || binary.LittleEndian.Uint16(p[10:]) <= 1 {
				continue
			}
			if info, err := tx.Page(page); err == nil && info != nil && info.Type == "leaf" {
				at = page*ps + 16 + int(binary.LittleEndian.Uint32(p[20:]))
			}
		}
		return nil
	})
	if at < 0 {
		t.Fatal("no live leaf page in the snapshot")
	}
	return at
}
