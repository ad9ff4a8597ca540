package cloudsvc

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// dbTestWorld is an account with one database in the given state, in a fresh data file.
type dbTestWorld struct {
	t   *testing.T
	db  *store.DB
	acc uint64
}

func newDBTestWorld(t *testing.T) *dbTestWorld {
	w := &dbTestWorld{t: t, db: testdb.Open(t)}
	w.write(func(tx kv.Tx) error {
		a := &cloudstore.Account{Name: "a"}
		err := cloudstore.CreateAccount(tx, a)
		w.acc = a.ID
		return err
	})
	return w
}

func (w *dbTestWorld) write(fn func(tx kv.Tx) error) {
	w.t.Helper()
	if err := w.db.Write(fn); err != nil {
		w.t.Fatal(err)
	}
}

// add stores a database of the account (straight, as the fixtures do).
func (w *dbTestWorld) add(d cloudstore.Database) uint64 {
	w.t.Helper()
	d.AccountID, d.Family, d.Engine = w.acc, cloudstore.FamilySQL, "mysql"
	if d.ClusterSize == 0 {
		d.ClusterSize = 1
	}
	if d.Label == "" {
		d.Label = "db-test"
	}
	w.write(func(tx kv.Tx) error {
		return cloudstore.ImportDatabase(tx, &d, cloudstore.DatabaseSecrets{Password: "p"})
	})
	return d.ID
}

// run runs the job at now as the API does: only when something is due; it reports whether it ran.
func (w *dbTestWorld) run(now time.Time) bool {
	w.t.Helper()
	due := false
	w.db.View(func(tx kv.Tx) (err error) { due, err = cloudstore.DatabasesDue(tx, now); return })
	if due {
		w.write(func(tx kv.Tx) error { return runDatabaseJob(tx, now) })
	}
	return due
}

// backups lists the database's complete backups as "type created" lines.
func (w *dbTestWorld) backups(id uint64, now time.Time) []string {
	w.t.Helper()
	var out []string
	w.db.View(func(tx kv.Tx) error {
		d, _ := cloudstore.GetDatabase(tx, id)
		list, err := CompleteBackups(tx, d, now)
		for _, b := range list {
			out = append(out, b.Type+" "+b.Created.Format("01-02T15:04"))
		}
		return err
	})
	return out
}

func (w *dbTestWorld) get(id uint64) cloudstore.Database {
	var d cloudstore.Database
	w.db.View(func(tx kv.Tx) (err error) { d, err = cloudstore.GetDatabase(tx, id); return })
	return d
}

var nov10 = time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)

func day(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }

// TestAutoBackups: one auto backup at each 00:00 UTC while active, seven kept; a jump of the
// clock over several days takes one per missed day of the last seven, each at its midnight.
func TestAutoBackups(t *testing.T) {
	w := newDBTestWorld(t)
	id := w.add(cloudstore.Database{Status: cloudstore.DBActive, Created: nov10, Activated: nov10})
	if w.run(nov10.Add(11*time.Hour + 59*time.Minute)) {
		t.Fatal("due before midnight")
	}
	if !w.run(day(11)) || strings.Join(w.backups(id, day(11)), ",") != "auto 11-11T00:00" {
		t.Fatalf("first midnight: %v", w.backups(id, day(11)))
	}
	if w.run(day(11).Add(time.Second)) {
		t.Fatal("idle right after the backup")
	}
	jump := day(21).Add(30 * time.Second)
	w.run(jump)
	want := "auto 11-15T00:00,auto 11-16T00:00,auto 11-17T00:00,auto 11-18T00:00,auto 11-19T00:00,auto 11-20T00:00,auto 11-21T00:00"
	if got := strings.Join(w.backups(id, jump), ","); got != want {
		t.Fatalf("after a 10-day jump:\n%s\nwant\n%s", got, want)
	}
	if w.run(jump) {
		t.Fatal("a second run at the same instant had work")
	}
	w.run(day(22))
	if got := w.backups(id, day(22)); len(got) != 7 || got[0] != "auto 11-16T00:00" || got[6] != "auto 11-22T00:00" {
		t.Fatalf("next day: %v", got)
	}
	if d := w.get(id); !d.OldestAutoBackup.Equal(day(16)) || !d.Due.Equal(day(23)) {
		t.Fatalf("oldest %v due %v", d.OldestAutoBackup, d.Due)
	}
}

