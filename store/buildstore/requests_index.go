package buildstore

import (
	"bytes"
	"encoding/binary"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Reads of the request index beyond RequestIDs, for the request collection: a prefix that
// stops short of a full value, and a point lookup of one id.

// RequestIDsUnder lists the ids of every index key that starts with prefix, whatever lies between
// the prefix and the id: IndexKey(IndexReviewPackage, project) gathers the reviews by any package
// of project. In key order, so an id may repeat and the list is not sorted.
func RequestIDsUnder(tx kv.Tx, prefix []byte) ([]uint64, error) {
	b, err := store.Bucket(tx, store.BuildRequestIndex)
	if err != nil {
		return nil, err
	}
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) >= len(prefix)+8 {
			ids = append(ids, binary.BigEndian.Uint64(k[len(k)-8:]))
		}
	}
	return ids, nil
}

// RequestIndexed reports whether request id is indexed under key (an IndexKey): one seek, so
// a candidate is checked against a state or an action type without reading every id of it.
// (A seek, not a Get: bbolt's Get answers nil for the index's empty values.)
func RequestIndexed(tx kv.Tx, key []byte, id uint64) bool {
	b := tx.Bucket([]byte(store.BuildRequestIndex))
	if b == nil {
		return false
	}
	want := binary.BigEndian.AppendUint64(append(make([]byte, 0, len(key)+8), key...), id)
	k, _ := b.Cursor().Seek(want)
	return bytes.Equal(k, want)
}
