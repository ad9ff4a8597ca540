package apitest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Seeding a data file with the demo world costs most of an API test's time (bcrypt hashes,
// the build service's histories, the explorer's products — several seconds under -race), and
// every test wants the same start. So each kind of seeded file is made once per test binary
// as a template and copied for every test, which then owns its copy.

var templates = struct {
	sync.Mutex
	dir   string
	files map[string]*template
}{files: map[string]*template{}}

type template struct {
	once sync.Once
	path string
	err  error
}

// DataFile returns a new data file of t's own: a copy of the template called name, made once
// by seed(path) on first use.
func DataFile(t testing.TB, name string, seed func(path string) error) string {
	t.Helper()
	templates.Lock()
	if templates.dir == "" {
		dir, err := os.MkdirTemp("", "pocketforge-test-templates-")
		if err != nil {
			templates.Unlock()
			t.Fatal(err)
		}
		templates.dir = dir
	}
	tm := templates.files[name]
	if tm == nil {
		tm = &template{path: filepath.Join(templates.dir, name+".db")}
		templates.files[name] = tm
	}
	templates.Unlock()
	tm.once.Do(func() { tm.err = seed(tm.path) })
	if tm.err != nil {
		t.Fatalf("seeding the template data file %s: %v", name, tm.err)
	}
	data, err := os.ReadFile(tm.path)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "d.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// RemoveTemplates deletes the templates; a package's TestMain calls it after m.Run.
func RemoveTemplates() {
	templates.Lock()
	defer templates.Unlock()
	if templates.dir != "" {
		os.RemoveAll(templates.dir)
	}
}
