package cloudsvc_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestSQLInstanceFollowsWrites: the writes that must take effect at once do, before they are
// answered: an allow list without the client refuses it, a credentials reset makes the old
// password fail and the new one work, suspend stops the listener and resume serves the same
// data, delete removes the data.
func TestSQLInstanceFollowsWrites(t *testing.T) {
	w := sqlWorld(t, 4)
	demo := w.user("demo")
	d := w.activeSQL("pets-db")
	conn := w.mustDial(d)
	mustExec(t, conn, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)")
	mustExec(t, conn, "INSERT INTO pets VALUES (1, 'rex')")

	t.Run("allow_list without the client", func(t *testing.T) {
		elsewhere, pw := []string{"203.0.113.1"}, w.password(d.ID)
		if _, err := w.svc.UpdateDatabase(demo, cloudstore.FamilySQL, d.ID, cloudstore.DatabaseUpdate{AllowList: &elsewhere}, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := w.dial(d, pw); err == nil || !strings.Contains(err.Error(), "1130") {
			t.Fatalf("a client outside the allow list: %v, want error 1130", err)
		}
		w.clk.Set(w.clk.Now().Add(cloudsvc.UpdateTime))
		back := []string{"127.0.0.1"}
		if _, err := w.svc.UpdateDatabase(demo, cloudstore.FamilySQL, d.ID, cloudstore.DatabaseUpdate{AllowList: &back}, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := w.dial(d, pw); err != nil {
			t.Fatalf("back on the allow list: %v", err)
		}
		w.clk.Set(w.clk.Now().Add(cloudsvc.UpdateTime))
	})
	t.Run("credentials reset", func(t *testing.T) {
		old := w.password(d.ID)
		if err := w.svc.ResetDatabaseCredentials(demo, cloudstore.FamilySQL, d.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := w.dial(d, old); err == nil || !strings.Contains(err.Error(), "1045") {
			t.Fatalf("the old password: %v, want error 1045", err)
		}
		w.mustDial(d)
	})
	t.Run("suspend and resume", func(t *testing.T) {
		if err := w.svc.SuspendDatabase(demo, cloudstore.FamilySQL, d.ID); err != nil {
			t.Fatal(err)
		}
		if v := w.view(d.ID); v.Status != cloudstore.DBSuspending || v.Live != nil {
			t.Fatalf("suspending: %s, live %+v", v.Status, v.Live)
		}
		if _, err := w.dial(d, "any"); err == nil {
			t.Fatal("a suspended instance still serves")
		}
		w.clk.Set(w.clk.Now().Add(cloudsvc.SuspendTime))
		w.tick()
		if v := w.view(d.ID); v.Status != cloudstore.DBSuspended {
			t.Fatalf("after the suspend: %s", v.Status)
		}
		if err := w.svc.ResumeDatabase(demo, cloudstore.FamilySQL, d.ID); err != nil {
			t.Fatal(err)
		}
		v := w.view(d.ID)
		if v.Status != cloudstore.DBResuming || v.Live == nil || v.Live.Port != d.Live.Port {
			t.Fatalf("resuming: %s, live %+v", v.Status, v.Live)
		}
		w.clk.Set(w.clk.Now().Add(cloudsvc.ResumeTime))
		w.tick()
		if got := names(t, w.mustDial(v)); got != "rex " {
			t.Fatalf("after resume: %q", got)
		}
	})
	t.Run("delete", func(t *testing.T) {
		if err := w.svc.DeleteDatabase(demo, cloudstore.FamilySQL, d.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := w.dial(d, "any"); err == nil {
			t.Fatal("a deleted instance still serves")
		}
		var left []byte
		w.db.View(func(tx kv.Tx) error { left = cloudstore.SQLDataOf(tx, d.ID); return nil })
		if left != nil {
			t.Fatalf("the data of a deleted instance stays: %d bytes", len(left))
		}
	})
}

// TestSQLInstanceOldCA: an instance from a data file written before CA keys were kept gets a
// new CA at its first start, and the ssl view shows that one (dial verifies against it).
func TestSQLInstanceOldCA(t *testing.T) {
	w := sqlWorld(t, 4)
	d := w.activeSQL("old-db")
	before := w.ca(d.ID)
	w.svc.Close()
	err := w.db.Write(func(tx kv.Tx) error {
		s, err := cloudstore.DatabaseSecretsOf(tx, d.ID)
		s.CAKey = nil
		if err == nil {
			err = cloudstore.PutDatabaseSecrets(tx, d.ID, s)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	w.svc = w.reopen(4)
	w.clk.Set(w.clk.Now().Add(time.Second))
	w.tick()
	delete(w.cas, d.ID)
	if after := w.ca(d.ID); string(after) == string(before) {
		t.Fatal("the CA was not renewed")
	}
	w.mustDial(w.view(d.ID))
}
