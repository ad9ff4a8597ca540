package cloudstore

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The databases job (cloudsvc's DatabaseJob) has work on a database when its transient status
// ends, at each 00:00 UTC while it is active (its auto backup) and when its oldest auto backup
// expires. Each database's next due time is its key in store.CloudDatabaseSchedule, which
// PutDatabase keeps up to date, so finding out whether anything is due is one cursor read and an
// idle job writes nothing.

// AutoBackupRetention is how long an auto backup is kept (the seed's 7 days).
const AutoBackupRetention = 7 * 24 * time.Hour

// DatabasesDue reports, reading only, whether any database has work due at now.
func DatabasesDue(tx kv.Tx, now time.Time) (bool, error) {
	b, err := store.Bucket(tx, store.CloudDatabaseSchedule)
	if err != nil {
		return false, err
	}
	k, _ := b.Cursor().First()
	return k != nil && !now.Before(scheduleTime(k)), nil
}

// DueDatabases lists the ids of the databases with work due at now, in due order.
func DueDatabases(tx kv.Tx, now time.Time) ([]uint64, error) {
	b, err := store.Bucket(tx, store.CloudDatabaseSchedule)
	if err != nil {
		return nil, err
	}
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.First(); k != nil && !now.Before(scheduleTime(k)); k, _ = c.Next() {
		ids = append(ids, binary.BigEndian.Uint64(k[8:]))
	}
	return ids, nil
}

// AutoSince is the instant after which the database's next auto backup is due: its last one,
// or when it became active.
func AutoSince(d Database) time.Time {
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
		consider(Midnight(AutoSince(d)).AddDate(0, 0, 1))
	}
	if !d.OldestAutoBackup.IsZero() {
		consider(d.OldestAutoBackup.Add(AutoBackupRetention))
	}
	return due
}

// Midnight is 00:00 UTC of t's day.
func Midnight(t time.Time) time.Time {
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
