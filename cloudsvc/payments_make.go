package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

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

// makePayment charges a card for an account and lowers its balance, in one transaction that
// reads the balance afresh: two concurrent payments are serialised by the store and the second
// is checked against the balance the first left, so nothing is charged twice past the limits.
// The amount must lie within the limits for the current balance; the card must be active,
// unexpired and not decline (see the test cards). The warning is set when the payment needs
// verification (HTTP 202).
func makePayment(tx kv.Tx, account uint64, in cloudstore.PaymentRequest, now time.Time) (cloudstore.Payment, string, error) {
	acct, err := cloudstore.GetAccount(tx, account)
	if err != nil {
		return cloudstore.Payment{}, "", err
	}
	var p store.Problems
	checkAmount(&p, in.Cents, acct.BalanceCents)
	checkCVV(&p, in.CVV)
	if err := p.Err(); err != nil {
		return cloudstore.Payment{}, "", err
	}
	pm, err := paymentMethodFor(tx, account, in.MethodID)
	if err != nil {
		return cloudstore.Payment{}, "", err
	}
	warning, err := charge(pm, now)
	if err != nil {
		return cloudstore.Payment{}, "", err
	}
	pay, err := recordPayment(tx, &acct, pm.ID, in.Cents, now, false)
	if err != nil {
		return pay, "", err
	}
	if _, err := refreshPastDue(tx, &acct, now); err != nil {
		return pay, "", err
	}
	return pay, warning, cloudstore.PutAccount(tx, acct)
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
		p.Add("usd", "Must be at least $"+cloudstore.FormatCents(least))
	case cents > most:
		p.Add("usd", "Must be at most $"+cloudstore.FormatCents(most))
	}
}

// paymentMethodFor returns the method to charge: the one asked for, or the default.
func paymentMethodFor(tx kv.Tx, account uint64, id *uint64) (cloudstore.PaymentMethod, error) {
	if id != nil {
		pm, err := cloudstore.AccountPaymentMethod(tx, account, *id)
		if err != nil {
			return pm, store.Problems{{Field: "payment_method_id", Reason: "Payment method not found"}}
		}
		return pm, nil
	}
	pm, ok, err := cloudstore.DefaultPaymentMethod(tx, account)
	if err == nil && !ok {
		err = store.Problems{{Field: "payment_method_id", Reason: "There is no payment method on file; add one first"}}
	}
	return pm, err
}

// recordPayment stores a payment of acct and lowers its balance (the caller stores acct).
func recordPayment(tx kv.Tx, acct *cloudstore.Account, method uint64, cents int64, at time.Time, auto bool) (cloudstore.Payment, error) {
	pay := cloudstore.Payment{AccountID: acct.ID, Date: at, USDCents: cents, PaymentMethodID: method, Auto: auto}
	if err := cloudstore.AddPayment(tx, &pay); err != nil {
		return pay, err
	}
	acct.BalanceCents -= cents
	return pay, nil
}
