package cloudapi

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// transferNotices: a service transfer of the account is waiting to be accepted — for the sender
// until it is accepted, cancelled or expires. (The receiver is not known until it accepts.)
func transferNotices(tx *bbolt.Tx, acct cloudstore.Account, _ cloudstore.User, now time.Time) ([]notificationView, error) {
	transfers, err := cloudstore.AccountTransfers(tx, acct.ID)
	var out []notificationView
	for _, t := range transfers {
		t = t.At(now)
		if t.Status != cloudstore.TransferPending || t.From != acct.ID {
			continue
		}
		until := t.Expiry
		out = append(out, notificationView{Type: "notice", Severity: "minor", Label: "A service transfer is pending",
			Message: "Service transfer " + t.Token + " waits for the receiving account to accept it; it expires at " + formatTime(t.Expiry) + ".",
			When:    formatTimePtr(&t.Created), Until: formatTimePtr(&until), Entity: t.EventEntity()})
	}
	return out, err
}
