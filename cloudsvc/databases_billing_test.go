package cloudsvc

import (
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestDatabaseUsage: a database is billed from its creation to its deletion, every started hour
// at its price, capped at the monthly price; complimentary ones are not billed.
func TestDatabaseUsage(t *testing.T) {
	w := newDBTestWorld(t)
	oct := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	nov := oct.AddDate(0, 1, 0)
	created := oct.AddDate(0, 0, 9).Add(10*time.Hour + 30*time.Minute)
	short := w.add(cloudstore.Database{Label: "short", Type: "g6-nanode-1", ClusterSize: 3, Status: cloudstore.DBActive, Created: created, HourlyPrice: 0.0525, MonthlyPrice: 35})
	w.add(cloudstore.Database{Label: "long", Type: "g6-nanode-1", Status: cloudstore.DBActive, Created: oct.AddDate(0, -2, 0), HourlyPrice: 0.0225, MonthlyPrice: 15})
	w.add(cloudstore.Database{Label: "free", Type: "g6-nanode-1", Status: cloudstore.DBActive, Created: oct, HourlyPrice: 1, MonthlyPrice: 100, Complimentary: true})
	w.write(func(tx kv.Tx) error {
		d, _ := cloudstore.GetDatabase(tx, short)
		gone := created.Add(49*time.Hour + time.Minute)
		if err := cloudstore.RemoveDatabaseData(tx, d); err != nil {
			return err
		}
		d.Deleted = &gone // as cloudsvc's RetireDatabase leaves it
		return cloudstore.PutDatabase(tx, &d)
	})
	w.db.View(func(tx kv.Tx) error {
		items, err := usageItems(tx, w.acc, oct, nov)
		// short: 49 h 1 min → 50 started hours × $0.0525 = $2.63; long: 744 h × $0.0225 = $16.74 → capped at $15.
		if err != nil || len(items) != 2 || items[0].Quantity != 50 || items[0].AmountCents != 263 || items[1].AmountCents != 1500 ||
			items[0].Label != "Managed Database short (g6-nanode-1, 3 nodes)" || !items[0].To.Equal(created.Add(49*time.Hour+time.Minute-time.Second)) {
			t.Fatalf("items: %+v %v", items, err)
		}
		return nil
	})
	w.db.View(func(tx kv.Tx) error {
		list, _ := cloudstore.AccountDatabases(tx, w.acc, "")
		if len(list) != 2 {
			t.Fatalf("the deleted database is still listed: %+v", list)
		}
		return nil
	})
}
