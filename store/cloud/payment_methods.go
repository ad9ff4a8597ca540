package cloud

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
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
func AccountPaymentMethods(tx *bbolt.Tx, account uint64) ([]PaymentMethod, error) {
	ids, err := store.IndexChildren(tx, store.CloudAccountPaymentMethods, store.Itob(account))
	if err != nil {
		return nil, err
	}
	out := make([]PaymentMethod, 0, len(ids))
	for _, id := range ids {
		pm, err := store.Get[PaymentMethod](tx, store.CloudPaymentMethods, id)
		if err != nil {
			return nil, err
		}
		out = append(out, pm)
	}
	return out, nil
}

// HasPaymentMethod reports whether the account has an active payment method (a rule for
// accepting a service transfer).
func HasPaymentMethod(tx *bbolt.Tx, account uint64) (bool, error) {
	pms, err := AccountPaymentMethods(tx, account)
	for _, pm := range pms {
		if pm.Active {
			return true, err
		}
	}
	return false, err
}
