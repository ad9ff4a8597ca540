package cloudstore

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Backup types.
const (
	BackupAuto     = "auto"
	BackupSnapshot = "snapshot"
)

// DatabaseBackup is a restore point of a database: an `auto` one taken at 00:00 UTC each day
// and kept AutoBackupRetention, or a `snapshot` a user asked for. Stored under its id in
// store.CloudDatabaseBackups and indexed under its database in store.CloudDatabaseBackupIndex.
type DatabaseBackup struct {
	ID         uint64    `json:"id"`
	DatabaseID uint64    `json:"database_id"`
	Type       string    `json:"type"`
	Label      string    `json:"label"`
	Target     string    `json:"target,omitempty"` // primary, secondary (snapshots)
	Created    time.Time `json:"created"`
	// Available is when the backup is complete; until then it is not listed (a snapshot takes
	// cloudsvc.SnapshotTime, while the database is backing_up).
	Available time.Time `json:"available"`
	// Generation is the database's DataGeneration the backup holds.
	Generation uint64 `json:"generation,omitempty"`
}

// DatabaseBackupList returns every backup record of database id, complete or not, in id order.
func DatabaseBackupList(tx kv.Tx, id uint64) ([]DatabaseBackup, error) {
	return store.IndexedRecords[DatabaseBackup](tx, store.CloudDatabaseBackupIndex, store.Itob(id), store.CloudDatabaseBackups)
}

// GetDatabaseBackup returns backup id, whatever its database and whether complete or not.
func GetDatabaseBackup(tx kv.Tx, id uint64) (DatabaseBackup, error) {
	return store.Get[DatabaseBackup](tx, store.CloudDatabaseBackups, store.Itob(id))
}

// AddDatabaseBackup stores a new backup with the next id and files it under its database.
func AddDatabaseBackup(tx kv.Tx, b *DatabaseBackup) error {
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

// RemoveDatabaseBackup removes a backup, its dump and its index entry.
func RemoveDatabaseBackup(tx kv.Tx, database, id uint64) error {
	if err := store.Delete(tx, store.CloudDatabaseBackups, store.Itob(id)); err != nil {
		return err
	}
	if err := deleteBackupDump(tx, id); err != nil {
		return err
	}
	return store.IndexRemove(tx, store.CloudDatabaseBackupIndex, store.Itob(database), store.Itob(id))
}

// RefreshOldestAuto recomputes the database's oldest auto backup (what pruning waits for) and
// stores the database.
func RefreshOldestAuto(tx kv.Tx, d Database) error {
	all, err := DatabaseBackupList(tx, d.ID)
	if err != nil {
		return err
	}
	d.OldestAutoBackup = time.Time{}
	for _, b := range all {
		if b.Type == BackupAuto && (d.OldestAutoBackup.IsZero() || b.Created.Before(d.OldestAutoBackup)) {
			d.OldestAutoBackup = b.Created
		}
	}
	return PutDatabase(tx, &d)
}

// ImportDatabaseBackup stores a backup as it is (fixtures, tests). An auto backup also moves
// the database's LastAutoBackup and OldestAutoBackup, so the job carries on from it.
func ImportDatabaseBackup(tx kv.Tx, b DatabaseBackup) error {
	d, err := GetDatabase(tx, b.DatabaseID)
	if err != nil {
		return err
	}
	if err := AddDatabaseBackup(tx, &b); err != nil || b.Type != BackupAuto {
		return err
	}
	if b.Created.After(d.LastAutoBackup) {
		d.LastAutoBackup = b.Created
	}
	if d.OldestAutoBackup.IsZero() || b.Created.Before(d.OldestAutoBackup) {
		d.OldestAutoBackup = b.Created
	}
	return PutDatabase(tx, &d)
}
