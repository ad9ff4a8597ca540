package cloudsvc

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// DatabaseBackups lists a database's complete backups (none while it provisions).
func (s *Service) DatabaseBackups(by cloudstore.User, fam string, id uint64) ([]cloudstore.DatabaseBackup, error) {
	var list []cloudstore.DatabaseBackup
	err := s.readDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) (err error) {
		list, err = CompleteBackups(tx, db, now)
		return err
	})
	return list, err
}

// DatabaseBackup returns backup backupID of a database.
func (s *Service) DatabaseBackup(by cloudstore.User, fam string, id, backupID uint64) (cloudstore.DatabaseBackup, error) {
	var b cloudstore.DatabaseBackup
	err := s.readDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) (err error) {
		b, err = databaseBackupOf(tx, db, backupID, now)
		return err
	})
	return b, err
}

// SnapshotDatabase starts a snapshot backup of a database, which is backing_up until it is
// taken, and records database_backup_create. parsed are the problems the caller found reading
// the request (see CreateUser).
func (s *Service) SnapshotDatabase(by cloudstore.User, fam string, id uint64, label, target *string, parsed store.Problems) error {
	return s.writeDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) error {
		db, err := snapshotDatabase(tx, db, label, target, now)
		if withParsed(parsed, err) != nil {
			return withParsed(parsed, err)
		}
		return recordOperation(tx, by, "database_backup_create", db, now)
	})
}

// DeleteDatabaseBackup removes backup backupID of a database (the reference names no event for
// it).
func (s *Service) DeleteDatabaseBackup(by cloudstore.User, fam string, id, backupID uint64) error {
	return s.writeDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) error {
		return deleteDatabaseBackup(tx, db, backupID, now)
	})
}

// RestoreDatabaseBackup replaces a database's data with backup backupID's — restoring, then
// active, or failed for a backup older than the last credentials reset — and records
// database_backup_restore. A connectable instance's data really is replaced with the backup's
// dump before this returns (running or not: see restoreData).
func (s *Service) RestoreDatabaseBackup(by cloudstore.User, fam string, id, backupID uint64) error {
	var dump []byte
	var replace bool
	err := s.writeDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) error {
		db, err := restoreDatabaseBackup(tx, db, backupID, now)
		if err != nil {
			return err
		}
		if dump, replace = cloudstore.BackupDump(tx, backupID); replace && db.Next == cloudstore.DBFailed {
			replace = false // the cluster fails; its data is not touched
		}
		if replace && s.sql == nil { // nothing runs: the data file is all there is
			if err := cloudstore.PutSQLData(tx, id, dump); err != nil {
				return err
			}
			replace = false
		}
		return recordOperation(tx, by, "database_backup_restore", db, now)
	})
	if err != nil || !replace {
		return err
	}
	return s.restoreData(id, dump)
}

// restoreData replaces a connectable instance's data with dump through the engine manager,
// which loads it into the running engine (open sessions see it from their next statement) or,
// for a stopped instance, checks that it loads and saves it. A backup without a dump (taken
// before the instance was connectable) leaves the data as it is.
func (s *Service) restoreData(id uint64, dump []byte) error {
	if err := s.sql.mgr.Restore(id, dump); err != nil {
		s.log.Error("sqldb: restoring a backup's dump failed; the data stays as it was", "database", id, "err", err)
		return fmt.Errorf("database %d: restoring the backup's data: %w", id, err)
	}
	return nil
}

