package buildstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// What a message is on (the first part of its BuildMessageIndex key).
const (
	MessageOnProject = "project"
	MessageOnPackage = "package"
)

// Message is a note kept on a project (Package "") or on a package (the service's messages
// row): its text, who wrote it, a severity, and the two flags the writer set — send_mail (mail
// it to the object's people) and private (meant for them only).
type Message struct {
	ID       uint64    `json:"id"`
	Project  string    `json:"project"`
	Package  string    `json:"package,omitempty"`
	User     string    `json:"user"`
	Text     string    `json:"text"`
	Severity int       `json:"severity"`
	SendMail bool      `json:"send_mail,omitempty"`
	Private  bool      `json:"private,omitempty"`
	Created  time.Time `json:"created"`
}

// messageObjectPrefix is the BuildMessageIndex prefix of one object's messages: kind 0x00
// project 0x00 (package 0x00). A project's prefix never covers its packages' messages (their
// kind differs); messageObjectPrefix(MessageOnPackage, project) covers all of a project's
// packages.
func messageObjectPrefix(kind, project string, pkg ...string) []byte {
	return IndexKey(kind, append([]string{project}, pkg...)...)
}

// messagesOf is the index prefix of the messages on project (pkg "") or package project/pkg.
func messagesOf(project, pkg string) []byte {
	if pkg != "" {
		return messageObjectPrefix(MessageOnPackage, project, pkg)
	}
	return messageObjectPrefix(MessageOnProject, project)
}

// indexKey is m's BuildMessageIndex key: its object's prefix, then its id.
func (m Message) indexKey() []byte {
	return binary.BigEndian.AppendUint64(messagesOf(m.Project, m.Package), m.ID)
}

// NewMessageID takes the next message number.
func NewMessageID(tx kv.Tx) (uint64, error) { return store.NextID(tx, store.BuildMessages) }

// GetMessage reads message id; the not-found message is the service's own.
func GetMessage(tx kv.Tx, id uint64) (Message, error) {
	m, err := store.Get[Message](tx, store.BuildMessages, store.Itob(id))
	if err != nil {
		return m, store.NotFoundf("Couldn't find Message with 'id'=%d", id)
	}
	return m, nil
}

// PutMessage stores m (its ID set) with its index entry, in the same transaction; a message
// never moves to another object.
func PutMessage(tx kv.Tx, m Message) error {
	idx, err := store.Bucket(tx, store.BuildMessageIndex)
	if err != nil {
		return err
	}
	if err := idx.Put(m.indexKey(), nil); err != nil {
		return err
	}
	return store.Put(tx, store.BuildMessages, store.Itob(m.ID), m)
}

// DeleteMessage removes m (as read) with its index entry.
func DeleteMessage(tx kv.Tx, m Message) error {
	idx, err := store.Bucket(tx, store.BuildMessageIndex)
	if err != nil {
		return err
	}
	if err := idx.Delete(m.indexKey()); err != nil {
		return err
	}
	return store.Delete(tx, store.BuildMessages, store.Itob(m.ID))
}

// MessagesOn lists the messages on project (pkg "") or package project/pkg, newest (highest id)
// first, at most limit of them (limit < 0: all): a backward walk of the object's index entries.
func MessagesOn(tx kv.Tx, project, pkg string, limit int) ([]Message, error) {
	idx, err := store.Bucket(tx, store.BuildMessageIndex)
	if err != nil {
		return nil, err
	}
	prefix := messagesOf(project, pkg)
	// The prefix ends in 0x00: every key under it sorts before the prefix with that byte 0x01.
	end := append(bytes.Clone(prefix[:len(prefix)-1]), 1)
	c := idx.Cursor()
	k, _ := c.Seek(end)
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	var out []Message
	for ; k != nil && bytes.HasPrefix(k, prefix) && (limit < 0 || len(out) < limit); k, _ = c.Prev() {
		m, err := store.Get[Message](tx, store.BuildMessages, k[len(k)-8:])
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// LatestMessages lists the messages keep accepts, on any object, newest (highest id) first, at
// most limit of them (limit < 0: all).
func LatestMessages(tx kv.Tx, limit int, keep func(Message) bool) ([]Message, error) {
	b, err := store.Bucket(tx, store.BuildMessages)
	if err != nil {
		return nil, err
	}
	var out []Message
	c := b.Cursor()
	for k, v := c.Last(); k != nil && (limit < 0 || len(out) < limit); k, v = c.Prev() {
		var m Message
		if err := json.Unmarshal(v, &m); err != nil {
			return nil, fmt.Errorf("%s %d: decode: %w", store.BuildMessages, store.Btoi(k), err)
		}
		if keep(m) {
			out = append(out, m)
		}
	}
	return out, nil
}

// deleteMessagesUnder removes every message whose index key starts with prefix, with the index
// entries.
func deleteMessagesUnder(tx kv.Tx, prefix []byte) error {
	bs, err := store.Buckets(tx, store.BuildMessages, store.BuildMessageIndex)
	if err != nil {
		return err
	}
	c := bs[1].Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if err := bs[0].Delete(k[len(k)-8:]); err != nil {
			return err
		}
	}
	return store.DeletePrefix(tx, store.BuildMessageIndex, prefix)
}

// deletePackageMessages removes the messages on a package: they die with it, as the service
// destroyed an object's messages with the object; an undelete brings the package back without.
func deletePackageMessages(tx kv.Tx, project, pkg string) error {
	return deleteMessagesUnder(tx, messageObjectPrefix(MessageOnPackage, project, pkg))
}

// deleteProjectMessages removes the messages on a project and on all its packages.
func deleteProjectMessages(tx kv.Tx, project string) error {
	if err := deleteMessagesUnder(tx, messageObjectPrefix(MessageOnProject, project)); err != nil {
		return err
	}
	return deleteMessagesUnder(tx, messageObjectPrefix(MessageOnPackage, project))
}
