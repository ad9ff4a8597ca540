package buildstore

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// StatusMessage is one of the instance's status messages (the service's status_messages row):
// a text with a severity, sent by User. A deleted one keeps its record with Deleted set, as the
// service only stamped deleted_at: it leaves the list but is still found by its id.
type StatusMessage struct {
	ID       uint64     `json:"id"`
	User     string     `json:"user"`
	Text     string     `json:"text"`
	Severity int        `json:"severity"`
	Created  time.Time  `json:"created"`
	Deleted  *time.Time `json:"deleted,omitempty"`
}

// NewStatusMessageID takes the next status message number.
func NewStatusMessageID(tx kv.Tx) (uint64, error) {
	return store.NextID(tx, store.BuildStatusMessages)
}

// GetStatusMessage reads status message id, deleted or not; the not-found message is the
// service's own.
func GetStatusMessage(tx kv.Tx, id uint64) (StatusMessage, error) {
	m, err := store.Get[StatusMessage](tx, store.BuildStatusMessages, store.Itob(id))
	if err != nil {
		return m, store.NotFoundf("Couldn't find StatusMessage with 'id'=%d", id)
	}
	return m, nil
}

// PutStatusMessage stores m (its ID set).
func PutStatusMessage(tx kv.Tx, m StatusMessage) error {
	return store.Put(tx, store.BuildStatusMessages, store.Itob(m.ID), m)
}

// LiveStatusMessages lists the status messages not deleted, newest (highest id) first, at most
// limit of them (limit < 0: all).
func LiveStatusMessages(tx kv.Tx, limit int) ([]StatusMessage, error) {
	b, err := store.Bucket(tx, store.BuildStatusMessages)
	if err != nil {
		return nil, err
	}
	var out []StatusMessage
	c := b.Cursor()
	for k, v := c.Last(); k != nil && (limit < 0 || len(out) < limit); k, v = c.Prev() {
		var m StatusMessage
		if err := json.Unmarshal(v, &m); err != nil {
			return nil, fmt.Errorf("%s %d: decode: %w", store.BuildStatusMessages, store.Btoi(k), err)
		}
		if m.Deleted == nil {
			out = append(out, m)
		}
	}
	return out, nil
}

// EachStatusMessage calls fn with every status message, deleted ones too, oldest first.
func EachStatusMessage(tx kv.Tx, fn func(StatusMessage) error) error {
	return store.Each(tx, store.BuildStatusMessages, nil, func(_ []byte, m StatusMessage) (bool, error) { return true, fn(m) })
}