// CompleteBackups lists the complete backups of a database that is not provisioning, oldest
// first, in the caller's transaction (Service.DatabaseBackups', or a fixtures test's).
func CompleteBackups(tx kv.Tx, d cloudstore.Database, now time.Time) ([]cloudstore.DatabaseBackup, error) {
	if err := requireProvisioned(d.At(now)); err != nil {
		return nil, err
	}
	all, err := cloudstore.DatabaseBackupList(tx, d.ID)
	out := all[:0]
	for _, b := range all {
		if !now.Before(b.Available) {
			out = append(out, b)
		}
	}
	slices.SortStableFunc(out, func(a, b cloudstore.DatabaseBackup) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, err
}

// databaseBackupOf returns one complete backup of a database that is not provisioning; another
// database's backup, or one still being taken, is not found.
func databaseBackupOf(tx kv.Tx, d cloudstore.Database, id uint64, now time.Time) (cloudstore.DatabaseBackup, error) {
	if err := requireProvisioned(d.At(now)); err != nil {
		return cloudstore.DatabaseBackup{}, err
	}
	b, err := cloudstore.GetDatabaseBackup(tx, id)
	if err == nil && (b.DatabaseID != d.ID || now.Before(b.Available)) {
		err = fmt.Errorf("backup %d: %w", id, store.ErrNotFound)
	}
	return b, err
}

// snapshotDatabase starts a snapshot backup of an active database (label 3-64 by the seed's
// rule, target primary or — for a three-node cluster — secondary): the database is backing_up
// for SnapshotTime and the backup shows when that is over.
func snapshotDatabase(tx kv.Tx, d cloudstore.Database, label, target *string, now time.Time) (cloudstore.Database, error) {
	d, p, err := settleActive(tx, d, now)
	if err != nil {
		return d, err
	}
	b := cloudstore.DatabaseBackup{DatabaseID: d.ID, Type: cloudstore.BackupSnapshot, Target: "primary", Created: now, Available: now.Add(SnapshotTime), Generation: d.DataGeneration}
	if required(&p, "label", label) {
		b.Label = *label
		checkLabel(&p, "label", b.Label, 3, 64)
	}
	if target != nil {
		b.Target = *target
	}
	switch {
	case b.Target != "primary" && b.Target != "secondary":
		p.Add("target", "Must be one of primary, secondary")
	case b.Target == "secondary" && d.ClusterSize != 3:
		p.Add("target", "A secondary target needs a high availability (3-node) cluster")
	}
	if err := p.Err(); err != nil {
		return d, err
	}
	if err := addBackup(tx, d, &b); err != nil {
		return d, err
	}
	transient(&d, cloudstore.DBBackingUp, cloudstore.OpSnapshot, now, SnapshotTime)
	return d, cloudstore.PutDatabase(tx, &d)
}

// addBackup stores a new backup of d with, for a connectable instance, the dump of its data: a
// copy of what the data file holds for it, which is the engine's own dump (sqlengine saves it
// before each write's OK), taken in the backup's transaction, so the backup holds exactly the
// writes acknowledged before it. An instance that never listened has no data and its backup no
// dump.
func addBackup(tx kv.Tx, d cloudstore.Database, b *cloudstore.DatabaseBackup) error {
	if err := cloudstore.AddDatabaseBackup(tx, b); err != nil {
		return err
	}
	if !d.Connectable() {
		return nil
	}
	if data := cloudstore.SQLDataOf(tx, d.ID); data != nil {
		return cloudstore.PutBackupDump(tx, b.ID, data)
	}
	return nil
}

// deleteDatabaseBackup removes a backup of a database that is not provisioning.
func deleteDatabaseBackup(tx kv.Tx, d cloudstore.Database, id uint64, now time.Time) error {
	b, err := databaseBackupOf(tx, d, id, now)
	if err != nil {
		return err
	}
	if err := cloudstore.RemoveDatabaseBackup(tx, d.ID, b.ID); err != nil {
		return err
	}
	if b.Type != cloudstore.BackupAuto {
		return nil
	}
	if d, err = settle(tx, d, now); err != nil {
		return err
	}
	return cloudstore.RefreshOldestAuto(tx, d)
}

// restoreDatabaseBackup replaces an active database's data with a backup's: the database is
// restoring for RestoreTime, then active — or failed when the backup is older than the last
// credentials reset (the seed: restoring after a reset results in a failed cluster).
func restoreDatabaseBackup(tx kv.Tx, d cloudstore.Database, id uint64, now time.Time) (cloudstore.Database, error) {
	d, err := settle(tx, d, now)
	if err != nil {
		return d, err
	}
	if err := require(d, cloudstore.DBActive); err != nil {
		return d, err
	}
	b, err := databaseBackupOf(tx, d, id, now)
	if err != nil {
		return d, err
	}
	transient(&d, cloudstore.DBRestoring, cloudstore.OpRestore, now, RestoreTime)
	if b.Created.Before(d.CredentialsReset) {
		d.Next = cloudstore.DBFailed
	}
	d.DataGeneration++
	return d, cloudstore.PutDatabase(tx, &d)
}
