package cloudsvc_test

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestSQLInstanceBackupRestore: a snapshot holds the data as it was, a restore really puts it
// back (rows written after the snapshot are gone), and a deleted backup's dump goes with it.
func TestSQLInstanceBackupRestore(t *testing.T) {
	w := sqlWorld(t, 4)
	demo := w.user("demo")
	d := w.activeSQL("pets-db")
	pw := w.password(d.ID)
	conn := w.mustDial(d)
	mustExec(t, conn, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)")
	mustExec(t, conn, "INSERT INTO pets VALUES (1, 'rex')")
	if err := w.svc.SnapshotDatabase(demo, cloudstore.FamilySQL, d.ID, ptr("before-tom"), nil, nil); err != nil {
		t.Fatal(err)
	}
	mustExec(t, conn, "INSERT INTO pets VALUES (2, 'tom')")
	w.clk.Set(w.clk.Now().Add(cloudsvc.SnapshotTime))
	w.tick()
	backups, err := w.svc.DatabaseBackups(demo, cloudstore.FamilySQL, d.ID)
	if err != nil || len(backups) != 1 {
		t.Fatalf("backups: %+v %v", backups, err)
	}
	if err := w.svc.RestoreDatabaseBackup(demo, cloudstore.FamilySQL, d.ID, backups[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := names(t, conn); got != "rex " {
		t.Fatalf("an open session after the restore sees %q, want the snapshot's rows", got)
	}
	w.clk.Set(w.clk.Now().Add(cloudsvc.RestoreTime))
	w.tick()
	fresh, err := w.dial(w.view(d.ID), pw)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, fresh); got != "rex " {
		t.Fatalf("after the restore: %q", got)
	}
	if err := w.svc.DeleteDatabaseBackup(demo, cloudstore.FamilySQL, d.ID, backups[0].ID); err != nil {
		t.Fatal(err)
	}
	var ok bool
	w.db.View(func(tx kv.Tx) error { _, ok = cloudstore.BackupDump(tx, backups[0].ID); return nil })
	if ok {
		t.Fatal("a deleted backup's dump stays")
	}
}

// TestSQLInstanceAutoBackupHoldsData: the midnight auto backup of a connectable instance holds
// its data.
func TestSQLInstanceAutoBackupHoldsData(t *testing.T) {
	w := sqlWorld(t, 4)
	d := w.activeSQL("pets-db")
	conn := w.mustDial(d)
	mustExec(t, conn, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)")
	mustExec(t, conn, "INSERT INTO pets VALUES (1, 'rex')")
	w.clk.Set(cloudstore.Midnight(w.clk.Now()).AddDate(0, 0, 1))
	w.tick()
	backups, err := w.svc.DatabaseBackups(w.user("demo"), cloudstore.FamilySQL, d.ID)
	if err != nil || len(backups) == 0 || backups[len(backups)-1].Type != cloudstore.BackupAuto {
		t.Fatalf("auto backups: %+v %v", backups, err)
	}
	var dump []byte
	w.db.View(func(tx kv.Tx) error { dump, _ = cloudstore.BackupDump(tx, backups[len(backups)-1].ID); return nil })
	if !strings.Contains(string(dump), "rex") {
		t.Fatalf("the auto backup's dump lacks the row: %q", dump)
	}
}
