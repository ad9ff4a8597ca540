package buildstore

import (
	"crypto/md5"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// EmptySrcMD5 is the srcmd5 of a tree without files (the MD5 of nothing): what the build
// service shows for a package that has no revision yet.
const EmptySrcMD5 = "d41d8cd98f00b204e9800998ecf8427e"

// FileEntry is one file of a revision tree. Contents live in the blob bucket under MD5, so a
// file that does not change between revisions is stored once.
type FileEntry struct {
	Name  string `json:"name"`
	MD5   string `json:"md5"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // unix seconds: when this content first appeared under this name
}

// MD5Hex is the lowercase hex MD5 of data, the key of a blob and the md5 osc compares.
func MD5Hex(data []byte) string {
	sum := md5.Sum(data)
	return hex.EncodeToString(sum[:])
}

// SrcMD5 is the build service's tree identity: the MD5 of "<md5>  <name>\n" for each file
// sorted by name. The same file set always gives the same srcmd5, which osc relies on.
func SrcMD5(files []FileEntry) string {
	sorted := append([]FileEntry(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var b strings.Builder
	for _, f := range sorted {
		b.WriteString(f.MD5 + "  " + f.Name + "\n")
	}
	return MD5Hex([]byte(b.String()))
}

// PutBlob stores data under its MD5 and returns it. Content stored this way is held by what
// stores it (a commit, an upload revision, an expansion), so a pending note on the same
// content (pending.go) is cleared.
func PutBlob(tx kv.Tx, data []byte) (string, error) {
	sum, err := putBlob(tx, data)
	if err != nil {
		return "", err
	}
	return sum, clearPending(tx, []FileEntry{{MD5: sum}})
}

// putBlob stores data under its MD5 unless it is there already.
func putBlob(tx kv.Tx, data []byte) (string, error) {
	b, err := store.Bucket(tx, store.BuildBlobs)
	if err != nil {
		return "", err
	}
	sum := MD5Hex(data)
	if b.Get([]byte(sum)) != nil {
		return sum, nil
	}
	return sum, b.Put([]byte(sum), append([]byte{}, data...))
}

// HasBlob reports whether the content with this MD5 is stored, which decides whether
// commitfilelist asks osc to upload a file.
func HasBlob(tx kv.Tx, sum string) bool {
	b, err := store.Bucket(tx, store.BuildBlobs)
	return err == nil && b.Get([]byte(sum)) != nil
}

// GetBlob returns a copy of the content with this MD5 (bbolt's memory is only valid inside tx).
func GetBlob(tx kv.Tx, sum string) ([]byte, error) {
	b, err := store.Bucket(tx, store.BuildBlobs)
	if err != nil {
		return nil, err
	}
	data := b.Get([]byte(sum))
	if data == nil {
		return nil, store.NotFoundf("blob %s: no such content", sum)
	}
	return append([]byte{}, data...), nil
}
