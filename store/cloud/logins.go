package cloud

import (
	"fmt"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// AccountLogins returns the logins of every user of the account, newest first.
func AccountLogins(tx *bbolt.Tx, account uint64) ([]Login, error) {
	ids, err := store.IndexChildren(tx, store.CloudAccountLogins, store.Itob(account))
	if err != nil {
		return nil, err
	}
	out := make([]Login, 0, len(ids))
	for i := len(ids) - 1; i >= 0; i-- {
		l, err := store.Get[Login](tx, store.CloudLogins, ids[i])
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// AccountLogin returns one login of the account (another account's is not found).
func AccountLogin(tx *bbolt.Tx, account, id uint64) (Login, error) {
	l, err := store.Get[Login](tx, store.CloudLogins, store.Itob(id))
	if err != nil || l.AccountID != account {
		return Login{}, fmt.Errorf("login %d: %w", id, store.ErrNotFound)
	}
	return l, nil
}
