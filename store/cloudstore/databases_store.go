package cloudstore

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Key layout of the databases (store/buckets.go): CloudDatabases holds each record under its
// big-endian id, deleted ones included (for billing); CloudAccountDatabases indexes them by
// account; CloudDatabaseLabels holds the lower-case labels of each account's live databases;
// CloudDatabaseSchedule orders them by when the clock job next has work on them.

// GetDatabase returns a database by id, deleted ones included.
func GetDatabase(tx kv.Tx, id uint64) (Database, error) {
	return store.Get[Database](tx, store.CloudDatabases, store.Itob(id))
}

// AccountDatabase returns the account's live database of the family; another account's, another
// family's or a deleted one is not found.
func AccountDatabase(tx kv.Tx, account uint64, family string, id uint64) (Database, error) {
	d, err := GetDatabase(tx, id)
	if err == nil && (d.AccountID != account || d.Family != family || d.Deleted != nil) {
		err = fmt.Errorf("database %d: %w", id, store.ErrNotFound)
	}
	return d, err
}

// AccountDatabases lists the account's live databases of the family ("" for all), in id order.
func AccountDatabases(tx kv.Tx, account uint64, family string) ([]Database, error) {
	all, err := store.IndexedRecords[Database](tx, store.CloudAccountDatabases, store.Itob(account), store.CloudDatabases)
	out := all[:0]
	for _, d := range all {
		if d.Deleted == nil && (family == "" || d.Family == family) {
			out = append(out, d)
		}
	}
	return out, err
}

// AccountDatabaseRecords lists every database record of the account, deleted ones included (a
// deleted database stays billable for the hours it existed), in id order.
func AccountDatabaseRecords(tx kv.Tx, account uint64) ([]Database, error) {
	return store.IndexedRecords[Database](tx, store.CloudAccountDatabases, store.Itob(account), store.CloudDatabases)
}

// PutDatabase stores d and moves its key in the job's schedule to its next due time.
func PutDatabase(tx kv.Tx, d *Database) error {
	sched, err := store.Bucket(tx, store.CloudDatabaseSchedule)
	if err != nil {
		return err
	}
	if !d.Due.IsZero() {
		if err := sched.Delete(scheduleKey(d.Due, d.ID)); err != nil {
			return err
		}
	}
	d.Due = nextDue(*d)
	if !d.Due.IsZero() {
		if err := sched.Put(scheduleKey(d.Due, d.ID), []byte{}); err != nil {
			return err
		}
	}
	return store.Put(tx, store.CloudDatabases, store.Itob(d.ID), d)
}

// scheduleKey is a database's key in CloudDatabaseSchedule: due time, then id.
func scheduleKey(due time.Time, id uint64) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, 16), uint64(due.UnixNano()))
	return binary.BigEndian.AppendUint64(k, id)
}

// labelKey is a database label's child key in CloudDatabaseLabels (labels are unique per
// account, whatever their case).
func labelKey(label string) []byte { return []byte(strings.ToLower(label)) }

// LabelTaken reports whether a live database of the account has the label (any case).
func LabelTaken(tx kv.Tx, account uint64, label string) bool {
	b := tx.Bucket([]byte(store.CloudDatabaseLabels))
	return b != nil && b.Get(store.IndexKey(store.Itob(account), labelKey(label))) != nil
}

// RelabelDatabase moves a database's label in the account's label index from old to label.
func RelabelDatabase(tx kv.Tx, account uint64, old, label string) error {
	if strings.EqualFold(old, label) {
		return nil
	}
	acct := store.Itob(account)
	if err := store.IndexRemove(tx, store.CloudDatabaseLabels, acct, labelKey(old)); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudDatabaseLabels, acct, labelKey(label))
}

// RemoveDatabaseData removes what a deleted database leaves behind: its backups (with their
// dumps), its data (a connectable instance's), its label (free for a new database), its secrets
// and every grant on it. The record itself stays, for billing;
// cloudsvc marks it deleted.
func RemoveDatabaseData(tx kv.Tx, d Database) error {
	backups, err := store.IndexChildren(tx, store.CloudDatabaseBackupIndex, store.Itob(d.ID))
	if err != nil {
		return err
	}
	for _, k := range backups {
		if err := RemoveDatabaseBackup(tx, d.ID, store.Btoi(k)); err != nil {
			return err
		}
	}
	if err := store.IndexRemove(tx, store.CloudDatabaseLabels, store.Itob(d.AccountID), labelKey(d.Label)); err != nil {
		return err
	}
	if err := tx.Bucket([]byte(store.CloudDatabaseSecrets)).Delete(store.Itob(d.ID)); err != nil {
		return err
	}
	if err := deleteSQLData(tx, d.ID); err != nil {
		return err
	}
	return revokeDatabaseGrants(tx, d)
}

// ImportDatabase stores a database as it is, with its secrets, under the next id: for the
// fixtures and tests that need databases in a given state. It checks nothing.
func ImportDatabase(tx kv.Tx, d *Database, secrets DatabaseSecrets) error {
	id, err := store.NextID(tx, store.CloudDatabases)
	if err != nil {
		return err
	}
	d.ID, d.Due = id, time.Time{}
	if d.AllowList == nil {
		d.AllowList = []string{}
	}
	acct := store.Itob(d.AccountID)
	if err := store.IndexAdd(tx, store.CloudAccountDatabases, acct, store.Itob(id)); err != nil {
		return err
	}
	if err := store.IndexAdd(tx, store.CloudDatabaseLabels, acct, labelKey(d.Label)); err != nil {
		return err
	}
	if err := PutDatabase(tx, d); err != nil {
		return err
	}
	return store.Put(tx, store.CloudDatabaseSecrets, store.Itob(id), secrets)
}
