package cloudsvc

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// How long each transient status lasts (the real service takes minutes; a demo should see the
// change happen). Provisioning takes the configured --db-provision-time.
const (
	UpdateTime   = 10 * time.Second // PUT: updating → active
	PatchTime    = 30 * time.Second // patch: updating → active (OS patches, a restart per node)
	SnapshotTime = 15 * time.Second // snapshot: backing_up → active; the backup shows then
	RestoreTime  = 20 * time.Second // restore: restoring → active, or failed
)

// DatabasePermission is what u may do with database id: read_write for unrestricted users,
// their grant for restricted ones ("" = the database is invisible to them).
func DatabasePermission(u cloudstore.User, id uint64) string {
	if !u.Restricted {
		return cloudstore.ReadWrite
	}
	return u.Grants.Permission(cloudstore.DatabaseGrantKind, id)
}

// createDatabase provisions a sqldb database for creator's account: every wrong field is
// reported at once; the database starts provisioning and becomes active after provision. A
// restricted creator receives read_write on it, as on every entity a restricted user creates.
func createDatabase(tx kv.Tx, creator cloudstore.User, in cloudstore.NewDatabase, now time.Time, provision time.Duration) (cloudstore.Database, error) {
	cat, err := cloudstore.GetDatabaseCatalog(tx)
	if err != nil {
		return cloudstore.Database{}, err
	}
	d := cloudstore.Database{AccountID: creator.AccountID, Family: cloudstore.FamilySQL, Status: cloudstore.DBProvisioning,
		Op: cloudstore.OpProvision, Next: cloudstore.DBActive, Until: now.Add(provision), Created: now, Updated: now,
		SSLConnection: true, Updates: defaultWindow()}
	var p store.Problems
	taken := func(l string) bool { return cloudstore.LabelTaken(tx, creator.AccountID, l) }
	if required(&p, "label", in.Label) {
		d.Label = *in.Label
		checkDatabaseLabel(&p, taken, d.Label, "")
	}
	placement(&p, in, cat, &d)
	if in.Encrypted != nil {
		d.Encrypted = *in.Encrypted
	}
	if in.SSLConnection != nil {
		d.SSLConnection = *in.SSLConnection
	}
	d.AllowList = NormalizeAllowList(&p, "allow_list", in.AllowList)
	if d.Engine != "" {
		d.EngineConfig = ApplyEngineConfig(&p, d.Engine, nil, in.EngineConfig)
	}
	if err := p.Err(); err != nil {
		return cloudstore.Database{}, err
	}
	if err := cloudstore.ImportDatabase(tx, &d, in.Secrets); err != nil {
		return d, err
	}
	if creator.Restricted {
		return d, cloudstore.GrantDatabase(tx, creator, d.ID, cloudstore.ReadWrite)
	}
	return d, nil
}

// required adds "<field> is required" when v is nil and reports whether it was sent.
func required[T any](p *store.Problems, field string, v *T) bool {
	if v == nil {
		p.Add(field, field+" is required")
	}
	return v != nil
}

// placement checks what the database runs on: engine (a sqldb one of the catalogue), type,
// region, cluster size with its replication settings, and the price that follows from them.
func placement(p *store.Problems, in cloudstore.NewDatabase, cat cloudstore.DatabaseCatalog, d *cloudstore.Database) {
	if required(p, "engine", in.Engine) {
		e, ok := cat.Engine(*in.Engine)
		switch {
		case ok && cloudstore.FamilyOf(e.Engine) != cloudstore.FamilySQL:
			p.Add("engine", fmt.Sprintf("%s is a document engine: new docdb databases cannot be created", e.ID))
		case ok:
			d.Engine, d.Version = e.Engine, e.Release()
		default:
			p.Add("engine", "Must be one of "+strings.Join(cat.Creatable(cloudstore.FamilySQL), ", "))
		}
	}
	var typ cloudstore.DatabaseType
	if required(p, "type", in.Type) {
		t, ok := cat.Type(*in.Type)
		switch {
		case !ok:
			p.Add("type", fmt.Sprintf("Type %q does not exist (see GET /databases/types)", *in.Type))
		case t.Deprecated:
			p.Add("type", fmt.Sprintf("Type %s is deprecated and cannot be used for new databases", t.ID))
		default:
			typ, d.Type, d.DiskGB = t, t.ID, t.Disk/1024
		}
	}
	if required(p, "region", in.Region) {
		if !slices.Contains(cat.Regions, *in.Region) {
			p.Add("region", "Must be one of "+strings.Join(cat.Regions, ", "))
		}
		d.Region = *in.Region
	}
	d.ClusterSize = 1
	if in.ClusterSize != nil {
		d.ClusterSize = *in.ClusterSize
	}
	if d.ClusterSize != 1 && d.ClusterSize != 3 {
		p.Add("cluster_size", "Must be one of 1, 3")
		return
	}
	checkReplication(p, d, in.ReplicationType, in.ReplicationCommitType)
	if d.Type == "" || d.Engine == "" {
		return
	}
	price, ok := typ.Price(d.Engine, d.ClusterSize)
	if !ok {
		p.Add("cluster_size", fmt.Sprintf("Type %s is not offered with %d nodes for %s", d.Type, d.ClusterSize, d.Engine))
	}
	d.HourlyPrice, d.MonthlyPrice = price.Price.Hourly, price.Price.Monthly
}

