package buildstore

import (
	"bytes"
	"encoding/binary"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// What a comment is on (CommentObject.Kind).
const (
	CommentOnProject = "project"
	CommentOnPackage = "package"
	CommentOnRequest = "request"
)

// CommentObject names what a comment is on: a project, a package of a project, or a request
// (Request holds its number in decimal, as the URL has it).
type CommentObject struct {
	Kind    string `json:"kind"`
	Project string `json:"project,omitempty"`
	Package string `json:"package,omitempty"`
	Request string `json:"request,omitempty"`
}

// indexPrefix is the object's key prefix in BuildCommentIndex: kind 0x00 object 0x00, where a
// package's object is project 0x00 package. A project's prefix therefore never covers its
// packages' comments (their kind differs), but the package kind's prefix with the project alone,
// IndexKey(CommentOnPackage, project), covers every package of the project.
func (o CommentObject) indexPrefix() []byte {
	switch o.Kind {
	case CommentOnPackage:
		return IndexKey(o.Kind, o.Project, o.Package)
	case CommentOnRequest:
		return IndexKey(o.Kind, o.Request)
	}
	return IndexKey(o.Kind, o.Project)
}

// Comment is one comment, a reply when Parent is set. A comment deleted while it still has
// replies keeps its place as a blank (see buildsvc's DeleteComment).
type Comment struct {
	ID     uint64        `json:"id"`
	On     CommentObject `json:"on"`
	Who    string        `json:"who"`
	When   time.Time     `json:"when"`
	Parent uint64        `json:"parent,omitempty"`
	Body   string        `json:"body"`
}

// NewCommentID takes the next comment number.
func NewCommentID(tx kv.Tx) (uint64, error) { return store.NextID(tx, store.BuildComments) }

// GetComment reads comment id; the not-found message is the service's own.
func GetComment(tx kv.Tx, id uint64) (Comment, error) {
	c, err := store.Get[Comment](tx, store.BuildComments, store.Itob(id))
	if err != nil {
		return c, store.NotFoundf("Couldn't find Comment with id %d", id)
	}
	return c, nil
}

// PutComment stores c (its ID set) and its index entry; a comment never moves to another
// object, so storing it again only rewrites the record.
func PutComment(tx kv.Tx, c Comment) error {
	idx, err := store.Bucket(tx, store.BuildCommentIndex)
	if err != nil {
		return err
	}
	if err := idx.Put(binary.BigEndian.AppendUint64(c.On.indexPrefix(), c.ID), nil); err != nil {
		return err
	}
	return store.Put(tx, store.BuildComments, store.Itob(c.ID), c)
}

// DeleteComment removes comment c (as read) with its index entry.
func DeleteComment(tx kv.Tx, c Comment) error {
	idx, err := store.Bucket(tx, store.BuildCommentIndex)
	if err != nil {
		return err
	}
	if err := idx.Delete(binary.BigEndian.AppendUint64(c.On.indexPrefix(), c.ID)); err != nil {
		return err
	}
	return store.Delete(tx, store.BuildComments, store.Itob(c.ID))
}

// Comments lists the comments on obj in id order (the order they were written).
func Comments(tx kv.Tx, obj CommentObject) ([]Comment, error) {
	ids, err := commentIDs(tx, obj.indexPrefix())
	if err != nil {
		return nil, err
	}
	out := make([]Comment, 0, len(ids))
	for _, id := range ids {
		c, err := store.Get[Comment](tx, store.BuildComments, store.Itob(id))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// commentIDs lists the ids of the index entries under prefix, ascending for one object.
func commentIDs(tx kv.Tx, prefix []byte) ([]uint64, error) {
	idx, err := store.Bucket(tx, store.BuildCommentIndex)
	if err != nil {
		return nil, err
	}
	var ids []uint64
	c := idx.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		ids = append(ids, binary.BigEndian.Uint64(k[len(k)-8:]))
	}
	return ids, nil
}

// deleteCommentsUnder removes every comment whose index key starts with prefix: the comments of
// a package, of a project, or (IndexKey(CommentOnPackage, project)) of all a project's packages.
func deleteCommentsUnder(tx kv.Tx, prefix []byte) error {
	ids, err := commentIDs(tx, prefix)
	if err != nil {
		return err
	}
	b, err := store.Bucket(tx, store.BuildComments)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := b.Delete(store.Itob(id)); err != nil {
			return err
		}
	}
	return store.DeletePrefix(tx, store.BuildCommentIndex, prefix)
}

// deletePackageComments removes the comments on a package: they die with it, as on the real
// service, where an undelete brings the package back without them.
func deletePackageComments(tx kv.Tx, project, pkg string) error {
	return deleteCommentsUnder(tx, CommentObject{Kind: CommentOnPackage, Project: project, Package: pkg}.indexPrefix())
}

// deleteProjectComments removes the comments on a project and on all its packages.
func deleteProjectComments(tx kv.Tx, project string) error {
	if err := deleteCommentsUnder(tx, CommentObject{Kind: CommentOnProject, Project: project}.indexPrefix()); err != nil {
		return err
	}
	return deleteCommentsUnder(tx, IndexKey(CommentOnPackage, project))
}
