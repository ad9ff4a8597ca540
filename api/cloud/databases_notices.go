package cloud

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloud"
	"go.etcd.io/bbolt"
)

// databaseNotices: a database the user may see is being patched (while it lasts), or is
// degraded or failed (until it is deleted).
func databaseNotices(tx *bbolt.Tx, acct cloud.Account, u cloud.User, now time.Time) ([]notificationView, error) {
	list, err := cloud.AccountDatabases(tx, acct.ID, "")
	var out []notificationView
	for _, d := range list {
		if cloud.DatabasePermission(u, d.ID) == "" {
			continue
		}
		d = d.At(now)
		n := notificationView{Type: "notice", Entity: d.EventEntity(), When: formatTimePtr(&d.Updated)}
		switch {
		case d.Status == cloud.DBUpdating && d.Op == cloud.OpPatch:
			n.Type, n.Severity, n.Label = "maintenance", "minor", "Database maintenance in progress"
			n.Message = "Security patches are being applied to " + d.Label + "; a single-node cluster is unavailable meanwhile."
			n.Until = formatTimePtr(&d.Until)
		case d.Status == cloud.DBDegraded:
			n.Severity, n.Label = "major", "A database is degraded"
			n.Message = d.Label + " is degraded: some of its nodes are not serving, and the appliance does not repair it. Delete it and create a new one."
		case d.Status == cloud.DBFailed:
			n.Severity, n.Label = "critical", "A database has failed"
			n.Message = d.Label + " has failed and is not serving. Delete it and create a new one."
		default:
			continue
		}
		out = append(out, n)
	}
	return out, err
}
