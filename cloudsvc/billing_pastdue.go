package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// PastDueAfter is how long an invoice may stay unpaid: an invoice whose amount is still part of
// the balance this long after its date makes the account past due (blocking service transfers).
const PastDueAfter = 21 * 24 * time.Hour

// pastDueSince says since when the account is past due, or nil. Payments settle the oldest
// invoices first, so the unpaid part of the balance is made of the newest invoices: walking
// back from the newest, the invoice where their totals reach the balance is the oldest one not
// (fully) paid, and the account is past due from its date plus PastDueAfter. A balance that no
// invoice explains (set by hand) is never past due.
func pastDueSince(invoices []cloudstore.Invoice, balance int64, now time.Time) *time.Time {
	if balance <= 0 || len(invoices) == 0 {
		return nil
	}
	oldest := invoices[0]
	for i := len(invoices) - 1; i >= 0; i-- {
		balance -= invoices[i].TotalCents
		if balance <= 0 {
			oldest = invoices[i]
			break
		}
	}
	due := oldest.Date.Add(PastDueAfter)
	if now.Before(due) {
		return nil
	}
	return &due
}

// sameTime compares two optional times.
func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// refreshPastDue recomputes acct.PastDueSince from its invoices and balance at now; it reports
// whether it changed (the caller stores the account).
func refreshPastDue(tx kv.Tx, acct *cloudstore.Account, now time.Time) (bool, error) {
	if acct.BalanceCents <= 0 && acct.PastDueSince == nil {
		return false, nil // the usual case, answered without reading invoices (the job asks every second)
	}
	invoices, err := cloudstore.AccountInvoices(tx, acct.ID)
	if err != nil {
		return false, err
	}
	since := pastDueSince(invoices, acct.BalanceCents, now)
	if sameTime(since, acct.PastDueSince) {
		return false, nil
	}
	acct.PastDueSince = since
	return true, nil
}
