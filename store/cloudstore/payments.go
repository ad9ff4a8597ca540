package cloudstore

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
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

// Payment limits of the reference (PaymentRequest.usd), in cents.
const (
	// MinPaymentCents is the smallest payment — unless the balance is lower, then the balance.
	MinPaymentCents = 500
	// MaxPaymentCents is the largest payment — unless the balance is higher, then the balance,
	// up to MaxBalancePaymentCents.
	MaxPaymentCents = 200000
	// MaxBalancePaymentCents caps paying off a large balance in one payment ($50,000).
	MaxBalancePaymentCents = 5000000
)

// PaymentRequest is the input of MakePayment.
type PaymentRequest struct {
	Cents    int64
	MethodID *uint64 // nil: the default method
	CVV      *string // optional; when sent, 3–4 digits
}

// MakePayment charges a card for an account and lowers its balance, in one transaction that
// reads the balance afresh: two concurrent payments are serialised by the store and the second
// is checked against the balance the first left, so nothing is charged twice past the limits.
// The amount must lie within the limits for the current balance; the card must be active,
// unexpired and not decline (see the test cards). The warning is set when the payment needs
// verification (HTTP 202).
func MakePayment(tx *bbolt.Tx, account uint64, in PaymentRequest, now time.Time) (Payment, string, error) {
	acct, err := GetAccount(tx, account)
	if err != nil {
		return Payment{}, "", err
	}
	var p store.Problems
	checkAmount(&p, in.Cents, acct.BalanceCents)
	CheckCVV(&p, in.CVV)
	if err := p.Err(); err != nil {
		return Payment{}, "", err
	}
	pm, err := paymentMethodFor(tx, account, in.MethodID)
	if err != nil {
		return Payment{}, "", err
	}
	warning, err := pm.charge(now)
	if err != nil {
		return Payment{}, "", err
	}
	pay, err := recordPayment(tx, &acct, pm.ID, in.Cents, now, false)
	if err != nil {
		return pay, "", err
	}
	if _, err := refreshPastDue(tx, &acct, now); err != nil {
		return pay, "", err
	}
	return pay, warning, PutAccount(tx, acct)
}

// checkAmount applies the payment limits for a balance.
func checkAmount(p *store.Problems, cents, balance int64) {
	least := int64(MinPaymentCents)
	if balance > 0 && balance < least {
		least = balance
	}
	most := max(MaxPaymentCents, min(balance, MaxBalancePaymentCents))
	switch {
	case cents <= 0:
		p.Add("usd", "Must be more than $0.00")
	case cents < least:
		p.Add("usd", "Must be at least $"+FormatCents(least))
	case cents > most:
		p.Add("usd", "Must be at most $"+FormatCents(most))
	}
}

// paymentMethodFor returns the method to charge: the one asked for, or the default.
func paymentMethodFor(tx *bbolt.Tx, account uint64, id *uint64) (PaymentMethod, error) {
	if id != nil {
		pm, err := AccountPaymentMethod(tx, account, *id)
		if err != nil {
			return pm, store.Problems{{Field: "payment_method_id", Reason: "Payment method not found"}}
		}
		return pm, nil
	}
	pm, ok, err := DefaultPaymentMethod(tx, account)
	if err == nil && !ok {
		err = store.Problems{{Field: "payment_method_id", Reason: "There is no payment method on file; add one first"}}
	}
	return pm, err
}

// recordPayment stores a payment of acct and lowers its balance (the caller stores acct).
func recordPayment(tx *bbolt.Tx, acct *Account, method uint64, cents int64, at time.Time, auto bool) (Payment, error) {
	id, err := store.NextID(tx, store.CloudPayments)
	if err != nil {
		return Payment{}, err
	}
	pay := Payment{ID: id, AccountID: acct.ID, Date: at, USDCents: cents, PaymentMethodID: method, Auto: auto}
	if err := store.Put(tx, store.CloudPayments, store.Itob(id), pay); err != nil {
		return pay, err
	}
	acct.BalanceCents -= cents
	return pay, store.IndexAdd(tx, store.CloudAccountPayments, store.Itob(acct.ID), store.Itob(id))
}

// AccountPayments lists the account's payments, oldest first.
func AccountPayments(tx *bbolt.Tx, account uint64) ([]Payment, error) {
	return store.IndexedRecords[Payment](tx, store.CloudAccountPayments, store.Itob(account), store.CloudPayments)
}

// AccountPayment returns one of the account's payments; another account's is not found.
func AccountPayment(tx *bbolt.Tx, account, id uint64) (Payment, error) {
	pay, err := store.Get[Payment](tx, store.CloudPayments, store.Itob(id))
	if err == nil && pay.AccountID != account {
		err = fmt.Errorf("payment %d: %w", id, store.ErrNotFound)
	}
	return pay, err
}
