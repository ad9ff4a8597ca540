package cloudstore

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// databaseUsageItems bills the account's databases used in [from, to): one "hourly" item per
// database for the hours it existed in the period — from its creation (provisioning counts, as
// the node is reserved) to its deletion — at the price of its type and cluster size when it was
// created, at most its monthly price. Deleted databases keep a record for this; complimentary
// ones (the demo world's) are not billed.
func databaseUsageItems(tx *bbolt.Tx, account uint64, from, to time.Time) ([]InvoiceItem, error) {
	all, err := store.IndexedRecords[Database](tx, store.CloudAccountDatabases, store.Itob(account), store.CloudDatabases)
	if err != nil {
		return nil, err
	}
	var items []InvoiceItem
	for _, d := range all {
		if d.Complimentary {
			continue
		}
		start, end := d.Created, to
		if start.Before(from) {
			start = from
		}
		if d.Deleted != nil && d.Deleted.Before(end) {
			end = *d.Deleted
		}
		if !end.After(start) {
			continue
		}
		hours := int64((end.Sub(start) + time.Hour - 1) / time.Hour)
		items = append(items, hourlyItem(databaseItemLabel(d), d.Region, d.HourlyPrice, d.MonthlyPrice, hours, start, end))
	}
	return items, nil
}

// databaseItemLabel names a database on an invoice: "Managed Database orders-sql (g6-dedicated-2, 3 nodes)".
func databaseItemLabel(d Database) string {
	nodes := "1 node"
	if d.ClusterSize != 1 {
		nodes = fmt.Sprintf("%d nodes", d.ClusterSize)
	}
	return fmt.Sprintf("Managed Database %s (%s, %s)", d.Label, d.Type, nodes)
}
