package cloudstore

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Payment is money received from a card: made through the API, charged automatically when an
// invoice is issued (autopay), or the final charge of a cancelled account.
type Payment struct {
	ID              uint64    `json:"id"`
	AccountID       uint64    `json:"account_id"`
	Date            time.Time `json:"date"`
	USDCents        int64     `json:"usd_cents"`
	PaymentMethodID uint64    `json:"payment_method_id"`
	// Auto marks a charge the appliance made itself (autopay of an invoice, final charge).
	Auto bool `json:"auto,omitempty"`
}

// PaymentRequest is the input of cloudsvc's MakePayment.
type PaymentRequest struct {
	Cents    int64
	MethodID *uint64 // nil: the default method
	CVV      *string // optional; when sent, 3–4 digits
}

// AddPayment stores a new payment with the next id and files it under its account.
func AddPayment(tx kv.Tx, pay *Payment) error {
	id, err := store.NextID(tx, store.CloudPayments)
	if err != nil {
		return err
	}
	pay.ID = id
	if err := store.Put(tx, store.CloudPayments, store.Itob(id), pay); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountPayments, store.Itob(pay.AccountID), store.Itob(id))
}

// AccountPayments lists the account's payments, oldest first.
func AccountPayments(tx kv.Tx, account uint64) ([]Payment, error) {
	return store.IndexedRecords[Payment](tx, store.CloudAccountPayments, store.Itob(account), store.CloudPayments)
}

// AccountPayment returns one of the account's payments; another account's is not found.
func AccountPayment(tx kv.Tx, account, id uint64) (Payment, error) {
	pay, err := store.Get[Payment](tx, store.CloudPayments, store.Itob(id))
	if err == nil && pay.AccountID != account {
		err = fmt.Errorf("payment %d: %w", id, store.ErrNotFound)
	}
	return pay, err
}
