package buildstore

import (
	"bytes"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The published name index (store.BuildFarmPublishedNames) answers "where is a binary called
// name published" with one cursor seek, where a published binary search would otherwise read
// every file of every published tree (osc's `bse`, the explorer's /api/search/binary). A key
// is name 0x00 project 0x00 repository 0x00 path with an empty value, for every published file
// that is an RPM of an arch directory (PublishedBinaryName). PutPublished, DeletePublished and
// PurgeFarm — the only writers of published trees — keep it in step in their transaction.

func init() { store.RegisterIndexBuilder(store.BuildFarmPublishedNames, rebuildPublishedNames) }

// PublishedBinaryName is the binary package name of the published file at path, as the
// published binary search reads a tree: an RPM file name (SplitRPMName) directly under one
// directory that is not repodata; ok is false for every other file.
func PublishedBinaryName(path string) (name string, ok bool) {
	dir, file, found := strings.Cut(path, "/")
	if !found || dir == "" || dir == "repodata" || strings.Contains(file, "/") {
		return "", false
	}
	name, _, _, _, ok = SplitRPMName(file)
	return name, ok
}

// SplitRPMName splits name-version-release.arch.rpm as OBS's backend reads a published file's
// name (the arch has no '.', version and release no '-'); ok is false for any other name.
func SplitRPMName(file string) (name, version, release, arch string, ok bool) {
	base, found := strings.CutSuffix(file, ".rpm")
	i := strings.LastIndexByte(base, '.')
	if !found || i <= 0 {
		return "", "", "", "", false
	}
	base, arch = base[:i], base[i+1:]
	r := strings.LastIndexByte(base, '-')
	if r <= 0 {
		return "", "", "", "", false
	}
	v := strings.LastIndexByte(base[:r], '-')
	if v <= 0 || r == len(base)-1 || v == r-1 || arch == "" {
		return "", "", "", "", false
	}
	return base[:v], base[v+1 : r], base[r+1:], arch, true
}

// PublishedPlace is one published file of a binary name: its tree and path in it.
type PublishedPlace struct {
	Project, Repository, Path string
}

// PublishedPlaces lists where binaries called name are published, by project, repository and
// path — the order a walk of the published trees meets them.
func PublishedPlaces(tx kv.Tx, name string) []PublishedPlace {
	b := tx.Bucket([]byte(store.BuildFarmPublishedNames))
	if b == nil || strings.Contains(name, sep) {
		return nil
	}
	prefix := []byte(name + sep)
	var out []PublishedPlace
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		parts := strings.SplitN(string(k[len(prefix):]), sep, 3)
		if len(parts) == 3 {
			out = append(out, PublishedPlace{Project: parts[0], Repository: parts[1], Path: parts[2]})
		}
	}
	return out
}

// publishedNameKey is the index key of the file at path of project's repository repo, nil when
// the file is not a published binary.
func publishedNameKey(project, repo, path string) []byte {
	name, ok := PublishedBinaryName(path)
	if !ok {
		return nil
	}
	return []byte(name + sep + project + sep + repo + sep + path)
}

// unindexPublished drops the index keys of the published files under prefix (a tree's or a
// project's key prefix in store.BuildFarmPublished).
func unindexPublished(tx kv.Tx, prefix []byte) error {
	files := tx.Bucket([]byte(store.BuildFarmPublished))
	if files == nil {
		return nil
	}
	names, err := store.Bucket(tx, store.BuildFarmPublishedNames)
	if err != nil {
		return err
	}
	c := files.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		parts := strings.SplitN(string(k), sep, 3)
		if len(parts) != 3 {
			continue
		}
		if key := publishedNameKey(parts[0], parts[1], parts[2]); key != nil {
			if err := names.Delete(key); err != nil {
				return err
			}
		}
	}
	return nil
}

// rebuildPublishedNames fills the (empty) index from every published tree.
func rebuildPublishedNames(tx kv.Tx) error {
	files := tx.Bucket([]byte(store.BuildFarmPublished))
	if files == nil {
		return nil
	}
	names, err := store.Bucket(tx, store.BuildFarmPublishedNames)
	if err != nil {
		return err
	}
	return files.ForEach(func(k, _ []byte) error {
		parts := strings.SplitN(string(k), sep, 3)
		if len(parts) != 3 {
			return nil
		}
		if key := publishedNameKey(parts[0], parts[1], parts[2]); key != nil {
			return names.Put(key, nil)
		}
		return nil
	})
}
