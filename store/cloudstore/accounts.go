// Package cloudstore keeps the cloud API's records — accounts, users and grants, tokens, OAuth
// clients, codes and password-setup links, events, logins, payment methods, payments, invoices,
// promo codes, databases and their backups, transfers and the entities grants refer to — with
// their key layouts, secondary indexes, (un)marshalling and plain accessors, plus the input types
// cloudsvc's operations take. Every function takes the transaction it works in, so a domain
// operation (the change, its indexes and its event) commits at once. The rules — whether an
// operation may happen, what input is valid, what is charged and what state follows — are
// cloudsvc's; the one check left here is that a stored record is well formed (the database
// catalogue's engine ids).
package cloudstore

import (
	"crypto/rand"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Account is one customer account: its contact and billing record, settings and money.
type Account struct {
	ID          uint64    `json:"id"`
	Name        string    `json:"name"`  // the demo world's name for it ("demo", "partner")
	Owner       string    `json:"owner"` // username of the account's owner (its first user)
	Email       string    `json:"email"`
	Euuid       string    `json:"euuid"`
	ActiveSince time.Time `json:"active_since"`
	Contact

	Settings AccountSettings `json:"settings"`
	// BalanceCents is what the account owes: invoiced and not yet paid (negative: credit).
	BalanceCents int64 `json:"balance_cents"`
	// PastDueSince is set while an invoice has stayed unpaid past its due date.
	PastDueSince *time.Time `json:"past_due_since,omitempty"`
	// ToSViolation marks an account under a Terms of Service hold (fixtures; blocks transfers).
	ToSViolation bool `json:"tos_violation,omitempty"`
	// Promotions are the promo credits the account holds.
	Promotions []Promotion `json:"promotions,omitempty"`
	// LastInvoiced is the first day (UTC) of the last month invoiced; zero: none yet.
	LastInvoiced time.Time  `json:"last_invoiced"`
	Cancelled    *time.Time `json:"cancelled,omitempty"`
}

// Contact is the account's contact and billing address (every field a string, "" when unset).
type Contact struct {
	Address1  string `json:"address_1"`
	Address2  string `json:"address_2"`
	City      string `json:"city"`
	Company   string `json:"company"`
	Country   string `json:"country"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Phone     string `json:"phone"`
	State     string `json:"state"`
	TaxID     string `json:"tax_id"`
	Zip       string `json:"zip"`
}

// AccountSettings are the account-wide switches.
type AccountSettings struct {
	NetworkHelper          bool    `json:"network_helper"`
	Managed                bool    `json:"managed"`
	MonitoringSubscription *string `json:"monitoring_subscription"` // plan id, changed elsewhere
	BackupsEnabled         bool    `json:"backups_enabled"`
	ObjectStorage          string  `json:"object_storage"` // disabled, suspended, active
}

// Promotion is a promo credit applied to an account (see PromoCode for the catalogue).
type Promotion struct {
	Code            string    `json:"code"`
	Summary         string    `json:"summary"`
	Description     string    `json:"description"`
	ImageURL        string    `json:"image_url"`
	ServiceType     string    `json:"service_type"`
	CreditCents     int64     `json:"credit_cents"`      // total credit granted
	MonthlyCapCents int64     `json:"monthly_cap_cents"` // at most this much per invoice
	RemainingCents  int64     `json:"remaining_cents"`   // not yet used
	UsedMonthCents  int64     `json:"used_month_cents"`  // used on the current month's invoice
	Expires         time.Time `json:"expires"`
}

// PutAccount stores a changed account.
func PutAccount(tx kv.Tx, a Account) error {
	return store.Put(tx, store.CloudAccounts, store.Itob(a.ID), a)
}

// AccountBytes returns account id's stored JSON, valid only during tx (a hot write decodes it
// through a cache keyed by these bytes; see cloudsvc's accountCodec); ErrNotFound when absent.
func AccountBytes(tx kv.Tx, id uint64) ([]byte, error) {
	b, err := store.Bucket(tx, store.CloudAccounts)
	if err != nil {
		return nil, err
	}
	key := store.Itob(id)
	v := b.Get(key)
	if v == nil {
		return nil, fmt.Errorf("%s %q: %w", store.CloudAccounts, key, store.ErrNotFound)
	}
	return v, nil
}

// PutAccountBytes stores an account already encoded as PutAccount would (json.Marshal of the
// Account); data must not change afterwards.
func PutAccountBytes(tx kv.Tx, id uint64, data []byte) error {
	b, err := store.Bucket(tx, store.CloudAccounts)
	if err != nil {
		return err
	}
	return b.Put(store.Itob(id), data)
}

// Accounts lists every account, in id order (jobs walk them).
func Accounts(tx kv.Tx) ([]Account, error) {
	var out []Account
	err := store.Each(tx, store.CloudAccounts, nil, func(_ []byte, a Account) (bool, error) {
		out = append(out, a)
		return true, nil
	})
	return out, err
}

// CreateAccount stores a new account with the next id.
func CreateAccount(tx kv.Tx, a *Account) error {
	id, err := store.NextID(tx, store.CloudAccounts)
	if err != nil {
		return err
	}
	a.ID = id
	if a.Euuid == "" {
		a.Euuid = newUUID()
	}
	return store.Put(tx, store.CloudAccounts, store.Itob(id), a)
}

// GetAccount returns the account with id.
func GetAccount(tx kv.Tx, id uint64) (Account, error) {
	return store.Get[Account](tx, store.CloudAccounts, store.Itob(id))
}

// AccountByName finds an account by its demo-world name (fixtures and tests).
func AccountByName(tx kv.Tx, name string) (Account, error) {
	var found *Account
	err := store.Each(tx, store.CloudAccounts, nil, func(_ []byte, a Account) (bool, error) {
		if a.Name == name {
			found = &a
			return false, nil
		}
		return true, nil
	})
	if err == nil && found == nil {
		err = fmt.Errorf("account %q: %w", name, store.ErrNotFound)
	}
	if err != nil {
		return Account{}, err
	}
	return *found, nil
}

// newUUID returns a random RFC 4122 version 4 UUID.
func newUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
