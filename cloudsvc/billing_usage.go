package cloudsvc

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The backup service's price: the reference gives none, so the appliance charges the smallest
// real plan's for every instance with backups enabled, over the same hours as the instance.
const (
	// BackupHourlyPrice is what backups cost an hour (dollars).
	BackupHourlyPrice = 0.003
	// BackupMonthlyPrice caps backups per instance and month (dollars), as MonthlyPrice caps
	// the instance.
	BackupMonthlyPrice = 2.0
)

// usageItems bills what the account used in [from, to): for every instance, one "hourly" item
// per stretch of its billing history (Instance.Owners) the account owned it in the period —
// instances transferred away or back included — and one more for its backups when enabled;
// then the account's managed databases (databaseUsageItems).
// Every started hour counts; an item costs hours × hourly price, at most the monthly price.
func usageItems(tx kv.Tx, account uint64, from, to time.Time) ([]cloudstore.InvoiceItem, error) {
	return usageItemsUntil(tx, account, from, to, nil)
}

// usageItemsUntil is usageItems for a period that ends at the moving present when h is not nil:
// it notes in h the last instant the items keep their hours (see horizon.hours).
func usageItemsUntil(tx kv.Tx, account uint64, from, to time.Time, h *horizon) ([]cloudstore.InvoiceItem, error) {
	instances, err := cloudstore.Instances(tx)
	if err != nil {
		return nil, err
	}
	var items []cloudstore.InvoiceItem
	for _, in := range instances {
		for _, o := range in.Owners {
			start, end, ok := ownedWithin(o, account, from, to)
			if o.AccountID == account {
				h.hours(start, end, to)
			}
			if !ok {
				continue
			}
			hours := int64((end.Sub(start) + time.Hour - 1) / time.Hour)
			label := fmt.Sprintf("Instance %s (%s)", in.Label, in.Type)
			items = append(items, hourlyItem(label, in.Region, in.HourlyPrice, in.MonthlyPrice, hours, start, end))
			if in.BackupsEnabled {
				items = append(items, hourlyItem("Backup Service - "+in.Label, in.Region, BackupHourlyPrice, BackupMonthlyPrice, hours, start, end))
			}
		}
	}
	databases, err := databaseUsageItems(tx, account, from, to, h)
	return append(items, databases...), err
}

// ownedWithin clips one stretch of ownership to [from, to); ok is false when it is another
// account's or does not overlap.
func ownedWithin(o cloudstore.Ownership, account uint64, from, to time.Time) (start, end time.Time, ok bool) {
	if o.AccountID != account {
		return start, end, false
	}
	start, end = o.From, to
	if start.Before(from) {
		start = from
	}
	if o.To != nil && o.To.Before(end) {
		end = *o.To
	}
	return start, end, end.After(start)
}

// hourlyItem prices hours of a product.
func hourlyItem(label, region string, hourly, monthly float64, hours int64, from, to time.Time) cloudstore.InvoiceItem {
	amount := min(int64(math.Round(float64(hours)*hourly*100)), int64(math.Round(monthly*100)))
	return cloudstore.InvoiceItem{
		Label: label, Type: "hourly", Region: region, UnitPrice: strconv.FormatFloat(hourly, 'f', -1, 64),
		Quantity: int(hours), AmountCents: amount, From: from, To: to.Add(-time.Second),
	}
}

// databaseUsageItems bills the account's databases used in [from, to): one "hourly" item per
// database for the hours it existed in the period — from its creation (provisioning counts, as
// the node is reserved) to its deletion — at the price of its type and cluster size when it was
// created, at most its monthly price. Deleted databases keep a record for this; complimentary
// ones (the demo world's) are not billed.
func databaseUsageItems(tx kv.Tx, account uint64, from, to time.Time, h *horizon) ([]cloudstore.InvoiceItem, error) {
	all, err := cloudstore.AccountDatabaseRecords(tx, account)
	if err != nil {
		return nil, err
	}
	var items []cloudstore.InvoiceItem
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
		h.hours(start, end, to)
		if !end.After(start) {
			continue
		}
		hours := int64((end.Sub(start) + time.Hour - 1) / time.Hour)
		items = append(items, hourlyItem(databaseItemLabel(d), d.Region, d.HourlyPrice, d.MonthlyPrice, hours, start, end))
	}
	return items, nil
}

// databaseItemLabel names a database on an invoice: "Managed Database orders-sql (g6-dedicated-2, 3 nodes)".
func databaseItemLabel(d cloudstore.Database) string {
	nodes := "1 node"
	if d.ClusterSize != 1 {
		nodes = fmt.Sprintf("%d nodes", d.ClusterSize)
	}
	return fmt.Sprintf("Managed Database %s (%s, %s)", d.Label, d.Type, nodes)
}
