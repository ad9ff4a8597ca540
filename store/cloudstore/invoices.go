package cloudstore

import (
	"fmt"
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// Invoice bills an account for one period — a calendar month, or the last days of a cancelled
// account — with its items inside. Invoices are issued by RunBilling on the first of each month
// for the month before, and dated that day at 00:00 UTC.
type Invoice struct {
	ID        uint64    `json:"id"`
	AccountID uint64    `json:"account_id"`
	Date      time.Time `json:"date"`
	Label     string    `json:"label"`
	// From and To bound the period billed: [From, To).
	From          time.Time     `json:"from"`
	To            time.Time     `json:"to"`
	SubtotalCents int64         `json:"subtotal_cents"`
	TaxCents      int64         `json:"tax_cents"`
	TotalCents    int64         `json:"total_cents"`
	TaxName       string        `json:"tax_name,omitempty"` // "PA STATE TAX"; "" when untaxed
	Items         []InvoiceItem `json:"items"`
}

// InvoiceItem is one line of an invoice: an instance (or its backups) for the hours an account
// owned it in the period, or a promo credit (negative, type "misc").
type InvoiceItem struct {
	Label       string    `json:"label"`
	Type        string    `json:"type"` // hourly, misc
	Region      string    `json:"region,omitempty"`
	UnitPrice   string    `json:"unit_price"` // dollars, as the reference renders it ("0.036")
	Quantity    int       `json:"quantity"`   // hours (1 for misc)
	AmountCents int64     `json:"amount_cents"`
	TaxCents    int64     `json:"tax_cents"`
	TotalCents  int64     `json:"total_cents"`
	From        time.Time `json:"from"`
	To          time.Time `json:"to"` // the last second billed (inclusive), as the reference shows
}

// AccountInvoices lists the account's invoices, oldest first.
func AccountInvoices(tx *bbolt.Tx, account uint64) ([]Invoice, error) {
	return store.IndexedRecords[Invoice](tx, store.CloudAccountInvoices, store.Itob(account), store.CloudInvoices)
}

// AccountInvoice returns one of the account's invoices; another account's is not found.
func AccountInvoice(tx *bbolt.Tx, account, id uint64) (Invoice, error) {
	inv, err := store.Get[Invoice](tx, store.CloudInvoices, store.Itob(id))
	if err == nil && inv.AccountID != account {
		err = fmt.Errorf("invoice %d: %w", id, store.ErrNotFound)
	}
	return inv, err
}

// draftInvoice computes the invoice of acct for [from, to) dated date, without storing anything:
// the usage items, then the promo credit (which it takes from acct's promotions: the caller
// decides whether that acct is kept), then the tax of each item. ok is false when nothing was
// used in the period.
func draftInvoice(tx *bbolt.Tx, acct *Account, from, to, date time.Time) (inv Invoice, ok bool, err error) {
	items, err := usageItems(tx, acct.ID, from, to)
	if err != nil {
		return inv, false, err
	}
	var usage int64
	for _, it := range items {
		usage += it.AmountCents
	}
	items = append(items, applyPromotions(acct, usage, from, to)...)
	name, rate := TaxRule(acct.Contact)
	inv = Invoice{AccountID: acct.ID, Date: date, Label: "Invoice", From: from, To: to, TaxName: name}
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
func issueInvoice(tx *bbolt.Tx, acct *Account, from, to, date time.Time) (*Invoice, error) {
	inv, ok, err := draftInvoice(tx, acct, from, to, date)
	if err != nil || !ok {
		return nil, err
	}
	if inv.ID, err = store.NextID(tx, store.CloudInvoices); err != nil {
		return nil, err
	}
	if err := store.Put(tx, store.CloudInvoices, store.Itob(inv.ID), inv); err != nil {
		return nil, err
	}
	acct.BalanceCents += inv.TotalCents
	return &inv, store.IndexAdd(tx, store.CloudAccountInvoices, store.Itob(acct.ID), store.Itob(inv.ID))
}

// monthOf is the first instant (UTC) of t's month.
func monthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// firstDueMonth is the first month acct has not been invoiced for: the month after
// LastInvoiced, or, before its first invoice, the month it became active.
func firstDueMonth(acct Account, now time.Time) time.Time {
	switch {
	case !acct.LastInvoiced.IsZero():
		return monthOf(acct.LastInvoiced).AddDate(0, 1, 0)
	case acct.ActiveSince.IsZero():
		return monthOf(now)
	}
	return monthOf(acct.ActiveSince)
}

// Uninvoiced is what an account has used and not yet been invoiced for, at some instant.
type Uninvoiced struct {
	// TotalCents is what the next invoice(s) would add to the balance so far: usage, minus promo
	// credit, plus tax.
	TotalCents int64
	// Promotions are the account's promotions after that credit; UsedMonthCents is the credit
	// the current month's usage has taken so far.
	Promotions []Promotion
}

// UninvoicedUsage drafts, without storing, the invoices acct would get for every month not yet
// invoiced up to now (the current month up to now): the API's balance_uninvoiced, and what an
// account cancellation must collect.
func UninvoicedUsage(tx *bbolt.Tx, acct Account, now time.Time) (Uninvoiced, error) {
	var total int64
	acct.Promotions = slices.Clone(acct.Promotions)
	for i := range acct.Promotions {
		acct.Promotions[i].UsedMonthCents = 0 // nothing drafted yet (the stored value is the last invoice's)
	}
	for m := firstDueMonth(acct, now); m.Before(now); m = m.AddDate(0, 1, 0) {
		to := m.AddDate(0, 1, 0)
		if to.After(now) {
			to = now
		}
		inv, _, err := draftInvoice(tx, &acct, m, to, to)
		if err != nil {
			return Uninvoiced{}, err
		}
		total += inv.TotalCents
	}
	return Uninvoiced{TotalCents: total, Promotions: acct.Promotions}, nil
}
