package buildsvc

import (
	"regexp"
	"strconv"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// A package tree as a request asks for it: a revision (?rev=), unexpanded or — for a link —
// expanded (?expand=1, or a ?rev= that is an xsrcmd5), against the target's newest tree or
// ?linkrev=. Listings, file reads, diffs and copies all resolve their trees here, so the link
// rules live in one place.

// SourceView is a resolved package tree.
type SourceView struct {
	// Tree is the revision shown.
	Tree buildstore.Revision
	// Link is the <linkinfo> to show; nil for a package that is not a link.
	Link *buildstore.LinkInfo
	// Expanded marks an expanded link tree: the listing's rev and srcmd5 are its xsrcmd5.
	Expanded bool
	// Pending is an expansion made for this request and not stored yet; storing it lets a
	// later ?rev=<xsrcmd5> find the same tree (osc checks branches out that way).
	Pending *buildstore.Expansion
}

// Content reads one file of the view: contents an unstored expansion made, else the blob.
func (v SourceView) Content(tx kv.Tx, sum string) ([]byte, error) {
	if v.Pending != nil {
		return v.Pending.Content(tx, sum)
	}
	return buildstore.GetBlob(tx, sum)
}

// IsMD5 reports whether s is a 32-digit lower-case hex digest (a srcmd5 or xsrcmd5).
func IsMD5(s string) bool { return hex32.MatchString(s) }

var hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

// EmptyTree is the tree of a package without commits.
var EmptyTree = buildstore.Revision{SrcMD5: buildstore.EmptySrcMD5}

// UploadRev marks the pending upload tree: it has no revision number and its listing says
// rev="upload" srcmd5="upload", as the backend's.
const UploadRev = "upload"

// ResolveView resolves rev (see TreeAt) and, for a link, its expansion. expand asks for the
// expanded tree; an xsrcmd5 as rev always gives it.
func ResolveView(tx kv.Tx, project, pkg, rev string, expand bool, linkrev string) (SourceView, error) {
	if IsMD5(rev) {
		if x, err := buildstore.GetExpansion(tx, project, pkg, rev); err == nil {
			info := x.Info
			info.XSrcMD5 = ""
			return SourceView{Tree: buildstore.Revision{SrcMD5: rev, VRev: x.VRev, Version: x.Version, Files: x.Files}, Link: &info, Expanded: true}, nil
		}
	}
	r, err := TreeAt(tx, project, pkg, rev)
	if err != nil {
		return SourceView{}, err
	}
	e, isLink, err := Expand(tx, project, pkg, r, linkrev)
	if err != nil || !isLink {
		return SourceView{Tree: r}, err
	}
	var pending *buildstore.Expansion
	if e.Info.Error == "" && !buildstore.HasExpansion(tx, project, pkg, e.Info.XSrcMD5) {
		pending = &e
	}
	info := e.Info
	if !expand {
		info.LSrcMD5 = "" // the unexpanded listing names the expansion, not itself
		return SourceView{Tree: r, Link: &info, Pending: pending}, nil
	}
	if e.Info.Error != "" {
		return SourceView{}, LinkError(e.Info.Error)
	}
	info.XSrcMD5 = ""
	// Rev stays the link's revision number: a diff labels the tree with it and finds the
	// revision before it.
	return SourceView{Tree: buildstore.Revision{Rev: r.Rev, SrcMD5: e.Info.XSrcMD5, VRev: e.VRev, Version: e.Version, Files: e.Files},
		Link: &info, Expanded: true, Pending: pending}, nil
}

// RequestView resolves the view a read by who asks for with rev, expand and linkrev (404 for
// a missing project or package first). A plain listing without rev prefers a pending upload
// (preferUpload), as the backend's does; a file read does not.
func RequestView(tx kv.Tx, who buildstore.Person, project, pkg, rev string, expand bool, linkrev string, preferUpload bool) (SourceView, error) {
	if _, _, err := LookupPackage(tx, project, pkg); err != nil {
		return SourceView{}, err
	}
	if _, pending, err := buildstore.GetUpload(tx, project, pkg); preferUpload && rev == "" && pending && err == nil {
		rev = UploadRev
	}
	return ReadView(tx, who, project, pkg, rev, expand, linkrev)
}

// StoreExpansion keeps an expansion a read made (once per xsrcmd5; later reads find it).
func (s *Service) StoreExpansion(project, pkg string, v SourceView) error {
	if v.Pending == nil {
		return nil
	}
	return s.db.Write(func(tx kv.Tx) error { return buildstore.PutExpansion(tx, project, pkg, *v.Pending) })
}

// CommittedView is the view a commit answers: the new revision unexpanded, with its linkinfo
// when it is a link, the expansion stored in the same transaction (osc reads the xsrcmd5 and
// asks for that tree next).
func CommittedView(tx kv.Tx, project, pkg string, r buildstore.Revision) (SourceView, error) {
	v, err := ResolveView(tx, project, pkg, strconv.FormatUint(r.Rev, 10), false, "")
	if err != nil {
		return SourceView{}, err
	}
	if v.Pending != nil {
		if err := buildstore.PutExpansion(tx, project, pkg, *v.Pending); err != nil {
			return SourceView{}, err
		}
		v.Pending = nil
	}
	return v, nil
}

// UploadTree is the pending upload laid over the newest tree; ok is false without an upload.
func UploadTree(tx kv.Tx, project, pkg string) (buildstore.Revision, bool, error) {
	u, ok, err := buildstore.GetUpload(tx, project, pkg)
	if !ok || err != nil {
		return buildstore.Revision{}, false, err
	}
	files, err := LatestFiles(tx, project, pkg)
	return buildstore.Revision{SrcMD5: UploadRev, Files: buildstore.Overlay(files, u.Files)}, true, err
}

// LatestFiles is the newest tree's file list (none for a package without commits).
func LatestFiles(tx kv.Tx, project, pkg string) ([]buildstore.FileEntry, error) {
	r, _, err := buildstore.LatestRevision(tx, project, pkg)
	return r.Files, err
}

// TreeAt resolves a rev: absent or latest (the newest, or the empty tree), 0 (empty), upload
// (the pending upload), a revision number, or a 32-hex srcmd5 (the newest revision with that
// tree).
func TreeAt(tx kv.Tx, project, pkg, rev string) (buildstore.Revision, error) {
	if rev == UploadRev {
		r, ok, err := UploadTree(tx, project, pkg)
		if !ok && err == nil {
			return r, NoSuchRevision()
		}
		return r, err
	}
	if rev == "" || rev == "latest" {
		r, ok, err := buildstore.LatestRevision(tx, project, pkg)
		if !ok {
			return EmptyTree, err
		}
		return r, err
	}
	if IsMD5(rev) {
		all, err := buildstore.Revisions(tx, project, pkg)
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].SrcMD5 == rev {
				return all[i], err
			}
		}
		if rev == buildstore.EmptySrcMD5 {
			return EmptyTree, err
		}
		return buildstore.Revision{}, NoSuchRevision()
	}
	n, err := strconv.ParseUint(rev, 10, 64)
	if err != nil {
		return buildstore.Revision{}, BadRequest("invalid_revision", "bad revision '%s': a number, 'latest' or a srcmd5", rev)
	}
	if n == 0 {
		return EmptyTree, nil
	}
	r, err := buildstore.GetRevision(tx, project, pkg, n)
	if err != nil {
		return r, NoSuchRevision()
	}
	return r, nil
}
