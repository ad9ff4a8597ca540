package cloudapi

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// list answers a family's list (fam "" is GET /databases/instances: every family, generic shape).
func (d *dbAPI) list(fam string) fiber.Handler {
	view := viewDatabase
	if fam == "" {
		view = viewGenericDatabase
	}
	return func(c *fiber.Ctx) error {
		items, err := d.visible(c, fam)
		if err != nil {
			return err
		}
		return renderList(c, items, databaseFields, view)
	}
}

// get shows one database in its family's shape.
func (d *dbAPI) get(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var out any
		err := d.read(c, fam, func(_ *bbolt.Tx, db cloudstore.Database, now time.Time) error {
			out = viewDatabase(db.At(now))
			return nil
		})
		if err != nil {
			return err
		}
		return c.JSON(out)
	}
}

// create provisions a sqldb database and answers it provisioning (hosts null). Restricted users
// need the add_databases grant.
func (d *dbAPI) create(c *fiber.Ctx) error {
	cl, now := callerOf(c), d.Clock.Now()
	if cl.user.Restricted && (cl.user.Grants == nil || !cl.user.Grants.Global.AddDatabases) {
		return errUnauthorized
	}
	b, in, err := databaseCreateInput(c)
	if err != nil {
		return err
	}
	label := ""
	if in.Label != nil && len(*in.Label) <= 32 {
		label = *in.Label
	}
	if in.Secrets, err = cloudstore.NewDatabaseSecrets(label, now); err != nil {
		return err
	}
	var db cloudstore.Database
	err = d.Store.Write(func(tx *bbolt.Tx) error {
		if db, err = cloudstore.CreateDatabase(tx, cl.user, in, now, d.provisionTime()); b.with(err) != nil {
			return b.with(err)
		}
		return d.record(tx, cl, "database_create", db.EventEntity(), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(viewDatabase(db))
}

// update applies a PUT (label, allow_list, updates) to an active database and answers it
// updating.
func (d *dbAPI) update(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		b, up, err := databaseUpdateInput(c)
		if err != nil {
			return err
		}
		cl := callerOf(c)
		var out cloudstore.Database
		err = d.write(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
			if out, err = cloudstore.UpdateDatabase(tx, db, up, now); b.with(err) != nil {
				return b.with(err)
			}
			return d.record(tx, cl, "database_update", out.EventEntity(), now)
		})
		if err != nil {
			return err
		}
		return c.JSON(viewDatabase(out))
	}
}

// remove deletes an active, failed or degraded database (unrestricted users only).
func (d *dbAPI) remove(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		cl := callerOf(c)
		err := d.write(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
			if err := cloudstore.DeleteDatabase(tx, db, now); err != nil {
				return err
			}
			return d.record(tx, cl, "database_delete", db.EventEntity(), now)
		})
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{})
	}
}

// patch applies OS patches: the database is updating for a while, with a notification. The
// reference names no event for it; it is recorded as database_update.
func (d *dbAPI) patch(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		cl := callerOf(c)
		err := d.write(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
			db, err := cloudstore.PatchDatabase(tx, db, now)
			if err != nil {
				return err
			}
			return d.record(tx, cl, "database_update", db.EventEntity(), now)
		})
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{})
	}
}
