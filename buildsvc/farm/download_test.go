package farm

import (
	"errors"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/clock"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestDownloadTreeKeepsProtectedProjectsOut (issue 34): a project hidden from anonymous
// readers (<access>) or whose sources are protected (<sourceaccess>) is not in the download
// tree, answered as a missing one, though its published tree exists; a public one is.
func TestDownloadTreeKeepsProtectedProjectsOut(t *testing.T) {
	db := testdb.Open(t)
	clk := clock.NewFixed(time.Unix(1_800_000_000, 0))
	svc := New(buildsvc.New(db, clk, nil, buildsvc.Options{}), db, clk, nil, Options{})
	publish := func(p buildstore.Project) {
		t.Helper()
		p.Repositories = []buildstore.Repository{{Name: "standard", Archs: []string{"x86_64"}}}
		if err := db.Write(func(tx kv.Tx) error {
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
			return buildstore.PutPublished(tx, p.Name, "standard", "repodata/repomd.xml", []byte("<repomd/>"))
		}); err != nil {
			t.Fatal(err)
		}
	}
	publish(buildstore.Project{Name: "open"})
	publish(buildstore.Project{Name: "hidden", Flags: []buildstore.Flag{{Name: "access", Status: "disable"}}})
	publish(buildstore.Project{Name: "closed", Flags: []buildstore.Flag{{Name: "sourceaccess", Status: "disable"}}})
	projects, err := svc.DownloadProjects()
	if err != nil || len(projects) != 1 || projects[0] != "open" {
		t.Fatalf("the tree lists %v %v", projects, err)
	}
	for _, name := range []string{"hidden", "closed", "missing"} {
		if _, err := svc.DownloadFile(name, "standard", "repodata/repomd.xml"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := svc.DownloadRepoFile(name, "standard", "http://x/"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s's .repo: %v", name, err)
		}
	}
	if data, err := svc.DownloadFile("open", "standard", "repodata/repomd.xml"); err != nil || string(data) != "<repomd/>" {
		t.Fatalf("open: %q %v", data, err)
	}
	if _, err := svc.DownloadFile("open", "standard", "../hidden/standard/repodata/repomd.xml"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a traversal: %v", err)
	}
}
