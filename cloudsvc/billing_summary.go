package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// accountBillingSummary gathers acct's uninvoiced usage, active promotions and default card. When
// h is not nil it notes the last instant the summary stays the same as the clock moves on (the
// store unchanged): see uninvoicedUsage; an active promotion ends at its expiry.
func accountBillingSummary(tx kv.Tx, acct cloudstore.Account, now time.Time, h *horizon) (cloudstore.BillingSummary, error) {
	var s cloudstore.BillingSummary
	un, err := uninvoicedUsage(tx, acct, now, h)
	if err != nil {
		return s, err
	}
	s.UninvoicedCents = un.TotalCents
	for i, pr := range acct.Promotions {
		if promotionActive(pr, now) {
			h.until(pr.Expires.Add(-time.Nanosecond))
			pr.UsedMonthCents = un.Promotions[i].UsedMonthCents
			s.Promotions = append(s.Promotions, pr)
		}
	}
	pm, ok, err := cloudstore.DefaultPaymentMethod(tx, acct.ID)
	if ok {
		s.Card = &pm
	}
	return s, err
}