// updateDatabase applies a PUT to an active database, which is then updating for UpdateTime, or
// resizing for ResizeTime when its type or cluster size changed (resized). The allow list
// replaces the old one.
func updateDatabase(tx kv.Tx, d cloudstore.Database, in cloudstore.DatabaseUpdate, now time.Time) (_ cloudstore.Database, resized bool, err error) {
	d, p, err := settleActive(tx, d, now)
	if err != nil {
		return d, false, err
	}
	cat, err := cloudstore.GetDatabaseCatalog(tx)
	if err != nil {
		return d, false, err
	}
	resized = planChange(&p, cat, &d, in)
	old := d.Label
	if in.Label != nil {
		checkDatabaseLabel(&p, func(l string) bool { return cloudstore.LabelTaken(tx, d.AccountID, l) }, *in.Label, d.Label)
		d.Label = *in.Label
	}
	if in.AllowList != nil {
		d.AllowList = NormalizeAllowList(&p, "allow_list", *in.AllowList)
	}
	if in.Updates != nil {
		d.Updates = applyWindow(&p, d.Updates, *in.Updates)
	}
	d.EngineConfig = ApplyEngineConfig(&p, d.Engine, d.EngineConfig, in.EngineConfig)
	if err := p.Err(); err != nil {
		return d, false, err
	}
	if err := cloudstore.RelabelDatabase(tx, d.AccountID, old, d.Label); err != nil {
		return d, false, err
	}
	if resized {
		transient(&d, cloudstore.DBResizing, cloudstore.OpResize, now, ResizeTime)
	} else {
		transient(&d, cloudstore.DBUpdating, cloudstore.OpUpdate, now, UpdateTime)
	}
	return d, resized, cloudstore.PutDatabase(tx, &d)
}

// patchDatabase applies OS patches to an active database: updating for PatchTime.
func patchDatabase(tx kv.Tx, d cloudstore.Database, now time.Time) (cloudstore.Database, error) {
	d, err := settle(tx, d, now)
	if err != nil {
		return d, err
	}
	if err := require(d, cloudstore.DBActive); err != nil {
		return d, err
	}
	transient(&d, cloudstore.DBUpdating, cloudstore.OpPatch, now, PatchTime)
	return d, cloudstore.PutDatabase(tx, &d)
}

// transient puts d in status for op until now+took, then back to active.
func transient(d *cloudstore.Database, status, op string, now time.Time, took time.Duration) {
	d.Status, d.Op, d.Next, d.Until, d.Updated = status, op, cloudstore.DBActive, now.Add(took), now
}

// RetireDatabase deletes a database that is active, failed or degraded, in the caller's
// transaction (Service.DeleteDatabase's, or a test's that deletes inside its own): its secrets,
// backups, label and grants go; a small record stays (Deleted set) so the month's invoice still
// bills the hours it ran.
func RetireDatabase(tx kv.Tx, d cloudstore.Database, now time.Time) error {
	d, err := settle(tx, d, now)
	if err != nil {
		return err
	}
	if err := require(d, cloudstore.DBActive, cloudstore.DBFailed, cloudstore.DBDegraded); err != nil {
		return err
	}
	if err := cloudstore.RemoveDatabaseData(tx, d); err != nil {
		return err
	}
	d.Deleted, d.Next, d.Op, d.Until = &now, "", "", time.Time{}
	d.OldestAutoBackup = time.Time{}
	return cloudstore.PutDatabase(tx, &d)
}
