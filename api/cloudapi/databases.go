package cloudapi

import (
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// DefaultDatabaseProvisionTime is cloudsvc.DefaultDatabaseProvisionTime, under the name serve
// and the tests know.
const DefaultDatabaseProvisionTime = cloudsvc.DefaultDatabaseProvisionTime

// dbAPI serves the managed-databases area (the domain, cloudsvc, caches its hot reads).
type dbAPI struct {
	*api
}

// bindDatabases registers the managed-database endpoints, all under both prefixes: the public
// catalogue (engines and types, rate-limited per IP), the list of all families, and per family
// (sqldb, docdb) the instance, backup, credentials, ssl and patch endpoints. Only sqldb has a
// create route: the seed says docdb databases cannot be created, so a POST there answers fiber's
// 405 in the cloud error format. (cloudsvc's clock job moves databases
// through their states.)
func (a *api) bindDatabases(r *routes) {
	d := &dbAPI{api: a}
	pub := access{public: true}
	r.add(both, "GET", "/databases/engines", pub, d.listEngines)
	r.add(both, "GET", "/databases/engines/:engineId", pub, d.getEngine)
	r.add(both, "GET", "/databases/engines/:engine/:version", pub, d.getEngine)
	r.add(both, "GET", "/databases/types", pub, d.listTypes)
	r.add(both, "GET", "/databases/types/:typeId", pub, d.getType)
	r.add(both, "GET", "/databases/instances", access{area: "databases"}, d.list(""))
	d.bindFamily(r, cloudstore.FamilySQL)
	d.bindFamily(r, cloudstore.FamilyDoc)
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

// pathID reads a numeric path parameter; a malformed one is simply not found.
func pathID(c *fiber.Ctx, name string) (uint64, error) {
	id, err := strconv.ParseUint(c.Params(name), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %q: %w", name, c.Params(name), store.ErrNotFound)
	}
	return id, nil
}
