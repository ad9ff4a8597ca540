package cloudstore

import (
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// dbTestWorld is an account in a fresh data file, to which databases are added as stored
// records (the database rules and lifecycle are cloudsvc's, tested there).
type dbTestWorld struct {
	t   *testing.T
	db  *store.DB
	acc uint64
}

func newDBTestWorld(t *testing.T) *dbTestWorld {
	w := &dbTestWorld{t: t, db: testDB(t)}
	w.write(func(tx *bbolt.Tx) error {
		a := &Account{Name: "a"}
		err := CreateAccount(tx, a)
		w.acc = a.ID
		return err
	})
	return w
}

func (w *dbTestWorld) write(fn func(tx *bbolt.Tx) error) {
	w.t.Helper()
	if err := w.db.Write(fn); err != nil {
		w.t.Fatal(err)
	}
}

// add stores a database of the account (straight, as the fixtures do).
func (w *dbTestWorld) add(d Database) uint64 {
	w.t.Helper()
	d.AccountID, d.Family, d.Engine = w.acc, FamilySQL, "mysql"
	if d.ClusterSize == 0 {
		d.ClusterSize = 1
	}
	if d.Label == "" {
		d.Label = "db-test"
	}
	w.write(func(tx *bbolt.Tx) error { return ImportDatabase(tx, &d, DatabaseSecrets{Password: "p"}) })
	return d.ID
}

// TestDatabaseUsage: a database is billed from its creation to its deletion, every started hour
// at its price, capped at the monthly price; complimentary ones are not billed.
func TestDatabaseUsage(t *testing.T) {
	w := newDBTestWorld(t)
	oct := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	nov := oct.AddDate(0, 1, 0)
	created := oct.AddDate(0, 0, 9).Add(10*time.Hour + 30*time.Minute)
	short := w.add(Database{Label: "short", Type: "g6-nanode-1", ClusterSize: 3, Status: DBActive, Created: created, HourlyPrice: 0.0525, MonthlyPrice: 35})
	w.add(Database{Label: "long", Type: "g6-nanode-1", Status: DBActive, Created: oct.AddDate(0, -2, 0), HourlyPrice: 0.0225, MonthlyPrice: 15})
	w.add(Database{Label: "free", Type: "g6-nanode-1", Status: DBActive, Created: oct, HourlyPrice: 1, MonthlyPrice: 100, Complimentary: true})
	w.write(func(tx *bbolt.Tx) error {
		d, _ := GetDatabase(tx, short)
		gone := created.Add(49*time.Hour + time.Minute)
		if err := RemoveDatabaseData(tx, d); err != nil {
			return err
		}
		d.Deleted = &gone // as cloudsvc's RetireDatabase leaves it
		return PutDatabase(tx, &d)
	})
	w.db.View(func(tx *bbolt.Tx) error {
		items, err := usageItems(tx, w.acc, oct, nov)
		// short: 49 h 1 min → 50 started hours × $0.0525 = $2.63; long: 744 h × $0.0225 = $16.74 → capped at $15.
		if err != nil || len(items) != 2 || items[0].Quantity != 50 || items[0].AmountCents != 263 || items[1].AmountCents != 1500 ||
			items[0].Label != "Managed Database short (g6-nanode-1, 3 nodes)" || !items[0].To.Equal(created.Add(49*time.Hour+time.Minute-time.Second)) {
			t.Fatalf("items: %+v %v", items, err)
		}
		return nil
	})
	w.db.View(func(tx *bbolt.Tx) error {
		list, _ := AccountDatabases(tx, w.acc, "")
		if len(list) != 2 {
			t.Fatalf("the deleted database is still listed: %+v", list)
		}
		return nil
	})
}
