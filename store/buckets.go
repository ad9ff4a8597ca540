package store

// The one registry of bucket names. Every top-level bucket of the data file is declared here, so
// a reader of this file sees the whole layout; domains (store/cloud, store/build, …) add their
// names below and keep their key layout next to their accessors.
const (
	// BucketMeta holds the file's identity and schema version (see migrate.go).
	BucketMeta = "meta"
	// BucketAppliance holds the running appliance's own state: the hashed bootstrap credentials
	// and the dev-clock offset. It survives Reset and Restore, so restoring a snapshot from
	// another machine never locks the operator out of /_appliance.
	BucketAppliance = "appliance"
	// BucketFixtures records which demo fixture sets were applied and whether the file wants them.
	BucketFixtures = "fixtures"
	// BucketOutbox holds the e-mails the APIs send, keyed by big-endian sequence.
	BucketOutbox = "outbox"
)

// bucketSpec declares one top-level bucket.
type bucketSpec struct {
	name string
	// keep marks appliance state that Reset and Restore leave alone.
	keep bool
}

// registry lists every top-level bucket; Open creates the missing ones.
var registry = []bucketSpec{
	{name: BucketMeta, keep: true},
	{name: BucketAppliance, keep: true},
	{name: BucketFixtures},
	{name: BucketOutbox},
}

// kept reports whether Reset and Restore leave the named bucket alone.
func kept(name string) bool {
	for _, b := range registry {
		if b.name == name {
			return b.keep
		}
	}
	return false
}
