package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/pgtest"
)

var contentDigest = regexp.MustCompile(`content digest (sha256:[0-9a-f]{64})`)

// digestOf is the content digest an export or migrate printed.
func digestOf(t *testing.T, out string) string {
	t.Helper()
	m := contentDigest.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no content digest in %q", out)
	}
	return m[1]
}

// TestMigrateFileToDatabaseAndBack (issue 36): a laptop's data file, with a change made through
// the API, migrates into PostgreSQL; a node there serves it (the same credentials, the change);
// the export of both ends gives the same content digest; a target holding data is refused
// without --force; and the data comes back into a new file.
func TestMigrateFileToDatabaseAndBack(t *testing.T) {
	t.Parallel()
	bboltPassOnly(t, "moves a data file into a database of its own and back")
	dir := t.TempDir()
	data := filepath.Join(dir, "laptop.db")
	p := start(t, "--data", data, "--bootstrap-token", e2eToken, "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	if code, body := request(t, "PUT", p.url+"/v4/account", e2eToken, strings.NewReader(`{"city":"Migrateville"}`)); code != 200 {
		t.Fatalf("PUT /v4/account: %d %s", code, body)
	}
	p.stop(t, syscall.SIGTERM)

	url := pgtest.URL(t)
	code, out, errOut := runCLI(t, "migrate", "--from", data, "--to", url)
	if code != 0 || !strings.Contains(out, "migrated "+data+" to ") {
		t.Fatalf("migrate to the database: exit %d\n%s%s", code, out, errOut)
	}
	migrated := digestOf(t, out)
	_, fileExport, _ := runCLI(t, "export", "--data", data, filepath.Join(dir, "from-file.snap"))
	_, dbExport, errOut := runCLI(t, "export", "--store", url, filepath.Join(dir, "from-db.snap"))
	if digestOf(t, fileExport) != migrated || digestOf(t, dbExport) != migrated {
		t.Fatalf("content digests: migrate %s, file export %q, database export %q %s", migrated, fileExport, dbExport, errOut)
	}

	code, _, errOut = runCLI(t, "migrate", "--from", data, "--to", url)
	if code == 0 || !strings.Contains(errOut, "holds data; pass --force") {
		t.Errorf("migrate onto data without --force: exit %d, %s", code, errOut)
	}

	// A node on the database serves what the file held: the same credentials, the change.
	n := clusterNode(t, url)
	if code, body := request(t, "GET", n.url+"/v4/account", e2eToken, nil); code != 200 || !strings.Contains(body, `"city":"Migrateville"`) {
		t.Fatalf("the migrated account on a database node: %d %s", code, body)
	}
	n.stop(t, syscall.SIGTERM)

	// (the node wrote meanwhile — its start, its clock jobs: the database's digest now)
	_, dbExport, _ = runCLI(t, "export", "--store", url, filepath.Join(dir, "after-node.snap"))
	back := filepath.Join(dir, "back.db")
	code, out, errOut = runCLI(t, "migrate", "--from", url, "--to", back)
	if code != 0 || digestOf(t, out) != digestOf(t, dbExport) {
		t.Fatalf("migrate back into a file: exit %d\n%s%s (the database exported %s)", code, out, errOut, dbExport)
	}
	q := start(t, "--data", back, "--bootstrap-token", e2eToken)
	q.waitReady(t)
	if code, body := request(t, "GET", q.url+"/v4/account", e2eToken, nil); code != 200 || !strings.Contains(body, `"city":"Migrateville"`) {
		t.Fatalf("the account back on a laptop: %d %s", code, body)
	}
}

// TestStoreStartFailures (issue 36): an unreachable database ends the start with one line naming
// its URL, the password masked, and a non-zero exit; so does --ephemeral with --store; a node's
// --data holding a real data file is refused, never overwritten.
func TestStoreStartFailures(t *testing.T) {
	t.Parallel()
	bboltPassOnly(t, "starts nodes on databases of its own, a real data file as a replica among them")
	code, _, errOut := runCLI(t, "serve", "--addr", "127.0.0.1:0", "--store", "postgres://alice:s3cret@127.0.0.1:1/forge?connect_timeout=1",
		"--data", filepath.Join(t.TempDir(), "r.db"))
	if code == 0 || strings.Contains(errOut, "s3cret") || !strings.Contains(errOut, "postgres://alice:xxxxx@127.0.0.1:1/forge") {
		t.Errorf("an unreachable database: exit %d, %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "serve", "--addr", "127.0.0.1:0", "--store", "postgres://a:b@127.0.0.1:1/x", "--ephemeral")
	if code == 0 || !strings.Contains(errOut, "--ephemeral and --store exclude each other") || strings.Contains(errOut, ":b@") {
		t.Errorf("--ephemeral with --store: exit %d, %s", code, errOut)
	}

	url := pgtest.URL(t)
	data := filepath.Join(t.TempDir(), "real.db")
	p := start(t, "--data", data, "--no-fixtures")
	p.waitReady(t)
	p.stop(t, syscall.SIGTERM)
	code, _, errOut = runCLI(t, "serve", "--addr", "127.0.0.1:0", "--store", url, "--data", data)
	if code == 0 || !strings.Contains(errOut, "not a replica") || !strings.Contains(errOut, "pocketforge migrate") {
		t.Errorf("a real data file as the replica: exit %d, %s", code, errOut)
	}
	code, out, _ := runCLI(t, "doctor", "--data", data)
	if code != 0 || !strings.Contains(out, "no problems found") {
		t.Errorf("the data file after the refusal: exit %d\n%s", code, out)
	}
	code, out, errOut = runCLI(t, "doctor", "--store", url)
	if code == 0 || !strings.Contains(out, "no pocketforge tables") {
		t.Errorf("doctor of an empty database: exit %d\n%s%s", code, out, errOut)
	}
}
