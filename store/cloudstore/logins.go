package cloudstore

import (
	"fmt"
	"slices"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// AccountLogins returns the logins of every user of the account, newest first.
func AccountLogins(tx kv.Tx, account uint64) ([]Login, error) {
	out, err := store.IndexedRecords[Login](tx, store.CloudAccountLogins, store.Itob(account), store.CloudLogins)
	slices.Reverse(out)
	return out, err
}

// AccountLogin returns one login of the account (another account's is not found).
func AccountLogin(tx kv.Tx, account, id uint64) (Login, error) {
	l, err := store.Get[Login](tx, store.CloudLogins, store.Itob(id))
	if err != nil || l.AccountID != account {
		return Login{}, fmt.Errorf("login %d: %w", id, store.ErrNotFound)
	}
	return l, nil
}
