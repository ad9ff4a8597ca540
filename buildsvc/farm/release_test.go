package farm

import (
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/maintenance"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// releaseWorld is the farm world with app built in dev and an update project "upd" (builds
// disabled, as update projects are) that dev's repository releases into manually.
func releaseWorld(t *testing.T) *farmWorld {
	f := newFarmWorld(t, "x86_64")
	f.commit("app", spec("app", ""))
	f.tick()
	f.clk.Advance(11 * time.Second)
	f.tick()
	f.tick()
	if got := f.codes("x86_64"); got != "app:succeeded" {
		t.Fatalf("app did not build: %s", got)
	}
	f.write(func(tx kv.Tx) error {
		upd := buildstore.Project{Name: "upd", Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}},
			Flags:        []buildstore.Flag{{Name: "build", Status: "disable"}},
			Repositories: []buildstore.Repository{{Name: "update", Archs: []string{"x86_64"}}}}
		if err := buildstore.PutProject(tx, upd); err != nil {
			return err
		}
		dev, _ := buildstore.GetProject(tx, "dev")
		dev.Repositories[0].ReleaseTarget = &buildstore.ReleaseTarget{Project: "upd", Repository: "update", Trigger: "manual"}
		return buildstore.PutProject(tx, dev)
	})
	return f
}

func (f *farmWorld) binaryNames(w buildstore.Where, pkg string) string {
	var names []string
	f.db.View(func(tx kv.Tx) error {
		bins, _ := buildstore.Binaries(tx, w, pkg)
		for _, b := range bins {
			names = append(names, b.Filename)
		}
		return nil
	})
	return strings.Join(names, " ")
}

// TestReleaseCopiesSourcesAndBinaries: a release commits the sources into the target, copies
// the binaries (setrelease renaming them) and the target's next pass publishes them.
func TestReleaseCopiesSourcesAndBinaries(t *testing.T) {
	f := releaseWorld(t)
	alice := buildstore.Person{Login: "alice"}
	if err := f.svc.Release(alice, ReleaseRequest{Project: "dev", Package: "app"}); err != nil {
		t.Fatal(err)
	}
	upd := buildstore.Where{Project: "upd", Repository: "update", Arch: "x86_64"}
	if got := f.binaryNames(upd, "app"); got != "app-1.0-1.1.src.rpm app-1.0-1.1.x86_64.rpm" {
		t.Fatalf("released binaries: %q", got)
	}
	f.db.View(func(tx kv.Tx) error {
		r, ok, _ := buildstore.LatestRevision(tx, "upd", "app")
		if !ok || r.Rev != 1 || r.Comment != "Release from dev / app" {
			t.Errorf("released sources: %+v", r)
		}
		return nil
	})
	// Released again: the same tree makes no new revision; setrelease renames the files.
	if err := f.svc.Release(alice, ReleaseRequest{Project: "dev", SetRelease: "-"}); err != nil {
		t.Fatal(err)
	}
	if got := f.binaryNames(upd, "app"); got != "app-1.0.src.rpm app-1.0.x86_64.rpm" {
		t.Fatalf("setrelease=-: %q", got)
	}
	f.db.View(func(tx kv.Tx) error {
		r, _, _ := buildstore.LatestRevision(tx, "upd", "app")
		if r.Rev != 1 {
			t.Errorf("a repeated release made revision %d", r.Rev)
		}
		return nil
	})
	f.tick()
	f.tick()
	f.db.View(func(tx kv.Tx) error {
		st, _ := buildstore.GetStatus(tx, upd, "app")
		if st.Code != buildstore.CodeDisabled {
			t.Errorf("the released package in upd: %s", st.Code)
		}
		if buildstore.PublishedFile(tx, "upd", "update", "x86_64/app-1.0.x86_64.rpm") == nil {
			t.Errorf("the release was not published")
		}
		return nil
	})
	if err := f.svc.Release(alice, ReleaseRequest{Project: "dev", Package: "app", SetRelease: "7"}); err != nil {
		t.Fatal(err)
	}
	if got := f.binaryNames(upd, "app"); got != "app-1.0-7.src.rpm app-1.0-7.x86_64.rpm" {
		t.Fatalf("setrelease=7: %q", got)
	}
}

