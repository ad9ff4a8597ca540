// Package outbox keeps the e-mails the APIs send (welcome messages, password-setup links, billing
// notices…). Nothing leaves the appliance: a user reads them at /_appliance/outbox. They live in
// store.BucketOutbox under big-endian sequence keys, oldest first.
package outbox

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Mail is one sent e-mail.
type Mail struct {
	ID      uint64    `json:"id"`
	Time    time.Time `json:"time"`
	API     string    `json:"api"` // which API sent it: cloud, build, …
	From    string    `json:"from"`
	To      []string  `json:"to"`
	Subject string    `json:"subject"`
	Body    string    `json:"body"`
}

// Send stores m, giving it the next id; m.Time is the caller's clock reading.
func Send(tx kv.Tx, m *Mail) error {
	id, err := store.NextID(tx, store.BucketOutbox)
	if err != nil {
		return err
	}
	m.ID = id
	return store.Put(tx, store.BucketOutbox, store.Itob(id), m)
}

// List returns the mails sent to address (all when empty), newest first, at most limit (all
// when 0).
func List(tx kv.Tx, address string, limit int) ([]Mail, error) {
	b, err := store.Bucket(tx, store.BucketOutbox)
	if err != nil {
		return nil, err
	}
	out := []Mail{}
	c := b.Cursor()
	for k, _ := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, _ = c.Prev() {
		m, err := store.Get[Mail](tx, store.BucketOutbox, k)
		if err != nil {
			return nil, err
		}
		if address == "" || addressed(m, address) {
			out = append(out, m)
		}
	}
	return out, nil
}

func addressed(m Mail, address string) bool {
	for _, to := range m.To {
		if to == address {
			return true
		}
	}
	return false
}

// Clear deletes every mail (the sequence goes on, so ids are never reused).
func Clear(tx kv.Tx) error {
	b, err := store.Bucket(tx, store.BucketOutbox)
	if err != nil {
		return err
	}
	var keys [][]byte
	if err := b.ForEach(func(k, _ []byte) error { keys = append(keys, append([]byte(nil), k...)); return nil }); err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
