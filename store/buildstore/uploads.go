package buildstore

import (
	"errors"
	"sort"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Upload is a package's pending upload revision: the files PUT with ?rev=upload since the last
// cmd=commit. Only the uploaded files are kept, not a whole tree, because cmd=commit lays them
// over the newest tree at commit time (a commit made meanwhile is not undone).
type Upload struct {
	Files []FileEntry `json:"files"` // sorted by name; mtime = upload time
}

// GetUpload returns the pending upload; ok is false when there is none.
func GetUpload(tx kv.Tx, project, pkg string) (u Upload, ok bool, err error) {
	u, err = store.Get[Upload](tx, store.BuildUploads, packageKey(project, pkg))
	if errors.Is(err, store.ErrNotFound) {
		return Upload{}, false, nil
	}
	return u, err == nil, err
}

// AddUpload records f (its content already a stored blob) in the pending upload, replacing an
// earlier upload of the same name.
func AddUpload(tx kv.Tx, project, pkg string, f FileEntry) error {
	u, _, err := GetUpload(tx, project, pkg)
	if err != nil {
		return err
	}
	u.Files = Overlay(u.Files, []FileEntry{f})
	return store.Put(tx, store.BuildUploads, packageKey(project, pkg), u)
}

// DropUpload discards the pending upload (none is fine).
func DropUpload(tx kv.Tx, project, pkg string) error {
	err := store.Delete(tx, store.BuildUploads, packageKey(project, pkg))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// Overlay is base with the files of top added or replacing those of the same name, by name.
func Overlay(base, top []FileEntry) []FileEntry {
	byName := map[string]FileEntry{}
	for _, f := range base {
		byName[f.Name] = f
	}
	for _, f := range top {
		byName[f.Name] = f
	}
	out := make([]FileEntry, 0, len(byName))
	for _, f := range byName {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
