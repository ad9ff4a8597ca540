package buildstore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Revision is one commit of a package: its whole file tree (so any revision is served without
// replaying others) and the history fields osc shows in `osc log`.
type Revision struct {
	Rev     uint64      `json:"rev"`
	VRev    uint64      `json:"vrev"`
	SrcMD5  string      `json:"srcmd5"`
	Version string      `json:"version"`
	Time    int64       `json:"time"` // unix seconds
	User    string      `json:"user"`
	Comment string      `json:"comment,omitempty"`
	Files   []FileEntry `json:"files"`
	// RequestID is the request whose accept made the revision.
	RequestID uint64 `json:"requestid,omitempty"`
}

// File returns the revision's entry called name.
func (r Revision) File(name string) (FileEntry, bool) {
	for _, f := range r.Files {
		if f.Name == name {
			return f, true
		}
	}
	return FileEntry{}, false
}

// revisionPrefix is project 0x00 package 0x00: a package's revisions are one key prefix.
func revisionPrefix(project, pkg string) []byte {
	return append(append(append([]byte(project), 0), pkg...), 0)
}

// revisionKey appends the big-endian rev, so a cursor walks a package's revisions oldest first.
func revisionKey(project, pkg string, rev uint64) []byte {
	return append(revisionPrefix(project, pkg), store.Itob(rev)...)
}

// Revisions lists a package's revisions, oldest first (the order of _history).
func Revisions(tx kv.Tx, project, pkg string) ([]Revision, error) {
	var out []Revision
	err := store.Each(tx, store.BuildRevisions, revisionPrefix(project, pkg), func(_ []byte, r Revision) (bool, error) {
		out = append(out, r)
		return true, nil
	})
	return out, err
}

// GetRevision returns revision rev of a package; the not-found message is the backend's.
func GetRevision(tx kv.Tx, project, pkg string, rev uint64) (Revision, error) {
	r, err := store.Get[Revision](tx, store.BuildRevisions, revisionKey(project, pkg, rev))
	if err != nil {
		return r, store.NotFoundf("no such revision")
	}
	return r, nil
}

// LatestRevision returns the newest revision; ok is false for a package without commits. It
// reads one record from the end of the package's key range, not the whole history.
func LatestRevision(tx kv.Tx, project, pkg string) (r Revision, ok bool, err error) {
	err = walkBack(tx, store.BuildRevisions, project, pkg, func(x Revision) bool { r, ok = x, true; return false })
	return r, ok, err
}

// walkBack visits a package's revisions (of sources or, in the meta bucket, of its meta)
// newest first until visit returns false.
func walkBack(tx kv.Tx, bucket, project, pkg string, visit func(Revision) bool) error {
	b, err := store.Bucket(tx, bucket)
	if err != nil {
		return err
	}
	prefix := revisionPrefix(project, pkg)
	c := b.Cursor()
	k, v := c.Seek(revisionKey(project, pkg, ^uint64(0)))
	if k == nil || !bytes.HasPrefix(k, prefix) {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
		var r Revision
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("revision %q: %w", k, err)
		}
		if !visit(r) {
			return nil
		}
	}
	return nil
}

// DeleteRevisions removes a package's history, of its sources and of its meta (blobs stay:
// they may be shared).
func DeleteRevisions(tx kv.Tx, project, pkg string) error {
	if err := deleteMetaRevisions(tx, project, pkg); err != nil {
		return err
	}
	return store.DeletePrefix(tx, store.BuildRevisions, revisionPrefix(project, pkg))
}

// ParseVersion reads the first "Version:" tag of a spec file, as the backend does at commit;
// "unknown" when there is none.
func ParseVersion(spec []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(spec))
	for sc.Scan() {
		tag, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.EqualFold(strings.TrimSpace(tag), "Version") && strings.TrimSpace(value) != "" {
			return strings.TrimSpace(value)
		}
	}
	return "unknown"
}

// NextVRev is 1 + the vrev of the last revision with the same version: it restarts at 1 when
// the version changes, so binaries get release numbers that grow within one version.
func NextVRev(history []Revision, version string) uint64 {
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Version == version {
			return history[i].VRev + 1
		}
	}
	return 1
}

