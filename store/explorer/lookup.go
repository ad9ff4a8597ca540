package explorer

import (
	"bytes"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// The lookups behind the searches: every one reads index keys under an exact search key (or,
// for commits and files, a key prefix) and returns refs or file hits, resolved by the caller in
// the same read transaction.

// refsUnder lists the refs indexed under key in an index bucket.
func refsUnder(tx *bbolt.Tx, bucket, key string) ([]Ref, error) {
	b, err := store.Bucket(tx, bucket)
	if err != nil {
		return nil, err
	}
	prefix := []byte(key + sep)
	var out []Ref
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if r, ok := parseRef(k, len(prefix)); ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// ByName lists the packages whose lower-cased name is nameKey.
func ByName(tx *bbolt.Tx, nameKey string) ([]Ref, error) {
	return refsUnder(tx, store.ExplorerByName, nameKey)
}

// ByVCS lists the packages with git tuple vcsKey.
func ByVCS(tx *bbolt.Tx, vcsKey string) ([]Ref, error) {
	return refsUnder(tx, store.ExplorerByVCS, vcsKey)
}

// ByRPM lists the packages of product whose RPM file name is rpm.
func ByRPM(tx *bbolt.Tx, product, rpm string) ([]Ref, error) {
	return refsUnder(tx, store.ExplorerByRPM, product+sep+rpm)
}

// HasKey reports whether any package still has a name key (bucket ExplorerByName) or git key
// (ExplorerByVCS): the index drops a key only when none has.
func HasKey(tx *bbolt.Tx, bucket, key string) bool {
	b, err := store.Bucket(tx, bucket)
	if err != nil {
		return false
	}
	prefix := []byte(key + sep)
	k, _ := b.Cursor().Seek(prefix)
	return k != nil && bytes.HasPrefix(k, prefix)
}

// EachKey visits the distinct search keys of an index bucket (ExplorerByName or ExplorerByVCS)
// in order, for rebuilding the search index.
func EachKey(tx *bbolt.Tx, bucket string, visit func(key string) error) error {
	b, err := store.Bucket(tx, bucket)
	if err != nil {
		return err
	}
	c := b.Cursor()
	for k, _ := c.First(); k != nil; {
		// A ref key ends in sep product sep BE32; the search key is what comes before the
		// product, found from the right (the product name holds no NUL, the search key may).
		r, ok := lastRef(k)
		if !ok {
			k, _ = c.Next()
			continue
		}
		key := string(k[:len(k)-len(r.Product)-6])
		if err := visit(key); err != nil {
			return err
		}
		k, _ = c.Seek(append([]byte(key+sep), 0xff))
	}
	return nil
}

// lastRef parses the product and seq at the end of a ref key.
func lastRef(k []byte) (Ref, bool) {
	if len(k) < 6 || k[len(k)-5] != 0 {
		return Ref{}, false
	}
	head := k[:len(k)-5]
	i := bytes.LastIndexByte(head, 0)
	if i < 0 {
		return Ref{}, false
	}
	return Ref{Product: string(head[i+1:])}, true
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
// basename. Hits come by path, then product and RPM.
func Files(tx *bbolt.Tx, q string) ([]FileHit, error) {
	byFile, err := store.Bucket(tx, store.ExplorerByFile)
	if err != nil {
		return nil, err
	}
	paths := []string{q}
	if !strings.Contains(q, "/") {
		paths = nil
		byBase, err := store.Bucket(tx, store.ExplorerByBasename)
		if err != nil {
			return nil, err
		}
		prefix := []byte(q + sep)
		c := byBase.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(paths) < maxFileHits; k, _ = c.Next() {
			paths = append(paths, string(k[len(prefix):]))
		}
	}
	var out []FileHit
	for _, p := range paths {
		prefix := []byte(p + sep)
		c := byFile.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(out) < maxFileHits; k, _ = c.Next() {
			product, rpm, ok := strings.Cut(string(k[len(prefix):]), sep)
			if ok {
				out = append(out, FileHit{Path: p, Product: product, RPM: rpm})
			}
		}
	}
	return out, nil
}
