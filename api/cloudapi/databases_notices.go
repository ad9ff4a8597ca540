package cloudapi

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// databaseNotices: a database the user may see is being patched (while it lasts), or is
// degraded or failed (until it is deleted).
func databaseNotices(tx *bbolt.Tx, acct cloudstore.Account, u cloudstore.User, now time.Time) ([]notificationView, error) {
	list, err := cloudstore.AccountDatabases(tx, acct.ID, "")
	var out []notificationView
	for _, d := range list {
		if cloudstore.DatabasePermission(u, d.ID) == "" {
			continue
		}
		d = d.At(now)
		n := notificationView{Type: "notice", Entity: d.EventEntity(), When: formatTimePtr(&d.Updated)}
		switch {
		case d.Status == cloudstore.DBUpdating && d.Op == cloudstore.OpPatch:
			n.Type, n.Severity, n.Label = "maintenance", "minor", "Database maintenance in progress"
			n.Message = "Security patches are being applied to " + d.Label + "; a single-node cluster is unavailable meanwhile."
			n.Until = formatTimePtr(&d.Until)
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