// nextVRev is NextVRev over the stored history, read newest first and only as far as the
// last revision with the version (usually the newest).
func nextVRev(tx kv.Tx, project, pkg, version string) (uint64, error) {
	vrev := uint64(1)
	err := walkBack(tx, store.BuildRevisions, project, pkg, func(r Revision) bool {
		if r.Version == version {
			vrev = r.VRev + 1
			return false
		}
		return true
	})
	return vrev, err
}

// AppendRevision appends the revision record whose tree is files (name and md5 given; every
// md5 must be a stored blob), with the user, comment, request and version revision (when not
// 0) of as; the rest (rev, srcmd5, version, time, tree) is computed. Sizes come from the blobs;
// a file unchanged since the last revision keeps its mtime. It moves what the record moves —
// the pending marks of its blobs, the link index, the project's and its linkers' dirty marks —
// and nothing the build domain decides: buildsvc.CommitRevision indexes the issues the new tree
// names right after it, in the same transaction, and every revision is made through that.
func AppendRevision(tx kv.Tx, project, pkg string, files []FileEntry, as Revision, now time.Time) (Revision, error) {
	user, comment, vrev := as.User, as.Comment, as.VRev
	last, _, err := LatestRevision(tx, project, pkg)
	if err != nil {
		return Revision{}, err
	}
	tree := make([]FileEntry, len(files))
	version := ""
	files = append([]FileEntry(nil), files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for i, f := range files {
		data, err := GetBlob(tx, f.MD5)
		if err != nil {
			return Revision{}, err
		}
		tree[i] = FileEntry{Name: f.Name, MD5: f.MD5, Size: int64(len(data)), MTime: now.Unix()}
		if old, ok := last.File(f.Name); ok && old.MD5 == f.MD5 {
			tree[i].MTime = old.MTime
		}
		if version == "" && strings.HasSuffix(f.Name, ".spec") {
			version = ParseVersion(data)
		}
	}
	if version == "" {
		version = "unknown"
	}
	if vrev == 0 {
		if vrev, err = nextVRev(tx, project, pkg, version); err != nil {
			return Revision{}, err
		}
	}
	r := Revision{Rev: last.Rev + 1, VRev: vrev, SrcMD5: SrcMD5(tree), Version: version,
		Time: now.Unix(), User: user, Comment: comment, Files: tree, RequestID: as.RequestID}
	if err := clearPending(tx, tree); err != nil {
		return Revision{}, err
	}
	if err := updateLinkIndex(tx, project, pkg, last, r); err != nil {
		return Revision{}, err
	}
	if err := MarkDirty(tx, project); err != nil {
		return Revision{}, err
	}
	if err := markLinkersDirty(tx, project, pkg); err != nil {
		return Revision{}, err
	}
	if err := store.Put(tx, store.BuildRevisions, revisionKey(project, pkg, r.Rev), r); err != nil {
		return Revision{}, err
	}
	return r, nil
}

// markLinkersDirty queues every project with a package that links to project/pkg, directly or
// through other links: its expanded sources are this package's, so they changed too (OBS
// rebuilds a link when its target changes — Pocket:1.0's pocket-cli when devel:tools' does).
func markLinkersDirty(tx kv.Tx, project, pkg string) error {
	seen := map[[2]string]bool{{project, pkg}: true}
	queue := [][2]string{{project, pkg}}
	for len(queue) > 0 && len(seen) < maxLinkFollow {
		next := queue[0]
		queue = queue[1:]
		linkers, err := LinkingPackages(tx, next[0], next[1])
		if err != nil {
			return err
		}
		for _, l := range linkers {
			if seen[l] {
				continue
			}
			seen[l] = true
			if err := MarkDirty(tx, l[0]); err != nil {
				return err
			}
			queue = append(queue, l)
		}
	}
	return nil
}

// maxLinkFollow bounds the packages markLinkersDirty visits: link chains are short, and a
// package linked to by thousands (a popular branch source) queues each of their projects once.
const maxLinkFollow = 10000