// TestAutoBackupsOnlyWhenActive: a degraded database takes none but its old ones still expire;
// one updating over midnight gets that midnight's once the update is over.
func TestAutoBackupsOnlyWhenActive(t *testing.T) {
	w := newDBTestWorld(t)
	degraded := w.add(cloudstore.Database{Label: "broken", Status: cloudstore.DBDegraded, Created: nov10, Activated: nov10})
	w.write(func(tx kv.Tx) error {
		return cloudstore.ImportDatabaseBackup(tx, cloudstore.DatabaseBackup{DatabaseID: degraded, Type: cloudstore.BackupAuto, Label: "old", Created: day(10), Available: day(10)})
	})
	busy := w.add(cloudstore.Database{Label: "busy", Status: cloudstore.DBUpdating, Op: cloudstore.OpPatch, Next: cloudstore.DBActive, Until: day(11).Add(time.Minute), Created: nov10, Activated: nov10})
	w.run(day(11))
	if got := w.backups(busy, day(11)); len(got) != 0 {
		t.Fatalf("backup while updating: %v", got)
	}
	w.run(day(11).Add(time.Minute))
	if got := strings.Join(w.backups(busy, day(11).Add(time.Minute)), ","); got != "auto 11-11T00:00" {
		t.Fatalf("after the update: %v", got)
	}
	if got := strings.Join(w.backups(degraded, day(16)), ","); got != "auto 11-10T00:00" {
		t.Fatalf("degraded before expiry: %v", got)
	}
	w.run(day(17))
	if got := w.backups(degraded, day(17)); len(got) != 0 {
		t.Fatalf("degraded after expiry: %v", got)
	}
	if d := w.get(degraded); !d.Due.IsZero() {
		t.Fatalf("a degraded database without backups has nothing due: %v", d.Due)
	}
}

// TestTransitions: transient statuses end by the clock — seen by readers at once (At), persisted
// by the job; a restore of a backup older than the last credentials reset fails, with an event.
func TestTransitions(t *testing.T) {
	w := newDBTestWorld(t)
	id := w.add(cloudstore.Database{Status: cloudstore.DBProvisioning, Op: cloudstore.OpProvision, Next: cloudstore.DBActive, Until: nov10.Add(30 * time.Second), Created: nov10})
	if d := w.get(id).At(nov10.Add(29 * time.Second)); d.Status != cloudstore.DBProvisioning {
		t.Fatalf("too early: %s", d.Status)
	}
	if d := w.get(id).At(nov10.Add(30 * time.Second)); d.Status != cloudstore.DBActive || !d.Activated.Equal(nov10.Add(30*time.Second)) {
		t.Fatalf("read at the end: %+v", d)
	}
	w.run(nov10.Add(31 * time.Second))
	if d := w.get(id); d.Status != cloudstore.DBActive || d.Next != "" || !d.Due.Equal(day(11)) {
		t.Fatalf("persisted: %+v", d)
	}
	now := nov10.Add(time.Hour)
	w.write(func(tx kv.Tx) error {
		d, _ := cloudstore.GetDatabase(tx, id)
		if _, err := snapshotDatabase(tx, d, sp("before"), nil, now); err != nil {
			return err
		}
		d, _ = cloudstore.GetDatabase(tx, id)
		_, err := resetDatabaseCredentials(tx, d.At(now.Add(SnapshotTime)), "new-password", now.Add(SnapshotTime))
		return err
	})
	later := now.Add(time.Minute)
	var backup uint64
	w.write(func(tx kv.Tx) error {
		d, _ := cloudstore.GetDatabase(tx, id)
		list, _ := CompleteBackups(tx, d, later)
		backup = list[0].ID
		_, err := restoreDatabaseBackup(tx, d, backup, later)
		return err
	})
	if d := w.get(id); d.Status != cloudstore.DBRestoring || d.Next != cloudstore.DBFailed || d.DataGeneration != 1 {
		t.Fatalf("restoring: %+v", d)
	}
	w.run(later.Add(RestoreTime))
	var events []cloudstore.Event
	w.db.View(func(tx kv.Tx) (err error) { events, err = cloudstore.AccountEvents(tx, w.acc); return })
	if d := w.get(id); d.Status != cloudstore.DBFailed || len(events) != 1 || events[0].Action != "database_failed" || events[0].Username != nil {
		t.Fatalf("after the restore: %s, events %+v", d.Status, events)
	}
}

// TestDegradeDatabase: the fault injection — a degraded database refuses what needs it
// active, is shown so until deleted, and can be deleted.
func TestDegradeDatabase(t *testing.T) {
	w := newDBTestWorld(t)
	id := w.add(cloudstore.Database{Status: cloudstore.DBActive, Created: nov10, Activated: nov10})
	w.write(func(tx kv.Tx) error { return DegradeDatabase(tx, id, cloudstore.DBDegraded, nov10.Add(time.Hour)) })
	err := w.db.Write(func(tx kv.Tx) error {
		if err := DegradeDatabase(tx, id, cloudstore.DBActive, nov10); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("degrading to active: %v", err)
		}
		d, _ := cloudstore.GetDatabase(tx, id)
		if _, err := patchDatabase(tx, d, nov10.Add(2*time.Hour)); err == nil || !strings.Contains(err.Error(), "Database is degraded") {
			t.Errorf("patch of a degraded database: %v", err)
		}
		return RetireDatabase(tx, d, nov10.Add(2*time.Hour))
	})
	if err != nil {
		t.Fatal(err)
	}
	w.db.View(func(tx kv.Tx) error {
		if err := DegradeDatabase(tx, id, cloudstore.DBFailed, nov10); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("degrading a deleted database: %v", err)
		}
		return nil
	})
}
