package cloudstore

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Invoice bills an account for one period — a calendar month, or the last days of a cancelled
// account — with its items inside. Invoices are issued by cloudsvc's billing run on the first of
// each month for the month before, and dated that day at 00:00 UTC.
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
func AccountInvoices(tx kv.Tx, account uint64) ([]Invoice, error) {
	return store.IndexedRecords[Invoice](tx, store.CloudAccountInvoices, store.Itob(account), store.CloudInvoices)
}

// AccountInvoice returns one of the account's invoices; another account's is not found.
func AccountInvoice(tx kv.Tx, account, id uint64) (Invoice, error) {
	inv, err := store.Get[Invoice](tx, store.CloudInvoices, store.Itob(id))
	if err == nil && inv.AccountID != account {
		err = fmt.Errorf("invoice %d: %w", id, store.ErrNotFound)
	}
	return inv, err
}

// AddInvoice stores a new invoice with the next id and files it under its account.
func AddInvoice(tx kv.Tx, inv *Invoice) error {
	id, err := store.NextID(tx, store.CloudInvoices)
	if err != nil {
		return err
	}
	inv.ID = id
	if err := store.Put(tx, store.CloudInvoices, store.Itob(id), inv); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountInvoices, store.Itob(inv.AccountID), store.Itob(id))
}
