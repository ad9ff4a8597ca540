package store

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"github.com/pocketforge/pocketforge/store/kv"
)

// Viewer is anything a whole data set can be read from: an open DB, or an Offline file.
type Viewer interface {
	View(fn func(tx kv.Tx) error) error
}

// CopyAll replaces everything db holds — the appliance's own state and the schema record
// included, unlike a restore — with src's content, in one transaction, then migrates it to this
// build's schema: what `pocketforge migrate` does between a data file and a database. A source
// of a newer schema is refused, db untouched.
func (db *DB) CopyAll(src Viewer) (RestoreInfo, error) {
	var info RestoreInfo
	err := src.View(func(stx kv.Tx) error {
		v, err := fileVersion(stx, "source")
		if err != nil {
			return err
		}
		info.SchemaVersion = v
		return db.Exclusive(func(tx kv.Tx) error {
			var names [][]byte
			if err := tx.ForEach(func(name []byte, _ kv.Bucket) error { names = append(names, bytes.Clone(name)); return nil }); err != nil {
				return err
			}
			for _, n := range names {
				if err := tx.DeleteBucket(n); err != nil {
					return err
				}
			}
			if info.Keys, err = copyEverything(tx, stx); err != nil {
				return err
			}
			if err := migrate(tx, v); err != nil {
				return err
			}
			return createBuckets(tx)
		})
	})
	return info, err
}

// copyEverything copies every top-level bucket of src into dst, where none of them exists yet,
// and returns the number of values copied: a whole copy, the schema record and the appliance's
// own state included (copyData is the restore's copy, which keeps those).
func copyEverything(dst, src kv.Tx) (int, error) {
	keys := 0
	err := src.ForEach(func(name []byte, sb kv.Bucket) error {
		b, err := dst.CreateBucket(name)
		if err != nil {
			return fmt.Errorf("copy %s: %w", name, err)
		}
		n, err := copyBucket(b, sb)
		keys += n
		return err
	})
	return keys, err
}

// Empty reports whether db holds no data: no value in any bucket but the schema record.
func (db *DB) Empty() (bool, error) {
	empty := true
	err := db.View(func(tx kv.Tx) error {
		return tx.ForEach(func(name []byte, b kv.Bucket) error {
			if string(name) != BucketMeta && b.KeyN() > 0 {
				empty = false
			}
			return nil
		})
	})
	return empty, err
}

// ContentDigest is the SHA-256 of db's whole content (every bucket's name, sequence, keys and
// values; see contentDigest), in hex, and the number of values: equal for two stores that hold
// the same data whatever their engines and pages.
func (db *DB) ContentDigest() (string, int, error) { return ContentDigest(db) }

// ContentDigest is DB.ContentDigest of any Viewer (an Offline file too).
func ContentDigest(v Viewer) (string, int, error) {
	var sum [32]byte
	var keys int
	err := v.View(func(tx kv.Tx) (err error) { sum, keys, err = contentDigest(tx); return })
	return hex.EncodeToString(sum[:]), keys, err
}
