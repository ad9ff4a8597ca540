package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// listBackups lists a database's complete backups (not while it provisions).
func (d *dbAPI) listBackups(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "instanceId")
		if err != nil {
			return err
		}
		list, err := d.Cloud.DatabaseBackups(callerOf(c).User, fam, id)
		if err != nil {
			return err
		}
		return renderList(c, list, backupFields, viewBackup)
	}
}

// getBackup shows one backup.
func (d *dbAPI) getBackup(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, backup, err := backupPath(c)
		if err != nil {
			return err
		}
		b, err := d.Cloud.DatabaseBackup(callerOf(c).User, fam, id, backup)
		if err != nil {
			return err
		}
		return c.JSON(viewBackup(b))
	}
}

// snapshot starts a snapshot backup ({label, target}) and answers {}: the database is
// backing_up until it is taken.
func (d *dbAPI) snapshot(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		b, err := parseBody(c)
		if err != nil {
			return err
		}
		label, target := b.str("label"), b.str("target")
		id, err := pathID(c, "instanceId")
		if err != nil {
			return err
		}
		return d.answerEmpty(c, d.Cloud.SnapshotDatabase(callerOf(c).User, fam, id, label, target, b.problems))
	}
}

// deleteBackup removes a backup and answers {}.
func (d *dbAPI) deleteBackup(fam string) fiber.Handler {
	return d.backupAction(fam, d.Cloud.DeleteDatabaseBackup)
}

// restore replaces the database's data with a backup's and answers {}: restoring, then active —
// or failed for a backup older than the last credentials reset.
func (d *dbAPI) restore(fam string) fiber.Handler {
	return d.backupAction(fam, d.Cloud.RestoreDatabaseBackup)
}

// backupAction answers {} after op on the backup of the path.
func (d *dbAPI) backupAction(fam string, op func(by cloudstore.User, fam string, id, backupID uint64) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, backup, err := backupPath(c)
		if err != nil {
			return err
		}
		return d.answerEmpty(c, op(callerOf(c).User, fam, id, backup))
	}
}

// answerEmpty answers {} when err is nil, the error otherwise (action endpoints).
func (d *dbAPI) answerEmpty(c *fiber.Ctx, err error) error {
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// backupPath reads a backup route's ids: the backup's first, as the API validates them.
func backupPath(c *fiber.Ctx) (id, backup uint64, err error) {
	if backup, err = pathID(c, "backupId"); err != nil {
		return 0, 0, err
	}
	id, err = pathID(c, "instanceId")
	return id, backup, err
}
