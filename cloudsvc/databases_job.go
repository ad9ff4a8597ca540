package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The databases job (the API runs it every second) does what the clock makes due, in due order:
//
//   - a transient status whose time is up ends (provisioning, updating, backing_up → active;
//     restoring → active or failed, the failure recorded as a database_failed event);
//   - an active database gets its auto backup for each 00:00 UTC passed since its last one.
//     After a jump of the clock over several days it gets one per missed day, each dated at its
//     own midnight, but never more than the seven the retention keeps: the restore points "for
//     each day of the past week" the real service promises;
//   - auto backups older than cloudstore.AutoBackupRetention are deleted.
//
// Which databases are due is read from the store's schedule index (cloudstore.DueDatabases),
// which PutDatabase keeps in step with each database.

// runDatabaseJob does the work due at now on every database. Running it again at the same
// instant changes nothing.
func runDatabaseJob(tx kv.Tx, now time.Time) error {
	ids, err := cloudstore.DueDatabases(tx, now)
	if err != nil {
		return err
	}
	for _, id := range ids {
		d, err := cloudstore.GetDatabase(tx, id)
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
func advanceDatabase(tx kv.Tx, d cloudstore.Database, now time.Time) error {
	d, err := settle(tx, d, now)
	if err != nil {
		return err
	}
	if d.Status == cloudstore.DBActive && d.Next == "" {
		if err := takeAutoBackups(tx, &d, now); err != nil {
			return err
		}
	}
	if !d.OldestAutoBackup.IsZero() && !now.Before(d.OldestAutoBackup.Add(cloudstore.AutoBackupRetention)) {
		return pruneAutoBackups(tx, d, now)
	}
	return cloudstore.PutDatabase(tx, &d)
}

// settleActive settles d for a write that needs it active: the problems start with the refusal
// of any other status, so the write can add its own and answer them all at once.
func settleActive(tx kv.Tx, d cloudstore.Database, now time.Time) (cloudstore.Database, store.Problems, error) {
	d, err := settle(tx, d, now)
	if err != nil {
		return d, nil, err
	}
	var p store.Problems
	if err := require(d, cloudstore.DBActive); err != nil {
		p = append(p, err.(store.Problems)...)
	}
	return d, p, nil
}

// settle is At for writers: it also records the database_failed event of a restore that ended
// in failure, whichever write is the first to see it end.
func settle(tx kv.Tx, d cloudstore.Database, now time.Time) (cloudstore.Database, error) {
	failed := d.Op == cloudstore.OpRestore && d.Next == cloudstore.DBFailed && !now.Before(d.Until)
	d = d.At(now)
	if !failed {
		return d, nil
	}
	return d, cloudstore.RecordEvent(tx, &cloudstore.Event{AccountID: d.AccountID, Action: "database_failed", Created: d.Updated, Entity: d.EventEntity(),
		Message: "Restoring a backup taken before the last credentials reset failed"})
}

// takeAutoBackups adds the auto backups of the midnights since the last one (or since the
// database became active), at most the seven retention keeps. A connectable instance's auto
// backups hold its data as the job finds it: after a jump of the clock over several days, the
// missed days' backups all hold today's data (the appliance did not run those days).
func takeAutoBackups(tx kv.Tx, d *cloudstore.Database, now time.Time) error {
	since := cloudstore.AutoSince(*d)
	latest := cloudstore.Midnight(now)
	for m := latest.AddDate(0, 0, -6); !m.After(latest); m = m.AddDate(0, 0, 1) {
		if !m.After(since) {
			continue
		}
		b := cloudstore.DatabaseBackup{DatabaseID: d.ID, Type: cloudstore.BackupAuto, Label: cloudstore.AutoBackupLabel(d.ID, m), Created: m, Available: m, Generation: d.DataGeneration}
		if err := addBackup(tx, *d, &b); err != nil {
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
func pruneAutoBackups(tx kv.Tx, d cloudstore.Database, now time.Time) error {
	all, err := cloudstore.DatabaseBackupList(tx, d.ID)
	if err != nil {
		return err
	}
	for _, b := range all {
		if b.Type == cloudstore.BackupAuto && !now.Before(b.Created.Add(cloudstore.AutoBackupRetention)) {
			if err := cloudstore.RemoveDatabaseBackup(tx, d.ID, b.ID); err != nil {
				return err
			}
		}
	}
	return cloudstore.RefreshOldestAuto(tx, d)
}

// DegradeDatabase marks a database degraded (or failed): the fault a demo or a test injects in
// its own transaction, since the API has no endpoint for it. It stays so until deleted.
func DegradeDatabase(tx kv.Tx, id uint64, status string, now time.Time) error {
	if status != cloudstore.DBDegraded && status != cloudstore.DBFailed {
		return fmt.Errorf("status %q: %w", status, store.ErrInvalid)
	}
	d, err := cloudstore.GetDatabase(tx, id)
	if err != nil {
		return err
	}
	if d.Deleted != nil {
		return fmt.Errorf("database %d: %w", id, store.ErrNotFound)
	}
	if d, err = settle(tx, d, now); err != nil {
		return err
	}
	d.Status, d.Next, d.Op, d.Until, d.Updated = status, "", "", time.Time{}, now
	return cloudstore.PutDatabase(tx, &d)
}
