package buildstore

import (
	"bytes"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// What a tagging is on (the first part of its keys).
const (
	TagOnProject = "project"
	TagOnPackage = "package"
)

// Kinds of BuildTagIndex keys: each names what follows it.
const (
	tagIndexByTag  = "tag"  // tag 0x00 then the tagging's BuildTags key
	tagIndexByUser = "user" // login 0x00 then the tagging's BuildTags key
)

// Tagging is one user's tag on a project (Package "") or on a package: the service's taggings
// row (tag, user, object). A user puts a tag on an object at most once.
type Tagging struct {
	Tag     string    `json:"tag"`
	User    string    `json:"user"`
	Project string    `json:"project"`
	Package string    `json:"package,omitempty"`
	Created time.Time `json:"created"`
}

// Kind is TagOnPackage for a tagging on a package, else TagOnProject.
func (t Tagging) Kind() string {
	if t.Package != "" {
		return TagOnPackage
	}
	return TagOnProject
}

// tagObjectPrefix is the BuildTags prefix of the taggings of one object: kind 0x00 project
// 0x00 (package 0x00). A project's prefix never covers its packages' taggings (their kind
// differs); tagObjectPrefix(TagOnPackage, project) covers every package of the project.
func tagObjectPrefix(kind, project string, pkg ...string) []byte {
	return IndexKey(kind, append([]string{project}, pkg...)...)
}

// key is t's BuildTags key: its object's prefix, then user 0x00 tag.
func (t Tagging) key() []byte {
	var k []byte
	if t.Package != "" {
		k = tagObjectPrefix(TagOnPackage, t.Project, t.Package)
	} else {
		k = tagObjectPrefix(TagOnProject, t.Project)
	}
	k = append(k, t.User...)
	k = append(k, 0)
	return append(k, t.Tag...)
}

// indexKeys are t's two BuildTagIndex keys (by tag, by user); each holds the BuildTags key as
// its value, so a reader of the index goes straight to the record.
func (t Tagging) indexKeys() [][]byte {
	k := t.key()
	return [][]byte{append(IndexKey(tagIndexByTag, t.Tag), k...), append(IndexKey(tagIndexByUser, t.User), k...)}
}

// PutTagging stores t with its index entries, in the same transaction.
func PutTagging(tx kv.Tx, t Tagging) error {
	bs, err := store.Buckets(tx, store.BuildTagIndex)
	if err != nil {
		return err
	}
	for _, ik := range t.indexKeys() {
		if err := bs[0].Put(ik, t.key()); err != nil {
			return err
		}
	}
	return store.Put(tx, store.BuildTags, t.key(), t)
}

// DeleteTagging removes t (as read) and its index entries.
func DeleteTagging(tx kv.Tx, t Tagging) error {
	bs, err := store.Buckets(tx, store.BuildTags, store.BuildTagIndex)
	if err != nil {
		return err
	}
	for _, ik := range t.indexKeys() {
		if err := bs[1].Delete(ik); err != nil {
			return err
		}
	}
	return bs[0].Delete(t.key())
}

// TaggingsOn lists every user's taggings of a project (pkg "") or package, by user then tag.
func TaggingsOn(tx kv.Tx, project, pkg string) ([]Tagging, error) {
	return taggingsUnder(tx, objectPrefix(project, pkg))
}

// TaggingsOnBy lists user's taggings of a project (pkg "") or package, by tag.
func TaggingsOnBy(tx kv.Tx, user, project, pkg string) ([]Tagging, error) {
	return taggingsUnder(tx, append(append(objectPrefix(project, pkg), user...), 0))
}

// TaggingsWithTag lists the taggings that carry tag: a seek in the index.
func TaggingsWithTag(tx kv.Tx, tag string) ([]Tagging, error) {
	return taggingsIndexed(tx, IndexKey(tagIndexByTag, tag))
}

// TaggingsBy lists user's taggings: a seek in the index.
func TaggingsBy(tx kv.Tx, user string) ([]Tagging, error) {
	return taggingsIndexed(tx, IndexKey(tagIndexByUser, user))
}

// EachTagging calls fn with every tagging (projects' first, then packages', by object).
func EachTagging(tx kv.Tx, fn func(Tagging) error) error {
	return store.Each(tx, store.BuildTags, nil, func(_ []byte, t Tagging) (bool, error) { return true, fn(t) })
}

func objectPrefix(project, pkg string) []byte {
	if pkg != "" {
		return tagObjectPrefix(TagOnPackage, project, pkg)
	}
	return tagObjectPrefix(TagOnProject, project)
}

func taggingsUnder(tx kv.Tx, prefix []byte) ([]Tagging, error) {
	var out []Tagging
	err := store.Each(tx, store.BuildTags, prefix, func(_ []byte, t Tagging) (bool, error) {
		out = append(out, t)
		return true, nil
	})
	return out, err
}

// taggingsIndexed reads the records the index entries under prefix point at.
func taggingsIndexed(tx kv.Tx, prefix []byte) ([]Tagging, error) {
	idx, err := store.Bucket(tx, store.BuildTagIndex)
	if err != nil {
		return nil, err
	}
	var out []Tagging
	c := idx.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		t, err := store.Get[Tagging](tx, store.BuildTags, v)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// deleteTaggingsUnder removes every tagging whose BuildTags key starts with prefix, with its
// index entries.
func deleteTaggingsUnder(tx kv.Tx, prefix []byte) error {
	list, err := taggingsUnder(tx, prefix)
	if err != nil {
		return err
	}
	for _, t := range list {
		if err := DeleteTagging(tx, t); err != nil {
			return err
		}
	}
	return nil
}

// deletePackageTags removes the taggings of a package: they die with it, as the service
// destroys an object's taggings with the object; an undelete brings the package back without.
func deletePackageTags(tx kv.Tx, project, pkg string) error {
	return deleteTaggingsUnder(tx, tagObjectPrefix(TagOnPackage, project, pkg))
}

// deleteProjectTags removes the taggings of a project and of all its packages.
func deleteProjectTags(tx kv.Tx, project string) error {
	if err := deleteTaggingsUnder(tx, tagObjectPrefix(TagOnProject, project)); err != nil {
		return err
	}
	return deleteTaggingsUnder(tx, tagObjectPrefix(TagOnPackage, project))
}
