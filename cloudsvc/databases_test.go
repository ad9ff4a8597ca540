package cloudsvc_test

import (
	"errors"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// newDatabase is a valid create request.
func newDatabase(label string) cloudstore.NewDatabase {
	return cloudstore.NewDatabase{Label: ptr(label), Engine: ptr("mysql/8.0.26"), Type: ptr("g6-nanode-1"), Region: ptr("eu-west")}
}

// TestDatabaseRefusals: the domain refuses what a caller's grants or a database's state do not
// allow, and a refusal changes nothing.
func TestDatabaseRefusals(t *testing.T) {
	w := newWorld(t)
	demo := w.user("demo")
	db, err := w.svc.CreateDatabase(demo, newDatabase("orders"), nil)
	if err != nil {
		t.Fatal(err)
	}
	nogrants, err := w.svc.CreateUser(demo, cloudstore.NewUser{Username: "ivy", Email: "ivy@example.com", Restricted: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		op     func() error
		kind   error
		reason string // the refusal's message ("" any)
	}{
		{name: "create without add_databases", kind: store.ErrForbidden, reason: "Unauthorized",
			op: func() error { _, err := w.svc.CreateDatabase(nogrants, newDatabase("ivy-db"), nil); return err }},
		{name: "a restricted user without a grant does not see it", kind: store.ErrNotFound,
			op: func() error { _, err := w.svc.Database(w.user("carol"), cloudstore.FamilySQL, db.ID); return err }},
		{name: "another account does not see it", kind: store.ErrNotFound,
			op: func() error { return w.svc.DeleteDatabase(w.user("dave"), cloudstore.FamilySQL, db.ID) }},
		{name: "update while provisioning", kind: store.ErrInvalid,
			reason: "Database is provisioning; this operation requires an active database",
			op: func() error {
				_, err := w.svc.UpdateDatabase(demo, cloudstore.FamilySQL, db.ID, cloudstore.DatabaseUpdate{Label: ptr("renamed")}, nil)
				return err
			}},
		{name: "delete while provisioning", kind: store.ErrInvalid,
			op: func() error { return w.svc.DeleteDatabase(demo, cloudstore.FamilySQL, db.ID) }},
		{name: "a second database with the label", kind: store.ErrInvalid,
			reason: `label: A database labeled "orders" already exists on this account`,
			op:     func() error { _, err := w.svc.CreateDatabase(demo, newDatabase("orders"), nil); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			events := len(w.actions(demo.AccountID))
			err := c.op()
			if !errors.Is(err, c.kind) || c.reason != "" && err.Error() != c.reason {
				t.Fatalf("err %v, want %v %q", err, c.kind, c.reason)
			}
			if n := len(w.actions(demo.AccountID)); n != events {
				t.Errorf("events %d → %d", events, n)
			}
			got, err := w.svc.Database(demo, cloudstore.FamilySQL, db.ID)
			if err != nil || got.Label != "orders" || got.Status != cloudstore.DBProvisioning {
				t.Errorf("the database changed: %+v, %v", got, err)
			}
		})
	}
	// Once provisioned, the same update goes through.
	w.clk.Set(start.Add(cloudsvc.DefaultDatabaseProvisionTime + time.Second))
	if _, err := w.svc.UpdateDatabase(demo, cloudstore.FamilySQL, db.ID, cloudstore.DatabaseUpdate{Label: ptr("renamed")}, nil); err != nil {
		t.Fatalf("update when active: %v", err)
	}
}
