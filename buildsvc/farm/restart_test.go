package farm

import (
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// reopen closes the world's data file and opens it again with a new service over it, as a
// restart (or a kill -9: every step is its own committed transaction) does.
func (f *farmWorld) reopen() {
	f.t.Helper()
	db := testdb.Reopen(f.t, f.db)
	f.db = db
	f.svc = New(buildsvc.New(db, f.clk, nil, buildsvc.Options{}), db, f.clk, nil, Options{Workers: 2, BuildTime: 10 * time.Second})
}

// TestFarmRestartMidBuild: a job running when the appliance stops is still running after the
// restart, on the same worker, with the log it had; it finishes by the clock as it would have,
// its log whole and written once, with its binaries and history; the job that was scheduled
// behind it starts then.
func TestFarmRestartMidBuild(t *testing.T) {
	f := newFarmWorld(t, "x86_64")
	f.commit("libfoo", spec("libfoo", "Provides: foo-api = 2"))
	f.commit("tool1", spec("tool1", ""))
	f.commit("tool2", spec("tool2", ""))
	f.tick()
	if got := f.codes("x86_64"); got != "libfoo:building (building on pocketforge:1) tool1:building (building on pocketforge:2) tool2:scheduled (waiting for 2 compliant workers)" {
		t.Fatalf("before the restart: %s", got)
	}
	f.clk.Advance(4 * time.Second)
	f.tick()
	w := buildstore.Where{Project: "dev", Repository: "standard", Arch: "x86_64"}
	var before []byte
	f.db.View(func(tx kv.Tx) error {
		log, _ := buildstore.Log(tx, w, "libfoo", false)
		before = append([]byte(nil), log...)
		return nil
	})
	if len(before) == 0 || strings.Contains(string(before), "finished") {
		t.Fatalf("the log mid-build:\n%s", before)
	}

	f.reopen()
	if got := f.codes("x86_64"); !strings.HasPrefix(got, "libfoo:building (building on pocketforge:1)") || !strings.HasSuffix(got, "tool2:scheduled (waiting for 2 compliant workers)") {
		t.Fatalf("after the restart: %s", got)
	}
	f.tick() // nothing is due yet: the job goes on
	if got := f.codes("x86_64"); !strings.HasPrefix(got, "libfoo:building") {
		t.Fatalf("the first tick after the restart: %s", got)
	}
	f.clk.Advance(7 * time.Second)
	f.tick()
	if got := f.codes("x86_64"); got != "libfoo:succeeded tool1:succeeded tool2:building (building on pocketforge:1)" {
		t.Fatalf("after the build time: %s", got)
	}
	f.db.View(func(tx kv.Tx) error {
		log, _ := buildstore.Log(tx, w, "libfoo", false)
		text := string(log)
		if !strings.HasPrefix(text, string(before)) || strings.Count(text, "Building libfoo for project") != 1 ||
			!strings.Contains(text, `finished "build libfoo.spec"`) {
			t.Errorf("the log after the restart:\n%s", text)
		}
		if bins, _ := buildstore.Binaries(tx, w, "libfoo"); len(bins) != 2 {
			t.Errorf("libfoo's binaries: %+v", bins)
		}
		if h, _ := buildstore.History(tx, w, "libfoo"); len(h) != 1 {
			t.Errorf("libfoo's history: %+v", h)
		}
		return nil
	})
}
