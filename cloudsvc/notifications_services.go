package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// transferNotices: a service transfer of the account is waiting to be accepted — for the sender
// until it is accepted, cancelled or expires. (The receiver is not known until it accepts.)
func transferNotices(tx *bbolt.Tx, acct cloudstore.Account, _ cloudstore.User, now time.Time) ([]Notification, error) {
	transfers, err := cloudstore.AccountTransfers(tx, acct.ID)
	var out []Notification
	for _, t := range transfers {
		t = t.At(now)
		if t.Status != cloudstore.TransferPending || t.From != acct.ID {
			continue
		}
		created, until := t.Created, t.Expiry
		out = append(out, Notification{Type: "notice", Severity: "minor", Label: "A service transfer is pending",
			Message: "Service transfer " + t.Token + " waits for the receiving account to accept it; it expires at " + t.Expiry.UTC().Format(cloudTime) + ".",
			When:    &created, Until: &until, Entity: t.EventEntity()})
	}
	return out, err
}

// databaseNotices: a database the user may see is being patched (while it lasts), or is
// degraded or failed (until it is deleted).
func databaseNotices(tx *bbolt.Tx, acct cloudstore.Account, u cloudstore.User, now time.Time) ([]Notification, error) {
	list, err := cloudstore.AccountDatabases(tx, acct.ID, "")
	var out []Notification
	for _, d := range list {
		if DatabasePermission(u, d.ID) == "" {
			continue
		}
		d = d.At(now)
		updated, until := d.Updated, d.Until
		n := Notification{Type: "notice", Entity: d.EventEntity(), When: &updated}
		switch {
		case d.Status == cloudstore.DBUpdating && d.Op == cloudstore.OpPatch:
			n.Type, n.Severity, n.Label = "maintenance", "minor", "Database maintenance in progress"
			n.Message = "Security patches are being applied to " + d.Label + "; a single-node cluster is unavailable meanwhile."
			n.Until = &until
		case d.Status == cloudstore.DBDegraded:
			n.Severity, n.Label = "major", "A database is degraded"
			n.Message = d.Label + " is degraded: some of its nodes are not serving, and the appliance does not repair it. Delete it and create a new one."
		case d.Status == cloudstore.DBFailed:
			n.Severity, n.Label = "critical", "A database has failed"
			n.Message = d.Label + " has failed and is not serving. Delete it and create a new one."
		default:
			continue
		}
		out = append(out, n)
	}
	return out, err
}