// TestReleaseRefusals: OBS's answers when a release cannot be made.
func TestReleaseRefusals(t *testing.T) {
	f := releaseWorld(t)
	alice, bob := buildstore.Person{Login: "alice"}, buildstore.Person{Login: "bob"}
	for _, c := range []struct {
		name string
		who  buildstore.Person
		req  ReleaseRequest
		want string
	}{
		{"bob may not write upd", bob, ReleaseRequest{Project: "dev", Package: "app"}, "cmd_execution_no_permission"},
		{"unknown package", alice, ReleaseRequest{Project: "dev", Package: "nope"}, "unknown_package"},
		{"unknown project", alice, ReleaseRequest{Project: "nope"}, "unknown_project"},
		{"unknown repository", alice, ReleaseRequest{Project: "dev", Repository: "nope"}, "unknown_repository"},
		{"target project without repositories", alice, ReleaseRequest{Project: "dev", TargetProject: "upd"}, "missing_parameter"},
		{"unknown target project", alice, ReleaseRequest{Project: "dev", Repository: "standard", TargetProject: "nope", TargetRepository: "x"}, "unknown_project"},
		{"unknown target repository", alice, ReleaseRequest{Project: "dev", Repository: "standard", TargetProject: "upd", TargetRepository: "x"}, "unknown_repository"},
		{"bad setrelease", alice, ReleaseRequest{Project: "dev", SetRelease: "a-b"}, "invalid_parameter"},
		{"a project without release targets", alice, ReleaseRequest{Project: "upd"}, "no_matching_release_target"},
		{"explicit target", alice, ReleaseRequest{Project: "dev", Repository: "standard", TargetProject: "upd", TargetRepository: "update"}, "ok"},
	} {
		if got := code(f.svc.Release(c.who, c.req)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	f.write(func(tx kv.Tx) error {
		dev, _ := buildstore.GetProject(tx, "dev")
		dev.Repositories[0].ReleaseTarget.Trigger = ""
		return buildstore.PutProject(tx, dev)
	})
	if err := f.svc.Release(alice, ReleaseRequest{Project: "dev"}); code(err) != "no_matching_release_target" || !strings.Contains(err.Error(), "manual") {
		t.Errorf("no manual trigger: %v", err)
	}
}

// TestCopyWithBinaries: a project copy withbinaries carries the binaries and build state, so
// the copy's first pass finds the package built and schedules nothing.
func TestCopyWithBinaries(t *testing.T) {
	f := releaseWorld(t)
	admin := buildstore.Person{Login: "Admin", GlobalRoles: []string{buildstore.RoleAdmin}}
	if err := f.svc.CopyProject(buildstore.Person{Login: "alice"}, buildsvc.CopyProjectRequest{Project: "dev2", OProject: "dev", WithBinaries: true}); code(err) != "project_copy_no_permission" {
		t.Fatalf("withbinaries by alice: %v", err)
	}
	if err := f.svc.CopyProject(admin, buildsvc.CopyProjectRequest{Project: "dev2", OProject: "dev", WithBinaries: true, Resign: true}); err != nil {
		t.Fatal(err)
	}
	w := buildstore.Where{Project: "dev2", Repository: "standard", Arch: "x86_64"}
	if got := f.binaryNames(w, "app"); got != "app-1.0-1.1.src.rpm app-1.0-1.1.x86_64.rpm" {
		t.Fatalf("copied binaries: %q", got)
	}
	f.tick()
	f.db.View(func(tx kv.Tx) error {
		st, _ := buildstore.GetStatus(tx, w, "app")
		if st.Code != buildstore.CodeSucceeded {
			t.Errorf("the copy's first pass: %s (%s)", st.Code, st.Reason.Explain)
		}
		return nil
	})
}

// code is the fault code of err ("ok" for nil).
func code(err error) string {
	if e, ok := err.(*fault.Error); ok {
		return e.Code
	}
	if err == nil {
		return "ok"
	}
	return err.Error()
}

// TestPatchinfoIsExcluded: the farm does not build a patchinfo (OBS makes updateinfo of it).
func TestPatchinfoIsExcluded(t *testing.T) {
	f := newFarmWorld(t, "x86_64")
	f.write(func(tx kv.Tx) error {
		if err := buildstore.PutPackage(tx, buildstore.Package{Project: "dev", Name: "patchinfo"}); err != nil {
			return err
		}
		sum, _ := buildstore.PutBlob(tx, []byte("<patchinfo/>"))
		_, err := buildsvc.CommitRevision(tx, "dev", "patchinfo", []buildstore.FileEntry{{Name: maintenance.PatchinfoFile, MD5: sum}}, buildstore.Revision{User: "alice"}, f.clk.Now())
		return err
	})
	f.tick()
	if got := f.codes("x86_64"); got != "patchinfo:excluded" {
		t.Fatalf("patchinfo: %s", got)
	}
}

// TestCollectBuildEnv: the build environment of dev/app's build becomes a _buildenv file.
func TestCollectBuildEnv(t *testing.T) {
	f := releaseWorld(t)
	alice := buildstore.Person{Login: "alice"}
	f.write(func(tx kv.Tx) error {
		inc := buildstore.Project{Name: "inc", Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}},
			Repositories: []buildstore.Repository{{Name: "standard", Archs: []string{"x86_64"}}}}
		if err := buildstore.PutProject(tx, inc); err != nil {
			return err
		}
		return buildstore.PutPackage(tx, buildstore.Package{Project: "inc", Name: "app"})
	})
	if err := maintenance.New(f.svc.Service).CollectBuildEnv(alice, "inc", "app", "dev", "nope", ""); code(err) != "unknown_package" {
		t.Errorf("an unknown origin package: %v", err)
	}
	if err := maintenance.New(f.svc.Service).CollectBuildEnv(alice, "inc", "app", "upd", "app", ""); code(err) != "unknown_package" {
		t.Errorf("an origin without the package: %v", err)
	}
	if err := maintenance.New(f.svc.Service).CollectBuildEnv(alice, "inc", "app", "dev", "app", "env"); err != nil {
		t.Fatal(err)
	}
	f.db.View(func(tx kv.Tx) error {
		r, _, _ := buildstore.LatestRevision(tx, "inc", "app")
		fe, ok := r.File("_buildenv.standard.x86_64")
		if !ok {
			t.Fatalf("no _buildenv: %+v", r.Files)
		}
		data, _ := buildstore.GetBlob(tx, fe.MD5)
		for _, w := range []string{`<buildinfo project="dev" repository="standard" package="app" arch="x86_64">`,
			`<bdep name="gcc" version="1.0" release="1.1" arch="x86_64">`} {
			if !strings.Contains(string(data), w) {
				t.Errorf("_buildenv lacks %s:\n%s", w, data)
			}
		}
		return nil
	})
}
