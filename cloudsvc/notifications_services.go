package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// transferNotices: a service transfer of the account is waiting to be accepted — for the sender
// until it is accepted, cancelled or expires. (The receiver is not known until it accepts.)
func transferNotices(tx kv.Tx, acct cloudstore.Account, now time.Time, h *horizon) ([]accountNotice, error) {
	transfers, err := cloudstore.AccountTransfers(tx, acct.ID)
	var out []accountNotice
	for _, t := range transfers {
		t = t.At(now)
		if t.Status != cloudstore.TransferPending || t.From != acct.ID {
			continue
		}
		h.until(t.Expiry.Add(-time.Nanosecond)) // it expires then (Transfer.At)
		created, until := t.Created, t.Expiry
		out = append(out, accountNotice{Notification: Notification{Type: "notice", Severity: "minor", Label: "A service transfer is pending",
			Message: "Service transfer " + t.Token + " waits for the receiving account to accept it; it expires at " + t.Expiry.UTC().Format(cloudTime) + ".",
			When:    &created, Until: &until, Entity: t.EventEntity()}})
	}
	return out, err
}

// databaseNotices: a database is being patched (while it lasts), or is degraded or failed (until
// it is deleted); each is shown to the users with a permission on the database.
func databaseNotices(tx kv.Tx, acct cloudstore.Account, now time.Time, h *horizon) ([]accountNotice, error) {
	list, err := cloudstore.AccountDatabases(tx, acct.ID, "")
	var out []accountNotice
	for _, d := range list {
		if d.Next != "" && now.Before(d.Until) {
			h.until(d.Until.Add(-time.Nanosecond)) // its transient status ends then (Database.At)
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
		out = append(out, accountNotice{Notification: n, database: d.ID})
	}
	return out, err
}
