package buildstore

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Blobs osc uploads with PUT ?rev=repository belong to no revision until its commitfilelist
// names them, and a commit that never comes (osc killed, a network error) would leave them
// forever. Each such new blob is noted as pending with the time it came; a commit that takes
// it clears the note, and SweepPending removes the blobs still pending after a grace period.
// Only blobs that were new when uploaded are noted, so a sweep never removes content that a
// revision, an upload revision or an expansion holds.

// PendingGrace is how long an uploaded blob may wait for its commit: osc commits within
// seconds; a day leaves room for a slow or resumed commit.
const PendingGrace = 24 * time.Hour

// PutPendingBlob stores an uploaded blob that no revision holds yet.
func PutPendingBlob(tx kv.Tx, data []byte, now time.Time) (string, error) {
	sum := MD5Hex(data)
	if HasBlob(tx, sum) {
		return sum, nil
	}
	if _, err := putBlob(tx, data); err != nil {
		return "", err
	}
	return sum, store.Put(tx, store.BuildPendingBlobs, []byte(sum), now.Unix())
}

// clearPending drops the pending notes of the files a commit takes.
func clearPending(tx kv.Tx, files []FileEntry) error {
	b, err := store.Bucket(tx, store.BuildPendingBlobs)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := b.Delete([]byte(f.MD5)); err != nil {
			return err
		}
	}
	return nil
}

// ExpiredPending lists the pending blobs older than the grace period at now.
func ExpiredPending(tx kv.Tx, now time.Time) ([]string, error) {
	var out []string
	cutoff := now.Add(-PendingGrace).Unix()
	err := store.Each(tx, store.BuildPendingBlobs, nil, func(k []byte, since int64) (bool, error) {
		if since < cutoff {
			out = append(out, string(k))
		}
		return true, nil
	})
	return out, err
}

// SweepPending removes the blobs ExpiredPending named that are still pending.
func SweepPending(tx kv.Tx, sums []string, now time.Time) error {
	pending, err := store.Bucket(tx, store.BuildPendingBlobs)
	if err != nil {
		return err
	}
	blobs, err := store.Bucket(tx, store.BuildBlobs)
	if err != nil {
		return err
	}
	cutoff := now.Add(-PendingGrace).Unix()
	for _, sum := range sums {
		since, err := store.Get[int64](tx, store.BuildPendingBlobs, []byte(sum))
		if err != nil || since >= cutoff {
			continue // committed (note cleared) or uploaded again meanwhile
		}
		if err := blobs.Delete([]byte(sum)); err != nil {
			return err
		}
		if err := pending.Delete([]byte(sum)); err != nil {
			return err
		}
	}
	return nil
}
