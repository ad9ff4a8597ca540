package buildstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Raw reads for the xpath search (buildsvc/search*.go): the stored bytes of requests and
// packages, so that a search can test a candidate's key and bytes before it pays for decoding
// it (a request takes ~25 µs to decode; most candidates of a search are not matches), and
// reads every record in key order with one cursor instead of a slice of all of them.

// RawRequest is request id's stored JSON, nil when there is none. The bytes belong to the
// transaction: valid until it ends, never to be changed.
func RawRequest(tx kv.Tx, id uint64) []byte {
	b := tx.Bucket([]byte(store.BuildRequests))
	if b == nil {
		return nil
	}
	return b.Get(store.Itob(id))
}

// EachRawRequest calls fn with every request's id and stored JSON, in id order, until fn
// returns false or an error.
func EachRawRequest(tx kv.Tx, fn func(id uint64, raw []byte) (bool, error)) error {
	b, err := store.Bucket(tx, store.BuildRequests)
	if err != nil {
		return err
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 8 || v == nil {
			continue
		}
		if more, err := fn(binary.BigEndian.Uint64(k), v); err != nil || !more {
			return err
		}
	}
	return nil
}

// DecodeRequest decodes a request's stored JSON.
func DecodeRequest(raw []byte) (Request, error) {
	var r Request
	err := json.Unmarshal(raw, &r)
	return r, err
}

// DecodePackage decodes a package's stored JSON.
func DecodePackage(raw []byte) (Package, error) {
	var k Package
	err := json.Unmarshal(raw, &k)
	return k, err
}

// isTombstone reports whether a project's or package's stored JSON is a deleted record's: the
// codec writes `"deleted":true` for it and nothing else can hold those bytes (a quote inside a
// string is escaped).
func isTombstone(raw []byte) bool { return bytes.Contains(raw, tombstone) }

// Tombstone reports whether a package's or project's stored JSON (EachRawPackage) is a deleted
// record's, without decoding it.
func Tombstone(raw []byte) bool { return isTombstone(raw) }

// EachRawPackage calls fn with the project, name and stored JSON of every package record whose
// key starts with prefix (nil: all; PackagePrefix(project): one project's), tombstones too
// (Tombstone tells them; a caller that can refuse a package by its key alone asks only then),
// in project and name order, until fn returns false or an error.
func EachRawPackage(tx kv.Tx, prefix []byte, fn func(project, name string, raw []byte) (bool, error)) error {
	b, err := store.Bucket(tx, store.BuildPackages)
	if err != nil {
		return err
	}
	c := b.Cursor()
	k, v := c.First()
	if prefix != nil {
		k, v = c.Seek(prefix)
	}
	for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		project, name, ok := strings.Cut(string(k), sep)
		if !ok || v == nil {
			continue
		}
		if more, err := fn(project, name, v); err != nil || !more {
			return err
		}
	}
	return nil
}

// PackagePrefix is the key prefix of project's packages, for EachRawPackage.
func PackagePrefix(project string) []byte { return append([]byte(project), 0) }

// RawPackage is the stored JSON of the live package project/name, nil when there is none.
func RawPackage(tx kv.Tx, project, name string) []byte {
	b := tx.Bucket([]byte(store.BuildPackages))
	if b == nil {
		return nil
	}
	v := b.Get(packageKey(project, name))
	if v == nil || isTombstone(v) {
		return nil
	}
	return v
}

// ProjectLive reports whether project name exists and is not deleted, without decoding it.
func ProjectLive(tx kv.Tx, name string) bool { return RawProject(tx, name) != nil }

