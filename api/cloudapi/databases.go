package cloudapi

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// DefaultDatabaseProvisionTime is how long a new database provisions when --db-provision-time
// is not set: half a minute, so a demo sees it happen (the real service: 15 to 30 minutes).
const DefaultDatabaseProvisionTime = 30 * time.Second

// dbAPI serves the managed-databases area, with the caches of its hot reads: an account's
// databases per family (a list of thousands is filtered per request without touching bbolt) and
// the catalogue. Both are valid until the next committed write (store.Memo).
type dbAPI struct {
	*api
	lists   *store.Memo[dbListKey, []cloudstore.Database]
	catalog *store.Memo[struct{}, cloudstore.DatabaseCatalog]
}

// dbListKey names one cached list: an account's databases of a family ("" for all).
type dbListKey struct {
	account uint64
	family  string
}

// bindDatabases registers the managed-database endpoints, all under both prefixes: the public
// catalogue (engines and types, rate-limited per IP), the list of all families, and per family
// (sqldb, docdb) the instance, backup, credentials, ssl and patch endpoints. Only sqldb has a
// create route: the seed says docdb databases cannot be created, so a POST there answers fiber's
// 405 in the cloud error format. The clock job moves databases through their states.
func (a *api) bindDatabases(r *routes) {
	d := &dbAPI{api: a, lists: store.NewMemo[dbListKey, []cloudstore.Database](a.Store), catalog: store.NewMemo[struct{}, cloudstore.DatabaseCatalog](a.Store)}
	pub := access{public: true}
	r.add(both, "GET", "/databases/engines", pub, d.listEngines)
	r.add(both, "GET", "/databases/engines/:engineId", pub, d.getEngine)
	r.add(both, "GET", "/databases/engines/:engine/:version", pub, d.getEngine)
	r.add(both, "GET", "/databases/types", pub, d.listTypes)
	r.add(both, "GET", "/databases/types/:typeId", pub, d.getType)
	r.add(both, "GET", "/databases/instances", access{area: "databases"}, d.list(""))
	d.bindFamily(r, cloudstore.FamilySQL)
	d.bindFamily(r, cloudstore.FamilyDoc)
	if a.Jobs != nil {
		a.Jobs.Add("databases", d.job)
	}
}

// bindFamily registers one family's instance endpoints. Backups need the databases:read_write
// scope even to be read (the seed's table); delete and credentials reset are for unrestricted
// users only, whatever the token's scopes (which must still include databases:read_write).
func (d *dbAPI) bindFamily(r *routes, fam string) {
	base := "/databases/" + fam + "/instances"
	one := base + "/:instanceId"
	rw := access{area: "databases"} // the level follows the method
	backupsRead := access{area: "databases", level: cloudstore.ReadWrite}
	unrestricted := access{area: "databases", who: unrestrictedOnly}
	r.add(both, "GET", base, rw, d.list(fam))
	if fam == cloudstore.FamilySQL {
		r.add(both, "POST", base, rw, d.create)
	}
	r.add(both, "GET", one, rw, d.get(fam))
	r.add(both, "PUT", one, rw, d.update(fam))
	r.add(both, "DELETE", one, unrestricted, d.remove(fam))
	r.add(both, "GET", one+"/backups", backupsRead, d.listBackups(fam))
	r.add(both, "POST", one+"/backups", rw, d.snapshot(fam))
	r.add(both, "GET", one+"/backups/:backupId", backupsRead, d.getBackup(fam))
	r.add(both, "DELETE", one+"/backups/:backupId", rw, d.deleteBackup(fam))
	r.add(both, "POST", one+"/backups/:backupId/restore", rw, d.restore(fam))
	r.add(both, "GET", one+"/credentials", rw, d.credentials(fam))
	r.add(both, "POST", one+"/credentials/reset", unrestricted, d.resetCredentials(fam))
	r.add(both, "GET", one+"/ssl", rw, d.ssl(fam))
	r.add(both, "POST", one+"/patch", rw, d.patch(fam))
}

