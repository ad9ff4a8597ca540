package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Limits of the seed's Limits table.
const (
	// MaxActivePaymentMethods is how many active payment methods an account may hold.
	MaxActivePaymentMethods = 6
	// MaxPaymentMethodsPerDay is how many payment methods an account may add in any 24 hours
	// (a rolling window, so the limit cannot be doubled around midnight).
	MaxPaymentMethodsPerDay = 60
)

// AddPaymentMethod checks and stores a credit card of acct inside the caller's transaction (the
// fixtures give the demo accounts their cards in theirs; Service.AddPaymentMethod adds the
// event), keeping only its type, last four and expiry. The account's billing zip must be valid, the card sound and unexpired at now, and the
// account under both limits. A default card (or the account's first) takes default status from
// the others.
func AddPaymentMethod(tx kv.Tx, acct cloudstore.Account, in cloudstore.NewPaymentMethod, now time.Time) (cloudstore.PaymentMethod, error) {
	var p store.Problems
	if reason := zipProblem(acct.Contact); reason != "" {
		p.Add("zip", "A valid billing zip code is required before adding a payment method: "+reason)
	}
	checkCard(&p, in.FieldPrefix, in.Card, now)
	if err := p.Err(); err != nil {
		return cloudstore.PaymentMethod{}, err
	}
	all, err := cloudstore.AccountPaymentMethods(tx, acct.ID)
	if err != nil {
		return cloudstore.PaymentMethod{}, err
	}
	active, today := 0, 0
	for _, pm := range all {
		if pm.Active {
			active++
		}
		if now.Sub(pm.Created) < 24*time.Hour {
			today++
		}
	}
	if active >= MaxActivePaymentMethods {
		return cloudstore.PaymentMethod{}, fault.Invalid("", "An account may have at most %d active payment methods", MaxActivePaymentMethods)
	}
	if today >= MaxPaymentMethodsPerDay {
		return cloudstore.PaymentMethod{}, fault.Invalid("", "An account may add at most %d payment methods per day", MaxPaymentMethodsPerDay)
	}
	pm := cloudstore.PaymentMethod{AccountID: acct.ID, Type: "credit_card", IsDefault: in.IsDefault || active == 0,
		Created: now, CardType: cardType(in.Card.Number), LastFour: in.Card.Number[len(in.Card.Number)-4:],
		Expiry: fmt.Sprintf("%02d/%04d", in.Card.ExpiryMonth, in.Card.ExpiryYear), Active: true}
	if pm.IsDefault {
		if err := cloudstore.ClearDefaultPaymentMethods(tx, all); err != nil {
			return pm, err
		}
	}
	return pm, cloudstore.CreatePaymentMethod(tx, &pm)
}

// deletePaymentMethod deactivates pm: it is no longer listed or charged (payments made with it
// keep their record). The default method cannot be deleted: make another the default first.
func deletePaymentMethod(tx kv.Tx, pm cloudstore.PaymentMethod) error {
	if pm.IsDefault {
		return fault.Invalid("", "You cannot delete your default payment method; make another method the default first")
	}
	pm.Active = false
	return cloudstore.PutPaymentMethod(tx, pm)
}