// HolderPlaces lists where holder (a login or GroupHolder) holds any role, in project and
// package order, each place once; a project's own entry ("" package) comes before its packages'.
func HolderPlaces(tx kv.Tx, holder string) ([]RolePlace, error) {
	b, err := store.Bucket(tx, store.BuildRoleIndex)
	if err != nil {
		return nil, err
	}
	prefix := []byte(holder + sep)
	seen := map[RolePlace]bool{}
	var out []RolePlace
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		_, rest, ok := strings.Cut(string(k[len(prefix):]), sep)
		project, pkg, ok2 := strings.Cut(rest, sep)
		if !ok || !ok2 {
			continue
		}
		if p := (RolePlace{Project: project, Package: pkg}); !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b RolePlace) int {
		if c := strings.Compare(a.Project, b.Project); c != 0 {
			return c
		}
		return strings.Compare(a.Package, b.Package)
	})
	return out, nil
}

// EachRawProject calls fn with the name and stored JSON of every live project, by name, until
// fn returns false or an error.
func EachRawProject(tx kv.Tx, fn func(name string, raw []byte) (bool, error)) error {
	b, err := store.Bucket(tx, store.BuildProjects)
	if err != nil {
		return err
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil || isTombstone(v) {
			continue
		}
		if more, err := fn(string(k), v); err != nil || !more {
			return err
		}
	}
	return nil
}

// RawProject is the stored JSON of the live project name, nil when there is none.
func RawProject(tx kv.Tx, name string) []byte {
	b := tx.Bucket([]byte(store.BuildProjects))
	if b == nil {
		return nil
	}
	v := b.Get([]byte(name))
	if v == nil || isTombstone(v) {
		return nil
	}
	return v
}

// DecodeProject decodes a project's stored JSON.
func DecodeProject(raw []byte) (Project, error) {
	var p Project
	err := json.Unmarshal(raw, &p)
	return p, err
}

// EachRawRequestIn calls fn with the id and stored JSON of each request of ids (ascending),
// skipping those there are none of, until fn returns false or an error. One cursor serves
// them all: it steps forward to an id near the last one and seeks only to a far one, which
// for the thousands of ids a search's index terms may name costs a fraction of a Get each.
func EachRawRequestIn(tx kv.Tx, ids []uint64, fn func(id uint64, raw []byte) (bool, error)) error {
	b, err := store.Bucket(tx, store.BuildRequests)
	if err != nil {
		return err
	}
	c := b.Cursor()
	var k, v []byte
	at := func() uint64 { return store.Btoi(k) }
	for i, id := range ids {
		for steps := 0; i > 0 && k != nil && at() < id && steps < 16; steps++ {
			k, v = c.Next()
		}
		if i == 0 || k != nil && at() < id {
			k, v = c.Seek(store.Itob(id))
		}
		if k == nil {
			return nil
		}
		if at() != id || v == nil {
			continue
		}
		if more, err := fn(id, v); err != nil || !more {
			return err
		}
	}
	return nil
}

// EachRawProjectUnder is EachRawProject for the projects whose name starts with prefix.
func EachRawProjectUnder(tx kv.Tx, prefix []byte, fn func(name string, raw []byte) (bool, error)) error {
	b, err := store.Bucket(tx, store.BuildProjects)
	if err != nil {
		return err
	}
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if v == nil || isTombstone(v) {
			continue
		}
		if more, err := fn(string(k), v); err != nil || !more {
			return err
		}
	}
	return nil
}

// GroupHolders are the role index's holders for the group title: GroupHolder(title), or, when
// fold is set, every group holder the index has whose title equals title ignoring case (OBS
// compares group titles so). It seeks from one holder to the next, reading one key of each.
func GroupHolders(tx kv.Tx, title string, fold bool) ([]string, error) {
	if !fold {
		return []string{GroupHolder(title)}, nil
	}
	b, err := store.Bucket(tx, store.BuildRoleIndex)
	if err != nil {
		return nil, err
	}
	prefix := []byte(GroupHolder(""))
	var out []string
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); {
		holder, _, _ := bytes.Cut(k, []byte(sep))
		if strings.EqualFold(string(holder[len(prefix):]), title) {
			out = append(out, string(holder))
		}
		// holder points into the mmapped page: appending to it in place would write there.
		k, _ = c.Seek(append(bytes.Clone(holder), sep[0]+1))
	}
	return out, nil
}
