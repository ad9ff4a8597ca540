package cloudstore

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// PaymentMethod is a card on file. Only the last four digits and the expiry are kept — never the
// full number or the cvv.
type PaymentMethod struct {
	ID        uint64    `json:"id"`
	AccountID uint64    `json:"account_id"`
	Type      string    `json:"type"` // credit_card
	IsDefault bool      `json:"is_default"`
	Created   time.Time `json:"created"`
	CardType  string    `json:"card_type"` // Visa, MasterCard, American Express, Discover, …
	LastFour  string    `json:"last_four"`
	Expiry    string    `json:"expiry"` // MM/YYYY
	// Active is false once deleted (deactivated); inactive methods are not listed or charged.
	Active bool `json:"active"`
}

// AccountPaymentMethods lists the account's payment methods (inactive ones too), in id order.
func AccountPaymentMethods(tx kv.Tx, account uint64) ([]PaymentMethod, error) {
	return store.IndexedRecords[PaymentMethod](tx, store.CloudAccountPaymentMethods, store.Itob(account), store.CloudPaymentMethods)
}

// HasPaymentMethod reports whether the account has an active payment method (a rule for
// accepting a service transfer).
func HasPaymentMethod(tx kv.Tx, account uint64) (bool, error) {
	pms, err := AccountPaymentMethods(tx, account)
	for _, pm := range pms {
		if pm.Active {
			return true, err
		}
	}
	return false, err
}

// NewPaymentMethod is the input of cloudsvc's AddPaymentMethod.
type NewPaymentMethod struct {
	Card      Card
	IsDefault bool
	// FieldPrefix is put before the card's field names in problems: "data." for the payment
	// method add (the card is its data object), "" for the deprecated credit-card endpoint.
	FieldPrefix string
}

// CreatePaymentMethod stores a new payment method with the next id and files it under its
// account.
func CreatePaymentMethod(tx kv.Tx, pm *PaymentMethod) error {
	id, err := store.NextID(tx, store.CloudPaymentMethods)
	if err != nil {
		return err
	}
	pm.ID = id
	if err := PutPaymentMethod(tx, *pm); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountPaymentMethods, store.Itob(pm.AccountID), store.Itob(id))
}

// ClearDefaultPaymentMethods takes default status from every method listed.
func ClearDefaultPaymentMethods(tx kv.Tx, pms []PaymentMethod) error {
	for _, pm := range pms {
		if pm.IsDefault {
			pm.IsDefault = false
			if err := PutPaymentMethod(tx, pm); err != nil {
				return err
			}
		}
	}
	return nil
}

// PutPaymentMethod stores a changed payment method.
func PutPaymentMethod(tx kv.Tx, pm PaymentMethod) error {
	return store.Put(tx, store.CloudPaymentMethods, store.Itob(pm.ID), pm)
}

// ActivePaymentMethods lists the account's active payment methods (what the API shows), in id
// order.
func ActivePaymentMethods(tx kv.Tx, account uint64) ([]PaymentMethod, error) {
	all, err := AccountPaymentMethods(tx, account)
	out := all[:0]
	for _, pm := range all {
		if pm.Active {
			out = append(out, pm)
		}
	}
	return out, err
}

// AccountPaymentMethod returns the account's active payment method id; another account's, a
// deactivated or an unknown one is not found.
func AccountPaymentMethod(tx kv.Tx, account, id uint64) (PaymentMethod, error) {
	pm, err := store.Get[PaymentMethod](tx, store.CloudPaymentMethods, store.Itob(id))
	if err == nil && (pm.AccountID != account || !pm.Active) {
		err = fmt.Errorf("payment method %d: %w", id, store.ErrNotFound)
	}
	return pm, err
}

// DefaultPaymentMethod returns the account's default payment method; false when it has none.
func DefaultPaymentMethod(tx kv.Tx, account uint64) (PaymentMethod, bool, error) {
	pms, err := ActivePaymentMethods(tx, account)
	for _, pm := range pms {
		if pm.IsDefault {
			return pm, true, err
		}
	}
	return PaymentMethod{}, false, err
}

// SetDefaultPaymentMethod makes pm the default, taking default status from the others.
func SetDefaultPaymentMethod(tx kv.Tx, pm PaymentMethod) error {
	all, err := AccountPaymentMethods(tx, pm.AccountID)
	if err != nil {
		return err
	}
	if err := ClearDefaultPaymentMethods(tx, all); err != nil {
		return err
	}
	pm.IsDefault = true
	return PutPaymentMethod(tx, pm)
}
