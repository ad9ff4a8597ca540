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
// (sqldb, docdb, and the real service's names for them: see familyAliases) the instance,
// backup, credentials, ssl and patch endpoints (and sqldb's suspend and resume). Only sqldb (with mysql and postgresql) has a
// create route: the seed says docdb databases cannot be created, so a POST there (or to
// mongodb) answers fiber's 405 in the cloud error format. (cloudsvc's clock job moves
// databases through their states.)
func (a *api) bindDatabases(r *routes) {
	d := &dbAPI{api: a}
	pub := access{public: true}
	r.add(both, "GET", "/databases/engines", pub, d.listEngines)
	r.add(both, "GET", "/databases/engines/:engineId", pub, d.getEngine)
	r.add(both, "GET", "/databases/engines/:engine/:version", pub, d.getEngine)
	r.add(both, "GET", "/databases/types", pub, d.listTypes)
	r.add(both, "GET", "/databases/types/:typeId", pub, d.getType)
	// the engine settings a database's engine_config takes (the current real API's; no seed name:
	// both engines are the sqldb family)
	r.add(both, "GET", "/databases/mysql/config", pub, engineConfigSchema("mysql"))
	r.add(both, "GET", "/databases/postgresql/config", pub, engineConfigSchema("postgresql"))
	r.add(both, "GET", "/databases/instances", accessOf(cloudsvc.NeedListDatabases), d.list(""))
	d.bindFamily(r, cloudstore.FamilySQL)
	d.bindFamily(r, cloudstore.FamilyDoc)
}

// familyAliases are the real service's path segments for each of the seed's families:
// linodego's typed calls and the JavaScript client (@linode/api-v4) use /databases/mysql/…,
// /databases/postgresql/… and /databases/mongodb/…. They are accepted as input only: the
// answers keep the seed's names (instance_uri, event urls say sqldb and docdb) and ids, and an
// alias lists and acts on the whole family (/databases/mysql/instances lists the postgresql
// databases too; filter on engine to separate them).
var familyAliases = map[string][]string{
	cloudstore.FamilySQL: {"mysql", "postgresql"},
	cloudstore.FamilyDoc: {"mongodb"},
}

// bindFamily registers one family's instance endpoints, under the seed's segment and its
// aliases. Backups need the databases:read_write scope even to be read (the seed's table);
// delete and credentials reset are for unrestricted users only, whatever the token's scopes
// (which must still include databases:read_write).
func (d *dbAPI) bindFamily(r *routes, fam string) {
	add := func(method, suffix string, acc access, h fiber.Handler) {
		var aliases []string
		for _, seg := range familyAliases[fam] {
			aliases = append(aliases, "/databases/"+seg+"/instances"+suffix)
		}
		r.addAliased(both, method, "/databases/"+fam+"/instances"+suffix, aliases, acc, h)
	}
	const one = "/:instanceId"
	rw := access{area: "databases"} // the level follows the method
	unrestricted := access{area: "databases", who: unrestrictedOnly}
	add("GET", "", accessOf(cloudsvc.NeedListDatabases), d.list(fam))
	if fam == cloudstore.FamilySQL {
		add("POST", "", accessOf(cloudsvc.NeedCreateDatabase), d.create)
	}
	add("GET", one, accessOf(cloudsvc.NeedGetDatabase), d.get(fam))
	add("PUT", one, accessOf(cloudsvc.NeedUpdateDatabase), d.update(fam))
	add("DELETE", one, unrestricted, d.remove(fam))
	backups := accessOf(cloudsvc.NeedDatabaseBackups)
	add("GET", one+"/backups", backups, d.listBackups(fam))
	add("POST", one+"/backups", backups, d.snapshot(fam))
	add("GET", one+"/backups/:backupId", backups, d.getBackup(fam))
	add("DELETE", one+"/backups/:backupId", rw, d.deleteBackup(fam))
	add("POST", one+"/backups/:backupId/restore", backups, d.restore(fam))
	add("GET", one+"/credentials", accessOf(cloudsvc.NeedGetDatabaseCredentials), d.credentials(fam))
	add("POST", one+"/credentials/reset", accessOf(cloudsvc.NeedResetDatabaseCredentials), d.resetCredentials(fam))
	add("GET", one+"/ssl", accessOf(cloudsvc.NeedGetDatabaseSSL), d.ssl(fam))
	add("POST", one+"/patch", rw, d.patch(fam))
	if fam == cloudstore.FamilySQL { // the later real API's, for its mysql and postgresql families
		add("POST", one+"/suspend", rw, d.suspend(fam))
		add("POST", one+"/resume", rw, d.resume(fam))
	}
}

// pathID reads a numeric path parameter; a malformed one is simply not found.
func pathID(c *fiber.Ctx, name string) (uint64, error) {
	id, err := strconv.ParseUint(c.Params(name), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %q: %w", name, c.Params(name), store.ErrNotFound)
	}
	return id, nil
}
