package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/pgtest"
	"github.com/pocketforge/pocketforge/store"
)

// The e2e package on PostgreSQL (issue 36): with POCKETFORGE_TEST_BACKEND=postgres (and
// POCKETFORGE_TEST_PG naming a server, as .ci/run sets both) every server and offline command a
// test starts with --data PATH runs on a database instead, as a team that grew would run it:
// `--store <its database> --data PATH`, PATH then the node's replica. One PATH is one database for
// the whole test binary, so a test that stops a server and starts it again on the same file, or
// runs `export`/`import-spdx` on it, finds its data there. A PATH that already holds a data file
// when first named (a test prepared it) is moved into its database with `pocketforge migrate`
// first, as README tells a user to. Tests about the bbolt file itself call bboltPassOnly.
// doctor and compact are the data file's own tools: their --data is left a file.

// stores maps a --data path to its database's URL.
var stores sync.Map

// storesMu serialises first uses, so one path never gets two databases.
var storesMu sync.Mutex

// onPostgres reports whether this run puts the servers on PostgreSQL.
func onPostgres(t *testing.T) bool {
	t.Helper()
	return pgtest.Postgres(t)
}

// bboltPassOnly skips t on the PostgreSQL pass, saying why: it is about the bbolt data file
// itself (its lock, its schema record, compact, damage to it), or it starts PostgreSQL nodes of its
// own (the cluster and migrate tests), which the bbolt pass has run already.
func bboltPassOnly(t *testing.T, why string) {
	t.Helper()
	if onPostgres(t) {
		t.Skip("runs in the bbolt pass only (POCKETFORGE_TEST_BACKEND unset): " + why)
	}
}

// withStore is args with --store added for the --data path they name, on the PostgreSQL pass;
// args that name --store or --ephemeral already, or no --data, are left as they are.
func withStore(t *testing.T, args []string) []string {
	t.Helper()
	if !onPostgres(t) {
		return args
	}
	data := ""
	for i, a := range args {
		switch a {
		case "--store", "--ephemeral", "migrate", "doctor", "compact":
			return args
		case "--data":
			if i+1 < len(args) {
				data = args[i+1]
			}
		}
	}
	if data == "" || strings.HasPrefix(data, filepath.Join(runDir, "worlds")+"/") {
		return args // a prepared world stays a data file: the tests that copy it migrate the copy
	}
	return append(args, "--store", storeFor(t, data))
}

// storeFor is the database of the data path, made on first use (and filled from the file when
// one is there).
func storeFor(t *testing.T, data string) string {
	t.Helper()
	abs := absPath(t, data)
	storesMu.Lock()
	defer storesMu.Unlock()
	if url, ok := stores.Load(abs); ok {
		return url.(string)
	}
	url := pgtest.URL(t)
	if _, err := os.Stat(abs); err == nil {
		if code, out, errOut := runCLI(t, "migrate", "--from", abs, "--to", url); code != 0 {
			t.Fatalf("migrate %s to its database: exit %d\n%s%s", abs, code, out, errOut)
		}
		if err := os.Remove(abs); err != nil {
			t.Fatal(err)
		}
	}
	stores.Store(abs, url)
	t.Cleanup(func() { stores.Delete(abs) })
	return url
}

// openData opens what a stopped server at the data path served, for a test that reads it
// directly: the file, or on the PostgreSQL pass the path's database (through a replica of the
// test's own). The caller closes it (before starting a server on it again).
func openData(t *testing.T, data string) *store.DB {
	t.Helper()
	var db *store.DB
	var err error
	if url, ok := stores.Load(absPath(t, data)); ok && onPostgres(t) {
		db, err = store.OpenPostgres(url.(string), filepath.Join(t.TempDir(), "replica.db"), store.Options{})
	} else {
		db, err = store.Open(data, store.Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func absPath(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
