package cloudstore

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// MonthStart is the first instant (UTC) of t's month.
func MonthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// OwnedHours is how long account owned the instance within [from, to), in hours, from its
// billing history.
func OwnedHours(in Instance, account uint64, from, to time.Time) float64 {
	var total time.Duration
	for _, o := range in.Owners {
		if o.AccountID != account {
			continue
		}
		start, end := o.From, to
		if o.To != nil && o.To.Before(end) {
			end = *o.To
		}
		if start.Before(from) {
			start = from
		}
		if end.After(start) {
			total += end.Sub(start)
		}
	}
	return total.Hours()
}

// NetworkUsage is the account's outbound traffic this month (GB, accrued by the clock over the
// hours it owned each instance, including instances it has since transferred away) and its
// quota (GB, the sum of the instances it owns now).
func NetworkUsage(tx kv.Tx, account uint64, now time.Time) (used float64, quota int, err error) {
	from := MonthStart(now)
	err = store.Each(tx, store.CloudInstances, nil, func(_ []byte, in Instance) (bool, error) {
		used += OwnedHours(in, account, from, now) / 24 * in.TransferGBPerDay
		if in.AccountID == account {
			quota += in.TransferQuotaGB
		}
		return true, nil
	})
	return used, quota, err
}
