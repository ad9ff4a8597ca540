package cloudsvc_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// TestSQLCapacity: with every place held (the demo world's orders-sql and legacy-sql, and one
// more), a create
// and a resume are refused with a 400 naming the limit and its flag, and change nothing; an
// instance that becomes active when no place is left stays a record that does not listen, its
// view the simulated one.
func TestSQLCapacity(t *testing.T) {
	w := sqlWorld(t, 3)
	demo := w.user("demo")
	a := w.activeSQL("a-db")
	if a.Live == nil {
		t.Fatal("the second instance does not listen")
	}
	refused := func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "--sqldb-max-instances=3") {
			t.Fatalf("got %v, want a capacity refusal naming the flag", err)
		}
	}
	_, err := w.svc.CreateDatabase(demo, newDatabase("b-db"), nil)
	refused(t, err)

	if err := w.svc.SuspendDatabase(demo, cloudstore.FamilySQL, a.ID); err != nil {
		t.Fatal(err)
	}
	w.clk.Set(w.clk.Now().Add(cloudsvc.SuspendTime))
	w.tick()
	b, err := w.svc.CreateDatabase(demo, newDatabase("b-db"), nil)
	if err != nil {
		t.Fatalf("a create once a place is free: %v", err)
	}
	refused(t, w.svc.ResumeDatabase(demo, cloudstore.FamilySQL, a.ID))
	if v := w.view(a.ID); v.Status != cloudstore.DBSuspended {
		t.Fatalf("a refused resume changed the status to %s", v.Status)
	}

	// A lower limit after a restart: b becomes active with no place left.
	w.svc.Close()
	w.svc = w.reopen(2)
	w.clk.Set(w.clk.Now().Add(cloudsvc.DefaultDatabaseProvisionTime + time.Second))
	w.tick()
	v := w.view(b.ID)
	if v.Status != cloudstore.DBActive || v.Live != nil || v.Port() != 3306 {
		t.Fatalf("over capacity: status %s, live %+v", v.Status, v.Live)
	}
}
