package store

import (
	"bytes"
	"fmt"

	"github.com/pocketforge/pocketforge/store/kv"
)

// Keys of BucketMeta.
var (
	metaApp    = []byte("app")            // always appMarker: tells our files from other bbolt files
	metaSchema = []byte("schema_version") // big-endian uint64
	appMarker  = []byte("pocketforge")
)

// migration moves a data file from schema version to-1 to version to. It runs inside the open
// transaction, together with the ones before and after it, so a file is migrated entirely or not
// at all.
type migration struct {
	name  string
	apply func(tx kv.Tx) error
}

// migrations lists every migration in order; migrations[i] moves a file from version i+1 to i+2.
// Append only; never edit one that has shipped. The current schema version is derived from it.
var migrations = []migration{
	// 2: who holds which role in which project and package (issue 15's request collection asks
	// it for every "maintainer" and "reviewer" role); filled from the stored metas.
	{"build/role_index", rebuildIndex(BuildRoleIndex)},
	// 3: the request index keeps the values OBS compares ignoring case (creators, states,
	// projects, packages, reviewers) in lower case, so /search/request finds them in any case,
	// and indexes who changed the state and who wrote the history (osc's `rq list -U`) (issue 16).
	{"build/request_index folded", rebuildIndex(BuildRequestIndex)},
	// 4: the issues that packages' sources, patchinfos and attributes name, and which package
	// names which (issue 16's /search/issue and ?view=issues); filled from the newest revisions.
	{"build/issue_index", rebuildIndex(BuildIssueIndex)},
	// 5: the published RPMs by binary name (issue 18's /api/search/binary, osc's `bse`: a
	// published binary search for one name reads that name's files, not every published file);
	// filled from the published trees.
	{"build/farm_published_names", rebuildIndex(BuildFarmPublishedNames)},
}

// SchemaVersion returns the schema version this build writes. A snapshot carries the version of
// the file it came from; an older one is migrated when opened or restored, a newer one refused.
func SchemaVersion() uint64 { return uint64(len(migrations)) + 1 }

// prepare makes tx's file a current pocketforge data file: marks a new file, refuses a foreign or
// newer one, migrates an older one, and creates the registered buckets.
func prepare(tx kv.Tx, path string) error {
	meta := tx.Bucket([]byte(BucketMeta))
	if meta == nil {
		if hasBuckets(tx) {
			return fmt.Errorf("data file %s: %w (it has data but no pocketforge metadata)", path, ErrNotPocketforge)
		}
		var err error
		if meta, err = tx.CreateBucket([]byte(BucketMeta)); err != nil {
			return err
		}
		if err := meta.Put(metaApp, appMarker); err != nil {
			return err
		}
		if err := meta.Put(metaSchema, Itob(SchemaVersion())); err != nil {
			return err
		}
	}
	version, err := fileVersion(tx, path)
	if err != nil {
		return err
	}
	if err := migrate(tx, version); err != nil {
		return fmt.Errorf("data file %s: %w", path, err)
	}
	return createBuckets(tx)
}

// fileVersion reads and checks the schema version of tx's file.
func fileVersion(tx kv.Tx, path string) (uint64, error) {
	meta := tx.Bucket([]byte(BucketMeta))
	if meta == nil || !bytes.Equal(meta.Get(metaApp), appMarker) {
		return 0, fmt.Errorf("%s: %w", path, ErrNotPocketforge)
	}
	raw := meta.Get(metaSchema)
	if len(raw) != 8 {
		return 0, fmt.Errorf("%s: %w (schema version missing)", path, ErrNotPocketforge)
	}
	v := Btoi(raw)
	if v > SchemaVersion() {
		return 0, fmt.Errorf("%s: %w: version %d, this pocketforge reads up to %d; upgrade pocketforge or use a snapshot of an older release",
			path, ErrNewerSchema, v, SchemaVersion())
	}
	return v, nil
}

// migrate runs every migration after version from and records the new version.
func migrate(tx kv.Tx, from uint64) error {
	for v := from; v < SchemaVersion(); v++ {
		m := migrations[v-1]
		if err := m.apply(tx); err != nil {
			return fmt.Errorf("migration %d (%s): %w", v+1, m.name, err)
		}
	}
	return tx.Bucket([]byte(BucketMeta)).Put(metaSchema, Itob(SchemaVersion()))
}

// createBuckets creates every registered bucket that is missing.
func createBuckets(tx kv.Tx) error {
	for _, b := range registry {
		if _, err := tx.CreateBucketIfNotExists([]byte(b.name)); err != nil {
			return fmt.Errorf("bucket %s: %w", b.name, err)
		}
	}
	return nil
}

// hasBuckets reports whether tx's file holds any top-level bucket.
func hasBuckets(tx kv.Tx) bool {
	c := tx.Cursor()
	k, _ := c.First()
	return k != nil
}
