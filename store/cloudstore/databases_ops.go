package cloudstore

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// How long each transient status lasts (the real service takes minutes; a demo should see the
// change happen). Provisioning takes the configured --db-provision-time.
const (
	UpdateTime   = 10 * time.Second // PUT: updating → active
	PatchTime    = 30 * time.Second // patch: updating → active (OS patches, a restart per node)
	SnapshotTime = 15 * time.Second // snapshot: backing_up → active; the backup shows then
	RestoreTime  = 20 * time.Second // restore: restoring → active, or failed
)

// NewDatabase is a create request as sent: nil fields were not sent (or were null).
type NewDatabase struct {
	Label, Engine, Type, Region            *string
	ClusterSize                            *int
	Encrypted, SSLConnection               *bool
	ReplicationType, ReplicationCommitType *string
	// AllowList holds the raw entries (nil: none sent); CreateDatabase normalises them.
	AllowList []string
	// Secrets are made by the caller before its transaction (NewDatabaseSecrets).
	Secrets DatabaseSecrets
}

// CreateDatabase provisions a sqldb database for creator's account: every wrong field is
// reported at once; the database starts provisioning and becomes active after provision. A
// restricted creator receives read_write on it, as on every entity a restricted user creates.
func CreateDatabase(tx *bbolt.Tx, creator User, in NewDatabase, now time.Time, provision time.Duration) (Database, error) {
	cat, err := GetDatabaseCatalog(tx)
	if err != nil {
		return Database{}, err
	}
	d := Database{AccountID: creator.AccountID, Family: FamilySQL, Status: DBProvisioning, Op: OpProvision, Next: DBActive,
		Until: now.Add(provision), Created: now, Updated: now, SSLConnection: true, Updates: defaultWindow()}
	var p store.Problems
	taken := func(l string) bool { return labelTaken(tx, creator.AccountID, l) }
	if required(&p, "label", in.Label) {
		d.Label = *in.Label
		checkDatabaseLabel(&p, taken, d.Label, "")
	}
	in.placement(&p, cat, &d)
	if in.Encrypted != nil {
		d.Encrypted = *in.Encrypted
	}
	if in.SSLConnection != nil {
		d.SSLConnection = *in.SSLConnection
	}
	d.AllowList = NormalizeAllowList(&p, "allow_list", in.AllowList)
	if err := p.Err(); err != nil {
		return Database{}, err
	}
	if err := ImportDatabase(tx, &d, in.Secrets); err != nil {
		return d, err
	}
	if creator.Restricted {
		return d, grantDatabase(tx, creator, d.ID, ReadWrite)
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
func (in NewDatabase) placement(p *store.Problems, cat DatabaseCatalog, d *Database) {
	if required(p, "engine", in.Engine) {
		e, ok := cat.Engine(*in.Engine)
		switch {
		case ok && FamilyOf(e.Engine) != FamilySQL:
			p.Add("engine", fmt.Sprintf("%s is a document engine: new docdb databases cannot be created", e.ID))
		case ok:
			d.Engine, d.Version = e.Engine, e.Version
		default:
			p.Add("engine", "Must be one of "+strings.Join(cat.creatable(FamilySQL), ", "))
		}
	}
	var typ DatabaseType
	if required(p, "type", in.Type) {
		t, ok := cat.Type(*in.Type)
		switch {
		case !ok:
			p.Add("type", fmt.Sprintf("Type %q does not exist (see GET /databases/types)", *in.Type))
		case t.Deprecated:
			p.Add("type", fmt.Sprintf("Type %s is deprecated and cannot be used for new databases", t.ID))
		default:
			typ, d.Type = t, t.ID
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

// DatabaseUpdate is a PUT: nil fields stay as they are.
type DatabaseUpdate struct {
	Label     *string
	AllowList *[]string // raw entries; an empty list blocks every connection
	Updates   *WindowChange
}

// UpdateDatabase applies a PUT to an active database, which is then updating for UpdateTime.
// The allow list replaces the old one.
func UpdateDatabase(tx *bbolt.Tx, d Database, in DatabaseUpdate, now time.Time) (Database, error) {
	d, err := settle(tx, d, now)
	if err != nil {
		return d, err
	}
	var p store.Problems
	if err := d.require(now, DBActive); err != nil {
		p = append(p, err.(store.Problems)...)
	}
	old := d.Label
	if in.Label != nil {
		checkDatabaseLabel(&p, func(l string) bool { return labelTaken(tx, d.AccountID, l) }, *in.Label, d.Label)
		d.Label = *in.Label
	}
	if in.AllowList != nil {
		d.AllowList = NormalizeAllowList(&p, "allow_list", *in.AllowList)
	}
	if in.Updates != nil {
		d.Updates = d.Updates.apply(&p, *in.Updates)
	}
	if err := p.Err(); err != nil {
		return d, err
	}
	if !strings.EqualFold(old, d.Label) {
		acct := store.Itob(d.AccountID)
		if err := store.IndexRemove(tx, store.CloudDatabaseLabels, acct, labelKey(old)); err != nil {
			return d, err
		}
		if err := store.IndexAdd(tx, store.CloudDatabaseLabels, acct, labelKey(d.Label)); err != nil {
			return d, err
		}
	}
	d.transient(DBUpdating, OpUpdate, now, UpdateTime)
	return d, putDatabase(tx, &d)
}

// PatchDatabase applies OS patches to an active database: updating for PatchTime.
func PatchDatabase(tx *bbolt.Tx, d Database, now time.Time) (Database, error) {
	d, err := settle(tx, d, now)
	if err != nil {
		return d, err
	}
	if err := d.require(now, DBActive); err != nil {
		return d, err
	}
	d.transient(DBUpdating, OpPatch, now, PatchTime)
	return d, putDatabase(tx, &d)
}

// transient puts d in status for op until now+took, then back to active.
func (d *Database) transient(status, op string, now time.Time, took time.Duration) {
	d.Status, d.Op, d.Next, d.Until, d.Updated = status, op, DBActive, now.Add(took), now
}
