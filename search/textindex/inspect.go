package textindex

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"github.com/blevesearch/bleve/v2"
)

// Info describes an index on disk, for pocketforge doctor.
type Info struct {
	// Version is the mapping version it was written with (Version when current).
	Version string
	// Generation is the store generation it reflects.
	Generation uint64
	// Docs counts its documents.
	Docs uint64
	// Bytes is what its files take on disk.
	Bytes int64
}

// ErrNoIndex means no index exists at the path (serve builds one at its next start).
var ErrNoIndex = errors.New("no search index")

// Inspect opens the index at path read-only and describes it, changing nothing (Open, by
// contrast, replaces an index it cannot use). An index that does not open is an error saying
// why; a missing one is ErrNoIndex.
func Inspect(path string) (Info, error) {
	var info Info
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return info, fmt.Errorf("search index %s: %w", path, ErrNoIndex)
	}
	idx, err := bleve.OpenUsing(path, map[string]interface{}{"read_only": true})
	if err != nil {
		return info, fmt.Errorf("search index %s: %w", path, err)
	}
	defer idx.Close()
	v, _ := idx.GetInternal(keyVersion)
	info.Version = string(v)
	if g, _ := idx.GetInternal(keyGeneration); g != nil {
		info.Generation, _ = strconv.ParseUint(string(g), 10, 64)
	}
	if info.Docs, err = idx.DocCount(); err != nil {
		return info, fmt.Errorf("search index %s: %w", path, err)
	}
	info.Bytes = dirSize(path)
	return info, nil
}

// dirSize sums the sizes of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = fs.WalkDir(os.DirFS(dir), ".", func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
