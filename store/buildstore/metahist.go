package buildstore

import (
	"strconv"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// A package's meta has a history of its own, as on the real service (_history?meta=1,
// ?meta=1 listings, _meta?rev=N): every meta write appends a revision whose tree is the one
// file _meta, the document as it was rendered then. It sits in its own bucket under the same
// keys as the source revisions.

// MetaFile is the one file of a meta revision.
const MetaFile = "_meta"

// CommitMeta appends a meta revision holding the rendered document meta.
func CommitMeta(tx kv.Tx, project, pkg string, meta []byte, user, comment string, now time.Time) (Revision, error) {
	var last Revision
	if err := walkBack(tx, store.BuildMetaRevisions, project, pkg, func(r Revision) bool { last = r; return false }); err != nil {
		return Revision{}, err
	}
	sum, err := PutBlob(tx, meta)
	if err != nil {
		return Revision{}, err
	}
	tree := []FileEntry{{Name: MetaFile, MD5: sum, Size: int64(len(meta)), MTime: now.Unix()}}
	r := Revision{Rev: last.Rev + 1, VRev: last.Rev + 1, SrcMD5: SrcMD5(tree), Version: "unknown", Time: now.Unix(),
		User: user, Comment: comment, Files: tree}
	return r, store.Put(tx, store.BuildMetaRevisions, revisionKey(project, pkg, r.Rev), r)
}

// MetaRevisions lists a package's meta revisions, oldest first.
func MetaRevisions(tx kv.Tx, project, pkg string) ([]Revision, error) {
	var out []Revision
	err := store.Each(tx, store.BuildMetaRevisions, revisionPrefix(project, pkg), func(_ []byte, r Revision) (bool, error) {
		out = append(out, r)
		return true, nil
	})
	return out, err
}

// MetaRevision returns meta revision rev ("" or "latest": the newest); found is false when
// there is none.
func MetaRevision(tx kv.Tx, project, pkg, rev string) (r Revision, found bool, err error) {
	all, err := MetaRevisions(tx, project, pkg)
	if err != nil || len(all) == 0 {
		return Revision{}, false, err
	}
	if rev == "" || rev == "latest" {
		return all[len(all)-1], true, nil
	}
	for _, x := range all {
		if x.SrcMD5 == rev || rev == strconv.FormatUint(x.Rev, 10) {
			return x, true, nil
		}
	}
	return Revision{}, false, nil
}

// deleteMetaRevisions drops a package's meta history (a purge).
func deleteMetaRevisions(tx kv.Tx, project, pkg string) error {
	return store.DeletePrefix(tx, store.BuildMetaRevisions, revisionPrefix(project, pkg))
}
