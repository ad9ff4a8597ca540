package cloudstore

import (
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Key layout of a connectable sqldb instance's data (store/buckets.go): CloudDatabaseData holds
// each instance's SQL dump under its big-endian id, CloudDatabaseBackupDumps each backup's dump
// under the backup's id. Both are raw bytes (a dump is SQL text, not JSON).

// SQLData is sqlengine's Store over the data file: bbolt stays the only data of record, so the
// databases' data rides along in snapshots, restores and resets of the appliance. Save commits
// (db.Write, fsync'd as the store's durability says) before it returns, because sqlengine sends
// a client the OK for a write only after it.
type SQLData struct{ DB *store.DB }

// Load returns a copy of id's saved dump, nil when none was ever saved (a new instance).
func (s SQLData) Load(id uint64) (out []byte, err error) {
	err = s.DB.View(func(tx kv.Tx) error {
		out = SQLDataOf(tx, id)
		return nil
	})
	return out, err
}

// Save replaces id's dump with state.
func (s SQLData) Save(id uint64, state []byte) error {
	return s.DB.Write(func(tx kv.Tx) error { return PutSQLData(tx, id, state) })
}

// Delete forgets id's data (sqlengine's Remove).
func (s SQLData) Delete(id uint64) error {
	return s.DB.Write(func(tx kv.Tx) error { return deleteSQLData(tx, id) })
}

// PutSQLData replaces id's dump in the caller's transaction (a restore while no engine runs).
func PutSQLData(tx kv.Tx, id uint64, state []byte) error {
	b, err := store.Bucket(tx, store.CloudDatabaseData)
	if err != nil {
		return err
	}
	return b.Put(store.Itob(id), state)
}

// SQLDataOf returns a copy of id's saved dump in the caller's transaction (nil: none).
func SQLDataOf(tx kv.Tx, id uint64) []byte {
	b := tx.Bucket([]byte(store.CloudDatabaseData))
	if b == nil {
		return nil
	}
	if v := b.Get(store.Itob(id)); v != nil {
		return append([]byte{}, v...)
	}
	return nil
}

// deleteSQLData removes id's dump, if any.
func deleteSQLData(tx kv.Tx, id uint64) error {
	b, err := store.Bucket(tx, store.CloudDatabaseData)
	if err != nil {
		return err
	}
	return b.Delete(store.Itob(id))
}

// PutBackupDump keeps dump as what backup id holds.
func PutBackupDump(tx kv.Tx, id uint64, dump []byte) error {
	b, err := store.Bucket(tx, store.CloudDatabaseBackupDumps)
	if err != nil {
		return err
	}
	return b.Put(store.Itob(id), dump)
}

// BackupDump returns a copy of backup id's dump; ok is false for a backup that took none (one
// of a simulated instance, or taken before its instance was connectable).
func BackupDump(tx kv.Tx, id uint64) (dump []byte, ok bool) {
	b := tx.Bucket([]byte(store.CloudDatabaseBackupDumps))
	if b == nil {
		return nil, false
	}
	v := b.Get(store.Itob(id))
	if v == nil {
		return nil, false
	}
	return append([]byte{}, v...), true
}

// deleteBackupDump removes backup id's dump, if any.
func deleteBackupDump(tx kv.Tx, id uint64) error {
	b, err := store.Bucket(tx, store.CloudDatabaseBackupDumps)
	if err != nil {
		return err
	}
	return b.Delete(store.Itob(id))
}