// dbOp is the body of an operation on one database, run in a transaction.
type dbOp func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error

// read runs op in a read transaction on the caller's database of fam, which the caller must be
// allowed at least read_only on.
func (d *dbAPI) read(c *fiber.Ctx, fam string, op dbOp) error {
	id, err := pathID(c, "instanceId")
	if err != nil {
		return err
	}
	cl, now := callerOf(c), d.Clock.Now()
	return d.Store.View(func(tx *bbolt.Tx) error {
		db, err := d.target(tx, cl, fam, id, cloudstore.ReadOnly)
		if err != nil {
			return err
		}
		return op(tx, db, now)
	})
}

// write runs op in a write transaction on the caller's database of fam, which the caller must
// hold read_write on. The database is read inside the transaction, so two requests that change
// it are serialised and the second sees what the first did (an `updating` status, say).
func (d *dbAPI) write(c *fiber.Ctx, fam string, op dbOp) error {
	id, err := pathID(c, "instanceId")
	if err != nil {
		return err
	}
	cl, now := callerOf(c), d.Clock.Now()
	return d.Store.Write(func(tx *bbolt.Tx) error {
		db, err := d.target(tx, cl, fam, id, cloudstore.ReadWrite)
		if err != nil {
			return err
		}
		return op(tx, db, now)
	})
}

// target loads the caller's database: another account's or family's, a deleted one or one a
// restricted user holds no grant on is not found; one they may only read is 403 for writes.
func (d *dbAPI) target(tx *bbolt.Tx, cl *caller, fam string, id uint64, need string) (cloudstore.Database, error) {
	db, err := cloudstore.AccountDatabase(tx, cl.user.AccountID, fam, id)
	if err != nil {
		return db, err
	}
	switch perm := cloudstore.DatabasePermission(cl.user, id); {
	case perm == "":
		return db, fmt.Errorf("database %d: %w", id, store.ErrNotFound)
	case need == cloudstore.ReadWrite && perm != cloudstore.ReadWrite:
		return db, errUnauthorized
	}
	return db, nil
}

// visible lists the caller's databases of fam ("" all) as they stand now: from the cache, and
// for a restricted user only those they hold a grant on.
func (d *dbAPI) visible(c *fiber.Ctx, fam string) ([]cloudstore.Database, error) {
	u := callerOf(c).user
	key := dbListKey{u.AccountID, fam}
	list, err := d.lists.Get(key, func(tx *bbolt.Tx) ([]cloudstore.Database, error) {
		return cloudstore.AccountDatabases(tx, key.account, fam)
	})
	if err != nil {
		return nil, err
	}
	list = cloudstore.DatabasesAt(list, d.Clock.Now())
	if !u.Restricted {
		return list, nil
	}
	out := []cloudstore.Database{}
	for _, db := range list {
		if cloudstore.DatabasePermission(u, db.ID) != "" {
			out = append(out, db)
		}
	}
	return out, nil
}

// pathID reads a numeric path parameter; a malformed one is simply not found.
func pathID(c *fiber.Ctx, name string) (uint64, error) {
	id, err := strconv.ParseUint(c.Params(name), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %q: %w", name, c.Params(name), store.ErrNotFound)
	}
	return id, nil
}

// provisionTime is the configured provisioning time.
func (d *dbAPI) provisionTime() time.Duration {
	if d.DatabaseProvisionTime <= 0 {
		return DefaultDatabaseProvisionTime
	}
	return d.DatabaseProvisionTime
}

// job runs every second: it looks in a read transaction and writes only when a database has
// work due (see cloudstore.RunDatabaseJob).
func (d *dbAPI) job(now time.Time) error {
	due := false
	if err := d.Store.View(func(tx *bbolt.Tx) (err error) {
		due, err = cloudstore.DatabasesDue(tx, now)
		return err
	}); err != nil || !due {
		return err
	}
	return d.Store.Write(func(tx *bbolt.Tx) error { return cloudstore.RunDatabaseJob(tx, now) })
}
