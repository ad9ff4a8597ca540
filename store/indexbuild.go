package store

import (
	"errors"
	"fmt"
	"sync"

	"github.com/pocketforge/pocketforge/store/kv"
)

// A derived index bucket that appears in a new schema version has to be filled for the data
// files written before it. Its key layout belongs to the domain store package that keeps it in
// step with its records (store/buildstore, …), which this package cannot import; so that package
// registers the index's builder here — or, where what fills the index is a rule and not a
// record (the issue index: which tracker references a revision's files hold), the domain that
// owns the rule does (buildsvc registers the issue scan) — and the migration that introduces the
// bucket names it (rebuildIndex). Every binary and test that opens a data file links the domain store packages
// through the domains, so a builder is missing only from a program that could not read the index
// anyway — and then the migration fails, leaving the file as it was, instead of leaving an empty
// index behind.

var (
	buildersMu    sync.Mutex
	indexBuilders = map[string]func(tx kv.Tx) error{}
)

// RegisterIndexBuilder names the function that fills the index bucket from the records it is
// derived from; the bucket is empty when it runs. Called from an init function of the package
// that owns the bucket's key layout.
func RegisterIndexBuilder(bucket string, build func(tx kv.Tx) error) {
	buildersMu.Lock()
	defer buildersMu.Unlock()
	indexBuilders[bucket] = build
}

// RebuildIndex empties the index bucket and refills it with its registered builder, in tx:
// the migration step, and a repair for an index that went out of step.
func RebuildIndex(tx kv.Tx, bucket string) error {
	buildersMu.Lock()
	build := indexBuilders[bucket]
	buildersMu.Unlock()
	if build == nil {
		return fmt.Errorf("no builder is registered for the index %s", bucket)
	}
	if err := tx.DeleteBucket([]byte(bucket)); err != nil && !errors.Is(err, kv.ErrBucketNotFound) {
		return err
	}
	if _, err := tx.CreateBucket([]byte(bucket)); err != nil {
		return err
	}
	return build(tx)
}

// rebuildIndex is the migration that introduces an index bucket: it fills it from the records.
func rebuildIndex(bucket string) func(tx kv.Tx) error {
	return func(tx kv.Tx) error { return RebuildIndex(tx, bucket) }
}
