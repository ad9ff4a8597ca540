package cloudsvc

import (
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// roundDiv divides with rounding half away from zero (tax and proration).
func roundDiv(n, d int64) int64 {
	if n < 0 {
		return -((-n + d/2) / d)
	}
	return (n + d/2) / d
}

// taxRates is the sales tax the appliance charges, in hundredths of a percent, by US state.
// The reference shows only "PA STATE TAX" on a US invoice; the rule chosen here: US accounts in
// these states pay their state's base sales tax on every invoice item (credits included, so a
// promotion lowers the tax too); every other account — other US states, every other country
// (where VAT and GST would be reverse-charged) — pays no tax.
var taxRates = map[string]int64{"PA": 600, "NY": 400, "TX": 625, "WA": 650, "CA": 725}

// taxRule returns the tax an account's address attracts: its name on invoices ("PA STATE TAX")
// and its rate in hundredths of a percent; rate 0 when none.
func taxRule(c cloudstore.Contact) (name string, rate int64) {
	if !strings.EqualFold(c.Country, "US") {
		return "", 0
	}
	state := strings.ToUpper(c.State)
	if r, ok := taxRates[state]; ok {
		return state + " STATE TAX", r
	}
	return "", 0
}

// draftInvoice computes the invoice of acct for [from, to) dated date, without storing anything:
// the usage items, then the promo credit (which it takes from acct's promotions: the caller
// decides whether that acct is kept), then the tax of each item. ok is false when nothing was
// used in the period.
// h, when not nil, says the period ends at the moving present (see usageItemsUntil).
func draftInvoice(tx kv.Tx, acct *cloudstore.Account, from, to, date time.Time, h *horizon) (inv cloudstore.Invoice, ok bool, err error) {
	items, err := usageItemsUntil(tx, acct.ID, from, to, h)
	if err != nil {
		return inv, false, err
	}
	var usage int64
	for _, it := range items {
		usage += it.AmountCents
	}
	items = append(items, applyPromotions(acct, usage, from, to)...)
	name, rate := taxRule(acct.Contact)
	inv = cloudstore.Invoice{AccountID: acct.ID, Date: date, Label: "Invoice", From: from, To: to, TaxName: name}
	for i := range items {
		it := &items[i]
		it.TaxCents = roundDiv(it.AmountCents*rate, 10000)
		it.TotalCents = it.AmountCents + it.TaxCents
		inv.SubtotalCents += it.AmountCents
		inv.TaxCents += it.TaxCents
	}
	inv.TotalCents = inv.SubtotalCents + inv.TaxCents
	inv.Items = items
	return inv, len(items) > 0, nil
}

// issueInvoice drafts and stores the invoice of acct for [from, to) and adds its total to the
// balance (the caller stores acct). A period without usage issues nothing (nil).
func issueInvoice(tx kv.Tx, acct *cloudstore.Account, from, to, date time.Time) (*cloudstore.Invoice, error) {
	inv, ok, err := draftInvoice(tx, acct, from, to, date, nil)
	if err != nil || !ok {
		return nil, err
	}
	if err := cloudstore.AddInvoice(tx, &inv); err != nil {
		return nil, err
	}
	acct.BalanceCents += inv.TotalCents
	return &inv, nil
}

// monthOf is the first instant (UTC) of t's month.
func monthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// firstDueMonth is the first month acct has not been invoiced for: the month after
// LastInvoiced, or, before its first invoice, the month it became active.
func firstDueMonth(acct cloudstore.Account, now time.Time) time.Time {
	switch {
	case !acct.LastInvoiced.IsZero():
		return monthOf(acct.LastInvoiced).AddDate(0, 1, 0)
	case acct.ActiveSince.IsZero():
		return monthOf(now)
	}
	return monthOf(acct.ActiveSince)
}

// uninvoiced is what an account has used and not yet been invoiced for, at some instant.
type uninvoiced struct {
	// TotalCents is what the next invoice(s) would add to the balance so far: usage, minus promo
	// credit, plus tax.
	TotalCents int64
	// Promotions are the account's promotions after that credit; UsedMonthCents is the credit
	// the current month's usage has taken so far.
	Promotions []cloudstore.Promotion
}

// uninvoicedUsage drafts, without storing, the invoices acct would get for every month not yet
// invoiced up to now (the current month up to now): the API's balance_uninvoiced, and what an
// account cancellation must collect. When h is not nil it notes the last instant the answer stays
// the same as the clock moves on (the store unchanged): a new month begins after the next month
// start, and the current month's items count one more hour after each started one.
func uninvoicedUsage(tx kv.Tx, acct cloudstore.Account, now time.Time, h *horizon) (uninvoiced, error) {
	var total int64
	acct.Promotions = slices.Clone(acct.Promotions)
	for i := range acct.Promotions {
		acct.Promotions[i].UsedMonthCents = 0 // nothing drafted yet (the stored value is the last invoice's)
	}
	if next := monthOf(now); next.Equal(now) {
		h.until(next)
	} else {
		h.until(next.AddDate(0, 1, 0))
	}
	for m := firstDueMonth(acct, now); m.Before(now); m = m.AddDate(0, 1, 0) {
		to := m.AddDate(0, 1, 0)
		var present *horizon // the months before the current one are over: the clock moves none of it
		if !to.Before(now) {
			to, present = now, h
		}
		inv, _, err := draftInvoice(tx, &acct, m, to, to, present)
		if err != nil {
			return uninvoiced{}, err
		}
		total += inv.TotalCents
	}
	return uninvoiced{TotalCents: total, Promotions: acct.Promotions}, nil
}
