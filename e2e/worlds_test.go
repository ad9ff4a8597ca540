package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// A world is a data file prepared once per run — the binary started on a new file, driven to a
// state several tests begin from, and stopped — and copied into each test that starts there,
// so that tests do not each spend a minute of moved clock and build times on the same state.
// The copy is the whole state a restart reads: the data file and the search index beside it.
// A world started with --bootstrap-token or --admin-password takes the value given (a restart
// replaces the stored one), so a test names its credentials as it did on a new file.
type world struct {
	name    string
	prepare func(t *testing.T, data string)
	once    sync.Once
	path    string // the prepared data file, once prepared
}

// copyTo prepares the world if no test has yet (in the calling test, whose log shows how) and
// copies it to data, a path in the test's temp dir.
func (w *world) copyTo(t *testing.T, data string) {
	t.Helper()
	w.once.Do(func() {
		path := filepath.Join(runDir, "worlds", w.name, "d.db")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		w.prepare(t, path)
		w.path = path
	})
	if w.path == "" {
		t.Fatalf("the %s world could not be prepared (see the test that tried first)", w.name)
	}
	if err := copyTree(w.path, data); err != nil {
		t.Fatal(err)
	}
	if err := copyTree(w.path+".index", data+".index"); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// copyTree copies the file or directory src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o700)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o600)
	})
}

// demoWorld is a new demo appliance (the fixtures loaded at the first start) whose farm has
// built the Pocket 1.0 products and whose explorer lists them: the state waitProducts reaches
// on a new file, with the clock moved on as it moves it. Prepared with --dev-clock, the
// bootstrap token e2eToken and the Admin password e2eAdminPassword.
var demoWorld = &world{name: "demo", prepare: func(t *testing.T, data string) {
	p := start(t, "--data", data, "--dev-clock", "--bootstrap-token", e2eToken, "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	p.waitProducts(t, e2eToken)
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("stopping the demo world: exit %d\n%s", code, p.stderr)
	}
}}

// startDemo starts the binary with args on a copy of the demo world at data (a path in the
// test's temp dir; "": d.db there).
func startDemo(t *testing.T, data string, args ...string) *proc {
	t.Helper()
	if data == "" {
		data = filepath.Join(t.TempDir(), "d.db")
	}
	demoWorld.copyTo(t, data)
	return start(t, append([]string{"--data", data}, args...)...)
}
