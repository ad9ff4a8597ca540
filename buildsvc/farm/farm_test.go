package farm

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// farmWorld is a small build world: a base project whose repository holds ready binaries, and
// a project "dev" building against it.
type farmWorld struct {
	t   *testing.T
	svc *Farm
	db  *store.DB
	clk *clock.Fixed
}

func newFarmWorld(t *testing.T, archs ...string) *farmWorld {
	t.Helper()
	db := testdb.Open(t)
	clk := clock.NewFixed(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	svc := New(buildsvc.New(db, clk, nil, buildsvc.Options{}), db, clk, nil, Options{Workers: 2, BuildTime: 10 * time.Second})
	f := &farmWorld{t: t, svc: svc, db: db, clk: clk}
	f.write(func(tx kv.Tx) error {
		base := buildstore.Project{Name: "base", Repositories: []buildstore.Repository{{Name: "standard", Archs: archs}}}
		dev := buildstore.Project{Name: "dev", Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}},
			Repositories: []buildstore.Repository{{Name: "standard", Archs: archs, Paths: []buildstore.Path{{Project: "base", Repository: "standard"}}}}}
		for _, p := range []buildstore.Project{base, dev} {
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
		}
		for _, arch := range archs {
			w := buildstore.Where{Project: "base", Repository: "standard", Arch: arch}
			for _, name := range []string{"gcc", "make", "glibc", "rpm-build"} {
				b := buildstore.Binary{Package: "_repository", Filename: fmt.Sprintf("%s-1.0-1.1.%s.rpm", name, arch),
					Name: name, Version: "1.0", Release: "1.1", Arch: arch}
				if err := buildstore.PutBinary(tx, w, b, []byte("rpm")); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return f
}

func (f *farmWorld) write(fn func(tx kv.Tx) error) {
	f.t.Helper()
	if err := f.db.Write(fn); err != nil {
		f.t.Fatal(err)
	}
}

// commit puts package pkg of dev with the given spec.
func (f *farmWorld) commit(pkg, spec string) {
	f.t.Helper()
	f.write(func(tx kv.Tx) error {
		if _, err := buildstore.GetPackage(tx, "dev", pkg); err != nil {
			if err := buildstore.PutPackage(tx, buildstore.Package{Project: "dev", Name: pkg}); err != nil {
				return err
			}
		}
		sum, err := buildstore.PutBlob(tx, []byte(spec))
		if err != nil {
			return err
		}
		_, err = buildsvc.CommitRevision(tx, "dev", pkg, []buildstore.FileEntry{{Name: pkg + ".spec", MD5: sum}}, buildstore.Revision{User: "alice"}, f.clk.Now())
		return err
	})
}

// tick runs the farm's job once at the clock's time.
func (f *farmWorld) tick() {
	f.t.Helper()
	if err := f.svc.FarmTick(); err != nil {
		f.t.Fatal(err)
	}
}

// codes is "pkg:code[ details]" of every dev package in arch, sorted.
func (f *farmWorld) codes(arch string) string {
	var out []string
	f.db.View(func(tx kv.Tx) error {
		list, _ := buildstore.Statuses(tx, buildstore.Where{Project: "dev", Repository: "standard", Arch: arch})
		for _, st := range list {
			s := st.Package + ":" + st.Code
			if st.Details != "" {
				s += " (" + st.Details + ")"
			}
			out = append(out, s)
		}
		return nil
	})
	return strings.Join(out, " ")
}

func spec(name, extra string) string {
	return fmt.Sprintf("Name: %s\nVersion: 1.0\nRelease: 0\nSummary: %s\nLicense: MIT\nBuildRequires: gcc make\n%s\n%%description\n%s.\n\n%%build\nmake\n\n%%install\nmkdir -p %%{buildroot}%%{_bindir}\n\n%%files\n%%{_bindir}/%s\n", name, name, extra, name, name)
}

// TestFarmSchedulesBuildsAndResolves: a pass decides every package for its reason; workers run
// the jobs by the clock; a package that depends on another waits for it, then builds against
// its binaries.
func TestFarmSchedulesBuildsAndResolves(t *testing.T) {
	f := newFarmWorld(t, "x86_64")
	f.commit("libfoo", spec("libfoo", "Provides: foo-api = 2"))
	f.commit("app", spec("app", "BuildRequires: foo-api >= 2"))
	f.commit("lost", spec("lost", "BuildRequires: nonexistent-devel"))
	f.commit("armonly", spec("armonly", "ExclusiveArch: aarch64"))
	f.commit("nospec", "")
	f.write(func(tx kv.Tx) error { // nospec: a file that is no spec
		k := "nospec"
		sum, _ := buildstore.PutBlob(tx, []byte("README"))
		_, err := buildsvc.CommitRevision(tx, "dev", k, []buildstore.FileEntry{{Name: "README", MD5: sum}}, buildstore.Revision{User: "alice"}, f.clk.Now())
		return err
	})
	f.tick()
	// app needs what libfoo provides, and libfoo has not built yet: nothing provides it.
	want := "app:unresolvable (nothing provides foo-api >= 2) armonly:excluded libfoo:building (building on pocketforge:1) lost:unresolvable (nothing provides nonexistent-devel) nospec:broken (no recipe file)"
	if got := f.codes("x86_64"); got != want {
		t.Fatalf("after the first tick:\n got %s\nwant %s", got, want)
	}
	f.clk.Advance(11 * time.Second)
	f.tick() // libfoo finishes; app is rescheduled and starts
	f.tick()
	if got := f.codes("x86_64"); !strings.HasPrefix(got, "app:building") || !strings.Contains(got, "libfoo:succeeded") {
		t.Fatalf("after libfoo's build: %s", got)
	}
	f.clk.Advance(11 * time.Second)
	f.tick()
	f.tick()
	if got := f.codes("x86_64"); !strings.HasPrefix(got, "app:succeeded") {
		t.Fatalf("after app's build: %s", got)
	}
	f.db.View(func(tx kv.Tx) error {
		bins, _ := buildstore.Binaries(tx, buildstore.Where{Project: "dev", Repository: "standard", Arch: "x86_64"}, "app")
		var names []string
		for _, b := range bins {
			names = append(names, b.Filename)
		}
		if strings.Join(names, " ") != "app-1.0-1.1.src.rpm app-1.0-1.1.x86_64.rpm" {
			t.Errorf("app's binaries: %v", names)
		}
		return nil
	})
	// Nothing changed: another tick schedules nothing.
	f.tick()
	if got := f.codes("x86_64"); !strings.HasPrefix(got, "app:succeeded") {
		t.Fatalf("a quiet tick changed: %s", got)
	}
	// A failing %check fails the build, with the line in the log; app, which depends on
	// libfoo's binaries, waits meanwhile.
	f.commit("libfoo", strings.Replace(spec("libfoo", "Provides: foo-api = 2"), "%build\nmake\n", "%build\nmake\n\n%check\nexit 1\n", 1))
	f.tick()
	if got := f.codes("x86_64"); !strings.HasPrefix(got, "app:blocked (libfoo)") {
		t.Fatalf("while libfoo rebuilds: %s", got)
	}
	f.clk.Advance(11 * time.Second)
	f.tick()
	f.tick()
	if got := f.codes("x86_64"); !strings.Contains(got, "libfoo:failed") {
		t.Fatalf("after a failing check: %s", got)
	}
	f.db.View(func(tx kv.Tx) error {
		log, _ := buildstore.Log(tx, buildstore.Where{Project: "dev", Repository: "standard", Arch: "x86_64"}, "libfoo", false)
		if !strings.Contains(string(log), "+ exit 1") || !strings.Contains(string(log), "Bad exit status") {
			t.Errorf("the failed build's log:\n%s", log)
		}
		return nil
	})
	_ = specfile.Dep{}
}

// settle ticks the farm, moving the clock past each job, until nothing is scheduled or building.
func (f *farmWorld) settle() {
	f.t.Helper()
	for i := 0; i < 50; i++ {
		f.tick()
		if !strings.Contains(f.codes("x86_64"), ":scheduled") && !strings.Contains(f.codes("x86_64"), ":building") {
			f.tick()
			return
		}
		f.clk.Advance(11 * time.Second)
	}
	f.t.Fatalf("the farm did not settle: %s", f.codes("x86_64"))
}

// TestFarmPublishes: a finished repository's binaries are published with rpm-md metadata a
// reader takes (the explorer's own reader checks the checksums), and unchanged binaries are not
// published again.
func TestFarmPublishes(t *testing.T) {
	f := newFarmWorld(t, "x86_64")
	f.commit("libfoo", spec("libfoo", ""))
	f.settle()
	var published time.Time
	f.db.View(func(tx kv.Tx) error {
		st, _ := buildstore.GetRepoState(tx, buildstore.Where{Project: "dev", Repository: "standard", Arch: "x86_64"})
		if st.Code != "published" {
			t.Errorf("repository code %q, want published", st.Code)
		}
		published = st.Published
		fsys := fstest.MapFS{}
		for _, e := range buildstore.PublishedFiles(tx, "dev", "standard", "") {
			fsys["repo/"+e.Path] = &fstest.MapFile{Data: append([]byte(nil), buildstore.PublishedFile(tx, "dev", "standard", e.Path)...)}
		}
		if _, ok := fsys["repo/x86_64/libfoo-1.0-1.1.x86_64.rpm"]; !ok {
			t.Errorf("published files: %v", keys(fsys))
		}
		rpms, err := spdx.ParseRepodata(fsys, "repo/repodata")
		if err != nil || len(rpms) != 2 {
			t.Fatalf("the published metadata: %v, %+v", err, rpms)
		}
		return nil
	})
	f.clk.Advance(time.Hour)
	f.write(func(tx kv.Tx) error { return buildstore.MarkDirty(tx, "dev") })
	f.settle()
	f.db.View(func(tx kv.Tx) error {
		st, _ := buildstore.GetRepoState(tx, buildstore.Where{Project: "dev", Repository: "standard", Arch: "x86_64"})
		if !st.Published.Equal(published) {
			t.Errorf("unchanged binaries were published again at %v", st.Published)
		}
		return nil
	})
}

func keys(m fstest.MapFS) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestFarmControl: rebuild builds again with "source change" as the reason, wipe deletes the
// binaries (and the package builds anew), abortbuild ends a running job as failed; a person
// who maintains nothing is refused.
func TestFarmControl(t *testing.T) {
	f := newFarmWorld(t, "x86_64")
	f.commit("libfoo", spec("libfoo", ""))
	f.settle()
	alice := buildstore.Person{Login: "alice"}
	if err := f.svc.ControlBuilds(buildstore.Person{Login: "mallory"}, "dev", CmdRebuild, BuildFilter{}); err == nil {
		t.Error("a stranger rebuilt dev")
	}
	if err := f.svc.ControlBuilds(alice, "dev", CmdRebuild, BuildFilter{Packages: []string{"libfoo"}}); err != nil {
		t.Fatal(err)
	}
	f.tick()
	w := buildstore.Where{Project: "dev", Repository: "standard", Arch: "x86_64"}
	f.db.View(func(tx kv.Tx) error {
		st, _ := buildstore.GetStatus(tx, w, "libfoo")
		if st.Code != buildstore.CodeBuilding || st.Reason.Explain != "source change" || st.Bcnt != 2 {
			t.Errorf("after rebuild: %s %q bcnt %d", st.Code, st.Reason.Explain, st.Bcnt)
		}
		return nil
	})
	if err := f.svc.ControlBuilds(alice, "dev", CmdAbortBuild, BuildFilter{}); err != nil {
		t.Fatal(err)
	}
	f.tick()
	if got := f.codes("x86_64"); got != "libfoo:failed" {
		t.Errorf("after abortbuild: %s", got)
	}
	if err := f.svc.ControlBuilds(alice, "dev", CmdWipe, BuildFilter{Codes: []string{"failed"}}); err != nil {
		t.Fatal(err)
	}
	f.db.View(func(tx kv.Tx) error {
		if buildstore.HasBinaries(tx, w, "libfoo") {
			t.Error("wipe left binaries")
		}
		return nil
	})
	f.settle()
	if got := f.codes("x86_64"); got != "libfoo:succeeded" {
		t.Errorf("after wipe the package builds anew: %s", got)
	}
	// A filter that matches nothing does nothing and is no error.
	if err := f.svc.ControlBuilds(alice, "dev", CmdRebuild, BuildFilter{Repositories: []string{"nope"}}); err != nil {
		t.Errorf("a filter matching nothing: %v", err)
	}
}
