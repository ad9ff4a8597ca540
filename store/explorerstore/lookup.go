package explorerstore

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The lookups behind the searches: each seeks an exact search key (or, for files, a path or
// basename) in every product's index bucket and returns refs or file hits, which the caller
// resolves in the same read transaction.

// productNames lists the imported products, in name order.
func productNames(tx kv.Tx) []string {
	b, err := store.Bucket(tx, store.ExplorerProducts)
	if err != nil {
		return nil
	}
	var out []string
	_ = b.ForEach(func(k, _ []byte) error { out = append(out, string(k)); return nil })
	return out
}

// refsUnder lists the refs indexed under key in every product's bucket of an index.
func refsUnder(tx kv.Tx, index, key string) []Ref {
	return RefsUnder(tx, index, []string{key})
}

// RefsUnder lists the refs indexed under each of keys in an index (ExplorerByName or
// ExplorerByVCS): key by key, and for each key product by product, as ByName or ByVCS would one
// key at a time — but opening each product's bucket once, not once per key (a search resolves
// dozens of keys).
func RefsUnder(tx kv.Tx, index string, keys []string) []Ref {
	type product struct {
		name string
		c    kv.Cursor
	}
	var products []product
	for _, name := range productNames(tx) {
		if b := productBucket(tx, index, name); b != nil {
			products = append(products, product{name, b.Cursor()})
		}
	}
	var out []Ref
	var prefix []byte
	for _, key := range keys {
		prefix = append(append(prefix[:0], key...), sep...)
		for _, p := range products {
			for k, _ := p.c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = p.c.Next() {
				if rest := k[len(prefix):]; len(rest) == 4 {
					out = append(out, Ref{Product: p.name, Seq: binary.BigEndian.Uint32(rest)})
				}
			}
		}
	}
	return out
}

// ByName lists the packages whose lower-cased name is nameKey.
func ByName(tx kv.Tx, nameKey string) ([]Ref, error) {
	return refsUnder(tx, store.ExplorerByName, nameKey), nil
}

// ByVCS lists the packages with git tuple vcsKey.
func ByVCS(tx kv.Tx, vcsKey string) ([]Ref, error) {
	return refsUnder(tx, store.ExplorerByVCS, vcsKey), nil
}

// ByRPM lists the packages of product whose RPM file name is rpm.
func ByRPM(tx kv.Tx, product, rpm string) ([]Ref, error) {
	b := productBucket(tx, store.ExplorerByRPM, product)
	if b == nil {
		return nil, nil
	}
	var out []Ref
	prefix := []byte(rpm + sep)
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if rest := k[len(prefix):]; len(rest) == 4 {
			out = append(out, Ref{Product: product, Seq: binary.BigEndian.Uint32(rest)})
		}
	}
	return out, nil
}

// HasKey reports whether any package still has a name key (index ExplorerByName) or git key
// (ExplorerByVCS): the search index drops a key only when none has.
func HasKey(tx kv.Tx, index, key string) bool {
	return len(MissingKeys(tx, index, []string{key})) == 0
}

// MissingKeys returns those of keys that no stored package has in index (ExplorerByName or
// ExplorerByVCS), in their order. A search document is made from its key alone, so these are
// the only documents an import must add: the releases of a distribution share most names, and
// indexing each again cost an import of four products most of its time.
func MissingKeys(tx kv.Tx, index string, keys []string) []string {
	var cursors []kv.Cursor
	for _, product := range productNames(tx) {
		if b := productBucket(tx, index, product); b != nil {
			cursors = append(cursors, b.Cursor())
		}
	}
	var out []string
	for _, key := range keys {
		if !anyHasPrefix(cursors, []byte(key+sep)) {
			out = append(out, key)
		}
	}
	return out
}

// anyHasPrefix reports whether a key of any cursor's bucket starts with prefix.
func anyHasPrefix(cursors []kv.Cursor, prefix []byte) bool {
	for _, c := range cursors {
		if k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// EachKey visits the distinct search keys of an index (ExplorerByName or ExplorerByVCS) over
// all products, in order: what the search index is rebuilt from.
func EachKey(tx kv.Tx, index string, visit func(key string) error) error {
	seen := map[string]bool{}
	for _, product := range productNames(tx) {
		b := productBucket(tx, index, product)
		if b == nil {
			continue
		}
		err := b.ForEach(func(k, _ []byte) error {
			if len(k) > 5 {
				seen[string(k[:len(k)-5])] = true
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := visit(k); err != nil {
			return err
		}
	}
	return nil
}

// FileHit is one (path, product, RPM) that ships a file.
type FileHit struct {
	Path    string
	Product string
	RPM     string
}

// maxFileHits bounds a file search (a basename such as "README" can be shipped by every
// package of every product).
const maxFileHits = 10_000

// Files finds the files a query names exactly: a full path when it holds a "/", else a
// basename. Hits come by product, then path and RPM.
func Files(tx kv.Tx, q string) ([]FileHit, error) {
	var out []FileHit
	for _, product := range productNames(tx) {
		byFile := productBucket(tx, store.ExplorerByFile, product)
		if byFile == nil {
			continue
		}
		paths := []string{q}
		if !strings.Contains(q, "/") {
			paths = nil
			if byBase := productBucket(tx, store.ExplorerByBasename, product); byBase != nil {
				prefix := []byte(q + sep)
				c := byBase.Cursor()
				for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(paths) < maxFileHits; k, _ = c.Next() {
					paths = append(paths, string(k[len(prefix):]))
				}
			}
		}
		for _, p := range paths {
			prefix := []byte(p + sep)
			c := byFile.Cursor()
			for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(out) < maxFileHits; k, _ = c.Next() {
				out = append(out, FileHit{Path: p, Product: product, RPM: string(k[len(prefix):])})
			}
		}
	}
	return out, nil
}

// MaxUnderHits bounds a path-prefix search (FilesUnder): "/usr" lies above most files of every
// product; the first hits by path are kept.
const MaxUnderHits = 2_000

// FilesUnder finds the files whose path starts with prefix ("/usr/bin" lists /usr/bin/bash and
// everything else below /usr/bin; "/usr/bin/ba" the paths that start so), at most MaxUnderHits,
// the first by path in each product. It walks the by-file index from prefix on, one key per
// (path, RPM).
func FilesUnder(tx kv.Tx, prefix string) []FileHit {
	var out []FileHit
	for _, product := range productNames(tx) {
		byFile := productBucket(tx, store.ExplorerByFile, product)
		if byFile == nil {
			continue
		}
		c := byFile.Cursor()
		p := []byte(prefix)
		n := 0
		for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p) && n < MaxUnderHits; k, _ = c.Next() {
			path, rpm, ok := strings.Cut(string(k), sep)
			if !ok {
				continue
			}
			out = append(out, FileHit{Path: path, Product: product, RPM: rpm})
			n++
		}
	}
	return out
}
