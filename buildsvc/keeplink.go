package buildsvc

import (
	"slices"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// KeepLink turns the expanded file set that osc commits from a link checkout (keeplink=1)
// back into a link tree, so the package stays a link:
//   - a branch link keeps full copies: the files as sent, and the _link's baserev moves to
//     the target tree the commit was made against (from now on, files equal to it follow the
//     target);
//   - a plain link keeps only what differs from the target: changed and added files as
//     overlays and a <delete/> per target file left out. Its add/apply/topadd patches are
//     dropped, because their effect is part of the files sent.
//
// A package that is not a link is committed as sent.
func KeepLink(tx kv.Tx, project, pkg string, files []buildstore.FileEntry, linkrev string) ([]buildstore.FileEntry, error) {
	cur, _, err := buildstore.LatestRevision(tx, project, pkg)
	if err != nil {
		return nil, err
	}
	lf, isLink := cur.File(buildstore.LinkFile)
	if !isLink {
		return files, nil
	}
	data, err := buildstore.GetBlob(tx, lf.MD5)
	if err != nil {
		return nil, err
	}
	l, err := buildstore.ParseLink(data)
	if err != nil {
		return nil, LinkError(err.Error())
	}
	target, msg, err := TargetTree(tx, project, pkg, l, linkrev)
	if err != nil {
		return nil, err
	}
	if msg != "" {
		return nil, LinkError(msg)
	}
	files = slices.DeleteFunc(slices.Clone(files), func(f buildstore.FileEntry) bool { return f.Name == buildstore.LinkFile })
	var out []buildstore.FileEntry
	if l.IsBranch() {
		l.BaseRev = target.SrcMD5
		out = files
	} else {
		l.Patches = nil
		sent := map[string]bool{}
		for _, f := range files {
			sent[f.Name] = true
			if t, ok := target.File(f.Name); !ok || t.MD5 != f.MD5 {
				out = append(out, f)
			}
		}
		for _, t := range target.Files {
			if !sent[t.Name] {
				l.Patches = append(l.Patches, buildstore.Patch{Kind: "delete", Name: t.Name})
			}
		}
	}
	link := lf
	if rendered := l.Render(); string(rendered) != string(data) {
		if link.MD5, err = buildstore.PutBlob(tx, rendered); err != nil {
			return nil, err
		}
	}
	return append(out, buildstore.FileEntry{Name: buildstore.LinkFile, MD5: link.MD5}), nil
}
