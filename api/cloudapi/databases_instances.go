package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// list answers a family's list (fam "" is GET /databases/instances: every family, generic shape).
func (d *dbAPI) list(fam string) fiber.Handler {
	view := viewDatabase
	if fam == "" {
		view = viewGenericDatabase
	}
	return func(c *fiber.Ctx) error {
		items, err := d.Cloud.VisibleDatabases(callerOf(c).User, fam)
		if err != nil {
			return err
		}
		return renderList(c, items, databaseFields, view)
	}
}

// get shows one database in its family's shape.
func (d *dbAPI) get(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "instanceId")
		if err != nil {
			return err
		}
		db, err := d.Cloud.Database(callerOf(c).User, fam, id)
		if err != nil {
			return err
		}
		return c.JSON(viewDatabase(db))
	}
}

// create provisions a sqldb database and answers it provisioning (hosts null). A caller the
// domain would refuse is refused before the body is read.
func (d *dbAPI) create(c *fiber.Ctx) error {
	cl := callerOf(c)
	if err := cloudsvc.MayCreateDatabase(cl.User); err != nil {
		return err
	}
	b, in, err := databaseCreateInput(c)
	if err != nil {
		return err
	}
	db, err := d.Cloud.CreateDatabase(cl.User, in, b.problems)
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
		id, err := pathID(c, "instanceId")
		if err != nil {
			return err
		}
		out, err := d.Cloud.UpdateDatabase(callerOf(c).User, fam, id, up, b.problems)
		if err != nil {
			return err
		}
		return c.JSON(viewDatabase(out))
	}
}

// remove deletes an active, failed or degraded database (unrestricted users only).
func (d *dbAPI) remove(fam string) fiber.Handler {
	return d.action(fam, d.Cloud.DeleteDatabase)
}

// patch applies OS patches: the database is updating for a while, with a notification.
func (d *dbAPI) patch(fam string) fiber.Handler {
	return d.action(fam, d.Cloud.PatchDatabase)
}

// suspend stops an active sqldb database (the later real API's suspend): it keeps its data
// and serves nobody until resumed.
func (d *dbAPI) suspend(fam string) fiber.Handler {
	return d.action(fam, d.Cloud.SuspendDatabase)
}

// resume starts a suspended sqldb database again.
func (d *dbAPI) resume(fam string) fiber.Handler {
	return d.action(fam, d.Cloud.ResumeDatabase)
}

// action answers {} after op on the database of the path.
func (d *dbAPI) action(fam string, op func(by cloudstore.User, fam string, id uint64) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "instanceId")
		if err != nil {
			return err
		}
		return d.answerEmpty(c, op(callerOf(c).User, fam, id))
	}
}
