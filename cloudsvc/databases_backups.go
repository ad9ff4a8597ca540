package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// DatabaseBackups lists a database's complete backups (none while it provisions).
func (s *Service) DatabaseBackups(by cloudstore.User, fam string, id uint64) ([]cloudstore.DatabaseBackup, error) {
	var list []cloudstore.DatabaseBackup
	err := s.readDatabase(by, fam, id, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) (err error) {
		list, err = cloudstore.DatabaseBackups(tx, db, now)
		return err
	})
	return list, err
}

// DatabaseBackup returns backup backupID of a database.
func (s *Service) DatabaseBackup(by cloudstore.User, fam string, id, backupID uint64) (cloudstore.DatabaseBackup, error) {
	var b cloudstore.DatabaseBackup
	err := s.readDatabase(by, fam, id, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) (err error) {
		b, err = cloudstore.DatabaseBackupOf(tx, db, backupID, now)
		return err
	})
	return b, err
}

// SnapshotDatabase starts a snapshot backup of a database, which is backing_up until it is
// taken, and records database_backup_create. parsed are the problems the caller found reading
// the request (see CreateUser).
func (s *Service) SnapshotDatabase(by cloudstore.User, fam string, id uint64, label, target *string, parsed store.Problems) error {
	return s.writeDatabase(by, fam, id, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
		db, err := cloudstore.SnapshotDatabase(tx, db, label, target, now)
		if withParsed(parsed, err) != nil {
			return withParsed(parsed, err)
		}
		return record(tx, by, "database_backup_create", db.EventEntity(), now)
	})
}

// DeleteDatabaseBackup removes backup backupID of a database (the reference names no event for
// it).
func (s *Service) DeleteDatabaseBackup(by cloudstore.User, fam string, id, backupID uint64) error {
	return s.writeDatabase(by, fam, id, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
		return cloudstore.DeleteDatabaseBackup(tx, db, backupID, now)
	})
}

// RestoreDatabaseBackup replaces a database's data with backup backupID's — restoring, then
// active, or failed for a backup older than the last credentials reset — and records
// database_backup_restore.
func (s *Service) RestoreDatabaseBackup(by cloudstore.User, fam string, id, backupID uint64) error {
	return s.writeDatabase(by, fam, id, func(tx *bbolt.Tx, db cloudstore.Database, now time.Time) error {
		db, err := cloudstore.RestoreDatabaseBackup(tx, db, backupID, now)
		if err != nil {
			return err
		}
		return record(tx, by, "database_backup_restore", db.EventEntity(), now)
	})
}
