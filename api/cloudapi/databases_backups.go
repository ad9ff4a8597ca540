package cloudapi

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// listBackups lists a database's complete backups (not while it provisions).
func (d *dbAPI) listBackups(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var list []cloudstore.DatabaseBackup
		err := d.read(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) (err error) {
			list, err = cloudstore.DatabaseBackups(tx, db, now)
			return err
		})
		if err != nil {
			return err
		}
		return renderList(c, list, backupFields, viewBackup)
	}
}

// getBackup shows one backup.
func (d *dbAPI) getBackup(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "backupId")
		if err != nil {
			return err
		}
		var b cloudstore.DatabaseBackup
		err = d.read(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) (err error) {
			b, err = cloudstore.DatabaseBackupOf(tx, db, id, now)
			return err
		})
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
		cl := callerOf(c)
		err = d.write(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
			db, err := cloudstore.SnapshotDatabase(tx, db, label, target, now)
			if b.with(err) != nil {
				return b.with(err)
			}
			return d.record(tx, cl, "database_backup_create", db.EventEntity(), now)
		})
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{})
	}
}

// deleteBackup removes a backup and answers {} (the reference names no event for it).
func (d *dbAPI) deleteBackup(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "backupId")
		if err != nil {
			return err
		}
		return d.answerEmpty(c, d.write(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
			return cloudstore.DeleteDatabaseBackup(tx, db, id, now)
		}))
	}
}

// restore replaces the database's data with a backup's and answers {}: restoring, then active —
// or failed for a backup older than the last credentials reset.
func (d *dbAPI) restore(fam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "backupId")
		if err != nil {
			return err
		}
		cl := callerOf(c)
		return d.answerEmpty(c, d.write(c, fam, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
			db, err := cloudstore.RestoreDatabaseBackup(tx, db, id, now)
			if err != nil {
				return err
			}
			return d.record(tx, cl, "database_backup_restore", db.EventEntity(), now)
		}))
	}
}

// answerEmpty answers {} when err is nil, the error otherwise (action endpoints).
func (d *dbAPI) answerEmpty(c *fiber.Ctx, err error) error {
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}
