package cloudstore

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// Backup types.
const (
	BackupAuto     = "auto"
	BackupSnapshot = "snapshot"
)

// DatabaseBackup is a restore point of a database: an `auto` one taken at 00:00 UTC each day
// and kept AutoBackupRetention, or a `snapshot` a user asked for.
type DatabaseBackup struct {
	ID         uint64    `json:"id"`
	DatabaseID uint64    `json:"database_id"`
	Type       string    `json:"type"`
	Label      string    `json:"label"`
	Target     string    `json:"target,omitempty"` // primary, secondary (snapshots)
	Created    time.Time `json:"created"`
	// Available is when the backup is complete; until then it is not listed (a snapshot takes
	// SnapshotTime, while the database is backing_up).
	Available time.Time `json:"available"`
	// Generation is the database's DataGeneration the backup holds.
	Generation uint64 `json:"generation,omitempty"`
}

// AutoBackupRetention is how long an auto backup is kept (the seed's 7 days).
const AutoBackupRetention = 7 * 24 * time.Hour

// DatabaseBackups lists the complete backups of a database that is not provisioning, oldest
// first.
func DatabaseBackups(tx *bbolt.Tx, d Database, now time.Time) ([]DatabaseBackup, error) {
	if err := d.At(now).requireProvisioned(now); err != nil {
		return nil, err
	}
	all, err := store.IndexedRecords[DatabaseBackup](tx, store.CloudDatabaseBackupIndex, store.Itob(d.ID), store.CloudDatabaseBackups)
	out := all[:0]
	for _, b := range all {
		if !now.Before(b.Available) {
			out = append(out, b)
		}
	}
	slices.SortStableFunc(out, func(a, b DatabaseBackup) int { return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID)) })
	return out, err
}

// DatabaseBackupOf returns one complete backup of a database that is not provisioning; another
// database's backup, or one still being taken, is not found.
func DatabaseBackupOf(tx *bbolt.Tx, d Database, id uint64, now time.Time) (DatabaseBackup, error) {
	if err := d.At(now).requireProvisioned(now); err != nil {
		return DatabaseBackup{}, err
	}
	b, err := store.Get[DatabaseBackup](tx, store.CloudDatabaseBackups, store.Itob(id))
	if err == nil && (b.DatabaseID != d.ID || now.Before(b.Available)) {
		err = fmt.Errorf("backup %d: %w", id, store.ErrNotFound)
	}
	return b, err
}

// SnapshotDatabase starts a snapshot backup of an active database (label 3-64 by the seed's
// rule, target primary or — for a three-node cluster — secondary): the database is backing_up
// for SnapshotTime and the backup shows when that is over.
func SnapshotDatabase(tx *bbolt.Tx, d Database, label, target *string, now time.Time) (Database, error) {
	d, err := settle(tx, d, now)
	if err != nil {
		return d, err
	}
	var p store.Problems
	if err := d.require(now, DBActive); err != nil {
		p = append(p, err.(store.Problems)...)
	}
	b := DatabaseBackup{DatabaseID: d.ID, Type: BackupSnapshot, Target: "primary", Created: now, Available: now.Add(SnapshotTime), Generation: d.DataGeneration}
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
	if err := addBackup(tx, &b); err != nil {
		return d, err
	}
	d.transient(DBBackingUp, OpSnapshot, now, SnapshotTime)
	return d, putDatabase(tx, &d)
}

// DeleteDatabaseBackup removes a backup of a database that is not provisioning.
func DeleteDatabaseBackup(tx *bbolt.Tx, d Database, id uint64, now time.Time) error {
	b, err := DatabaseBackupOf(tx, d, id, now)
	if err != nil {
		return err
	}
	if err := deleteBackup(tx, d.ID, b.ID); err != nil {
		return err
	}
	if b.Type != BackupAuto {
		return nil
	}
	if d, err = settle(tx, d, now); err != nil {
		return err
	}
	return refreshOldestAuto(tx, d)
}

// RestoreDatabaseBackup replaces an active database's data with a backup's: the database is
// restoring for RestoreTime, then active — or failed when the backup is older than the last
// credentials reset (the seed: restoring after a reset results in a failed cluster).
func RestoreDatabaseBackup(tx *bbolt.Tx, d Database, id uint64, now time.Time) (Database, error) {
	d, err := settle(tx, d, now)
	if err != nil {
		return d, err
	}
	if err := d.require(now, DBActive); err != nil {
		return d, err
	}
	b, err := DatabaseBackupOf(tx, d, id, now)
	if err != nil {
		return d, err
	}
	d.transient(DBRestoring, OpRestore, now, RestoreTime)
	if b.Created.Before(d.CredentialsReset) {
		d.Next = DBFailed
	}
	d.DataGeneration++
	return d, putDatabase(tx, &d)
}

// addBackup stores a new backup with the next id and files it under its database.
func addBackup(tx *bbolt.Tx, b *DatabaseBackup) error {
	id, err := store.NextID(tx, store.CloudDatabaseBackups)
	if err != nil {
		return err
	}
	b.ID = id
	if err := store.Put(tx, store.CloudDatabaseBackups, store.Itob(id), b); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudDatabaseBackupIndex, store.Itob(b.DatabaseID), store.Itob(id))
}

// deleteBackup removes a backup and its index entry.
func deleteBackup(tx *bbolt.Tx, database, id uint64) error {
	if err := store.Delete(tx, store.CloudDatabaseBackups, store.Itob(id)); err != nil {
		return err
	}
	return store.IndexRemove(tx, store.CloudDatabaseBackupIndex, store.Itob(database), store.Itob(id))
}

// refreshOldestAuto recomputes the database's oldest auto backup (what pruning waits for) and
// stores the database.
func refreshOldestAuto(tx *bbolt.Tx, d Database) error {
	all, err := store.IndexedRecords[DatabaseBackup](tx, store.CloudDatabaseBackupIndex, store.Itob(d.ID), store.CloudDatabaseBackups)
	if err != nil {
		return err
	}
	d.OldestAutoBackup = time.Time{}
	for _, b := range all {
		if b.Type == BackupAuto && (d.OldestAutoBackup.IsZero() || b.Created.Before(d.OldestAutoBackup)) {
			d.OldestAutoBackup = b.Created
		}
	}
	return putDatabase(tx, &d)
}

// ImportDatabaseBackup stores a backup as it is (fixtures, tests). An auto backup also moves
// the database's LastAutoBackup and OldestAutoBackup, so the job carries on from it.
func ImportDatabaseBackup(tx *bbolt.Tx, b DatabaseBackup) error {
	d, err := GetDatabase(tx, b.DatabaseID)
	if err != nil {
		return err
	}
	if err := addBackup(tx, &b); err != nil || b.Type != BackupAuto {
		return err
	}
	if b.Created.After(d.LastAutoBackup) {
		d.LastAutoBackup = b.Created
	}
	if d.OldestAutoBackup.IsZero() || b.Created.Before(d.OldestAutoBackup) {
		d.OldestAutoBackup = b.Created
	}
	return putDatabase(tx, &d)
}
