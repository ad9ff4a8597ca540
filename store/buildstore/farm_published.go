package buildstore

import (
	"bytes"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The published tree: per project and repository, the files a package manager reads — RPMs
// under <arch>/ and src/, metadata under repodata/ — by their path in the repository.

func publishedPrefix(project, repo string) []byte { return []byte(project + sep + repo + sep) }

// PutPublished stores the published file at path of project's repository repo, and indexes
// it by binary name when it is an RPM (farm_published_names.go).
func PutPublished(tx kv.Tx, project, repo, path string, data []byte) error {
	b, err := store.Bucket(tx, store.BuildFarmPublished)
	if err != nil {
		return err
	}
	if err := b.Put(append(publishedPrefix(project, repo), path...), data); err != nil {
		return err
	}
	if key := publishedNameKey(project, repo, path); key != nil {
		names, err := store.Bucket(tx, store.BuildFarmPublishedNames)
		if err != nil {
			return err
		}
		return names.Put(key, nil)
	}
	return nil
}

// DeletePublished drops the published tree of project's repository repo, and its files from
// the name index.
func DeletePublished(tx kv.Tx, project, repo string) error {
	if err := unindexPublished(tx, publishedPrefix(project, repo)); err != nil {
		return err
	}
	return store.DeletePrefix(tx, store.BuildFarmPublished, publishedPrefix(project, repo))
}

// PublishedFile returns the published file at path, valid only in tx (nil: none).
func PublishedFile(tx kv.Tx, project, repo, path string) []byte {
	b := tx.Bucket([]byte(store.BuildFarmPublished))
	if b == nil {
		return nil
	}
	return b.Get(append(publishedPrefix(project, repo), path...))
}

// PublishedEntry is one file of a published tree.
type PublishedEntry struct {
	Path string
	Size int
}

// PublishedFiles lists the files of project's repository repo under dir ("" : all), by path.
func PublishedFiles(tx kv.Tx, project, repo, dir string) []PublishedEntry {
	b := tx.Bucket([]byte(store.BuildFarmPublished))
	if b == nil {
		return nil
	}
	prefix := publishedPrefix(project, repo)
	if dir != "" {
		prefix = append(prefix, strings.TrimSuffix(dir, "/")+"/"...)
	}
	base := len(publishedPrefix(project, repo))
	var out []PublishedEntry
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		out = append(out, PublishedEntry{Path: string(k[base:]), Size: len(v)})
	}
	return out
}

// PublishedRepositories lists the (project, repository) pairs with a published tree, in order.
func PublishedRepositories(tx kv.Tx) [][2]string {
	b := tx.Bucket([]byte(store.BuildFarmPublished))
	if b == nil {
		return nil
	}
	var out [][2]string
	c := b.Cursor()
	for k, _ := c.First(); k != nil; {
		parts := bytes.SplitN(k, []byte(sep), 3)
		if len(parts) != 3 {
			k, _ = c.Next()
			continue
		}
		out = append(out, [2]string{string(parts[0]), string(parts[1])})
		k, _ = c.Seek(append(publishedPrefix(string(parts[0]), string(parts[1]))[:len(parts[0])+len(parts[1])+1], sep[0]+1))
	}
	return out
}
