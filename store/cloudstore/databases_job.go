package cloudstore

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// The databases job (the API runs it every second) does what the clock makes due, in due order:
//
//   - a transient status whose time is up ends (provisioning, updating, backing_up → active;
//     restoring → active or failed, the failure recorded as a database_failed event);
//   - an active database gets its auto backup for each 00:00 UTC passed since its last one.
//     After a jump of the clock over several days it gets one per missed day, each dated at its
//     own midnight, but never more than the seven the retention keeps: the restore points "for
//     each day of the past week" the real service promises;
//   - auto backups older than AutoBackupRetention are deleted.
//
// Each database's next due time is its key in store.CloudDatabaseSchedule, so finding out
// whether anything is due is one cursor read and an idle job writes nothing.

// DatabasesDue reports, reading only, whether RunDatabaseJob has anything to do at now.
func DatabasesDue(tx *bbolt.Tx, now time.Time) (bool, error) {
	b, err := store.Bucket(tx, store.CloudDatabaseSchedule)
	if err != nil {
		return false, err
	}
	k, _ := b.Cursor().First()
	return k != nil && !now.Before(scheduleTime(k)), nil
}

// RunDatabaseJob does the work due at now on every database. Running it again at the same
// instant changes nothing.
func RunDatabaseJob(tx *bbolt.Tx, now time.Time) error {
	b, err := store.Bucket(tx, store.CloudDatabaseSchedule)
	if err != nil {
		return err
	}
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.First(); k != nil && !now.Before(scheduleTime(k)); k, _ = c.Next() {
		ids = append(ids, binary.BigEndian.Uint64(k[8:]))
	}
	for _, id := range ids {
		d, err := GetDatabase(tx, id)
		if err != nil {
			return err
		}
		if err := advanceDatabase(tx, d, now); err != nil {
			return fmt.Errorf("database %d: %w", id, err)
		}
	}
	return nil
}

// advanceDatabase settles d at now, takes its missed auto backups, prunes old ones and stores
// it (with its next due time).
func advanceDatabase(tx *bbolt.Tx, d Database, now time.Time) error {
	d, err := settle(tx, d, now)
	if err != nil {
		return err
	}
	if d.Status == DBActive && d.Next == "" {
		if err := takeAutoBackups(tx, &d, now); err != nil {
			return err
		}
	}
	if !d.OldestAutoBackup.IsZero() && !now.Before(d.OldestAutoBackup.Add(AutoBackupRetention)) {
		return pruneAutoBackups(tx, d, now)
	}
	return putDatabase(tx, &d)
}

// settle is At for writers: it also records the database_failed event of a restore that ended
// in failure, whichever write is the first to see it end.
func settle(tx *bbolt.Tx, d Database, now time.Time) (Database, error) {
	failed := d.Op == OpRestore && d.Next == DBFailed && !now.Before(d.Until)
	d = d.At(now)
	if !failed {
		return d, nil
	}
	return d, RecordEvent(tx, &Event{AccountID: d.AccountID, Action: "database_failed", Created: d.Updated, Entity: d.EventEntity(),
		Message: "Restoring a backup taken before the last credentials reset failed"})
}

// takeAutoBackups adds the auto backups of the midnights since the last one (or since the
// database became active), at most the seven retention keeps.
func takeAutoBackups(tx *bbolt.Tx, d *Database, now time.Time) error {
	since := autoSince(*d)
	latest := midnight(now)
	for m := latest.AddDate(0, 0, -6); !m.After(latest); m = m.AddDate(0, 0, 1) {
		if !m.After(since) {
			continue
		}
		b := DatabaseBackup{DatabaseID: d.ID, Type: BackupAuto, Label: AutoBackupLabel(d.ID, m), Created: m, Available: m, Generation: d.DataGeneration}
		if err := addBackup(tx, &b); err != nil {
			return err
		}
		d.LastAutoBackup = m
		if d.OldestAutoBackup.IsZero() || m.Before(d.OldestAutoBackup) {
			d.OldestAutoBackup = m
		}
	}
	return nil
}

// pruneAutoBackups deletes the database's auto backups past retention and stores it.
func pruneAutoBackups(tx *bbolt.Tx, d Database, now time.Time) error {
	all, err := store.IndexedRecords[DatabaseBackup](tx, store.CloudDatabaseBackupIndex, store.Itob(d.ID), store.CloudDatabaseBackups)
	if err != nil {
		return err
	}
	for _, b := range all {
		if b.Type == BackupAuto && !now.Before(b.Created.Add(AutoBackupRetention)) {
			if err := deleteBackup(tx, d.ID, b.ID); err != nil {
				return err
			}
		}
	}
	return refreshOldestAuto(tx, d)
}

// autoSince is the instant after which the database's next auto backup is due: its last one,
// or when it became active.
func autoSince(d Database) time.Time {
	since := d.Activated
	if since.IsZero() {
		since = d.Created
	}
	if d.LastAutoBackup.After(since) {
		since = d.LastAutoBackup
	}
	return since
}

// nextDue is when the job next has work on d (zero: never): the end of its transient status,
// the midnight of its next auto backup (while active) or the expiry of its oldest auto backup.
func nextDue(d Database) time.Time {
	if d.Deleted != nil {
		return time.Time{}
	}
	var due time.Time
	consider := func(t time.Time) {
		if due.IsZero() || t.Before(due) {
			due = t
		}
	}
	if d.Next != "" {
		consider(d.Until)
	} else if d.Status == DBActive {
		consider(midnight(autoSince(d)).AddDate(0, 0, 1))
	}
	if !d.OldestAutoBackup.IsZero() {
		consider(d.OldestAutoBackup.Add(AutoBackupRetention))
	}
	return due
}

// midnight is 00:00 UTC of t's day.
func midnight(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// scheduleTime reads the due time of a CloudDatabaseSchedule key.
func scheduleTime(k []byte) time.Time {
	return time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))).UTC()
}

// AutoBackupLabel names an auto backup as the real service does ("Scheduled - 02/04/22 00:00
// UTC-XcCRmI"), the suffix derived from the database and day so a retried job names it alike.
func AutoBackupLabel(database uint64, m time.Time) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%d/%d", database, m.Unix()))
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	suffix := make([]byte, 6)
	for i := range suffix {
		suffix[i] = letters[int(sum[i])%len(letters)]
	}
	return "Scheduled - " + m.Format("01/02/06 15:04") + " UTC-" + string(suffix)
}
