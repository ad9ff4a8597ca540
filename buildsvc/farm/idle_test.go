package farm

import (
	"strings"
	"testing"
	"time"
)

// TestFarmTickIdle: once a tick finds the farm idle, the ticks after it skip the scans until a
// commit; the commit's work is then picked up by the next tick, the clock moving or not.
func TestFarmTickIdle(t *testing.T) {
	f := newFarmWorld(t, "x86_64")
	f.commit("libfoo", spec("libfoo", ""))
	f.tick()
	if f.svc.farmIdle.Load() != 0 {
		t.Fatal("a farm with a job scheduled was taken for idle")
	}
	f.settle()
	v := f.db.Version()
	if got := f.svc.farmIdle.Load(); got != v+1 {
		t.Fatalf("a settled farm is not known idle: mark %d, version %d", got, v)
	}
	f.clk.Advance(time.Hour)
	f.tick()
	if f.db.Version() != v || f.svc.farmIdle.Load() != v+1 {
		t.Fatal("an idle tick wrote or forgot the mark")
	}
	f.commit("app", spec("app", ""))
	f.tick()
	if got := f.codes("x86_64"); !strings.Contains(got, "app:building") {
		t.Fatalf("the tick after a commit did not start its build: %s", got)
	}
	f.settle()
	if got := f.codes("x86_64"); !strings.Contains(got, "app:succeeded") || f.svc.farmIdle.Load() != f.db.Version()+1 {
		t.Fatalf("after the second build: %s", got)
	}
}
