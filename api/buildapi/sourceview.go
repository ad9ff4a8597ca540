package buildapi

import (
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// A package tree as a request asks for it: a revision (?rev=), unexpanded or — for a link —
// expanded (?expand=1, or a ?rev= that is an xsrcmd5), against the target's newest tree or
// ?linkrev=. Listings, file reads, diffs and copies all resolve their trees here, so the link
// rules live in one place.

// sourceView is a resolved package tree.
type sourceView struct {
	tree buildstore.Revision
	// link is the <linkinfo> to show; nil for a package that is not a link.
	link *buildstore.LinkInfo
	// expanded marks an expanded link tree: the listing's rev and srcmd5 are its xsrcmd5.
	expanded bool
	// exp is an expansion made for this request and not stored yet; storing it lets a later
	// ?rev=<xsrcmd5> find the same tree (osc checks branches out that way).
	exp *buildstore.Expansion
}

// content reads one file of the view: contents an unstored expansion made, else the blob.
func (v sourceView) content(tx *bbolt.Tx, sum string) ([]byte, error) {
	if v.exp != nil {
		return v.exp.Content(tx, sum)
	}
	return buildstore.GetBlob(tx, sum)
}

// linkError is the answer to a request for the expanded tree of a broken link: the backend's
// 400 with the reason (osc prints it).
func linkError(msg string) error {
	return &kit.Error{Status: http.StatusBadRequest, Code: "400", Reason: msg}
}

// resolveView resolves rev (see treeAt) and, for a link, its expansion. expand asks for the
// expanded tree; an xsrcmd5 as rev always gives it.
func resolveView(tx *bbolt.Tx, project, pkg, rev string, expand bool, linkrev string) (sourceView, error) {
	if hex32.MatchString(rev) {
		if x, err := buildstore.GetExpansion(tx, project, pkg, rev); err == nil {
			info := x.Info
			info.XSrcMD5 = ""
			return sourceView{tree: buildstore.Revision{SrcMD5: rev, VRev: x.VRev, Version: x.Version, Files: x.Files}, link: &info, expanded: true}, nil
		}
	}
	r, err := treeAt(tx, project, pkg, rev)
	if err != nil {
		return sourceView{}, err
	}
	e, isLink, err := buildstore.Expand(tx, project, pkg, r, linkrev)
	if err != nil || !isLink {
		return sourceView{tree: r}, err
	}
	var pending *buildstore.Expansion
	if e.Info.Error == "" && !buildstore.HasExpansion(tx, project, pkg, e.Info.XSrcMD5) {
		pending = &e
	}
	info := e.Info
	if !expand {
		info.LSrcMD5 = "" // the unexpanded listing names the expansion, not itself
		return sourceView{tree: r, link: &info, exp: pending}, nil
	}
	if e.Info.Error != "" {
		return sourceView{}, linkError(e.Info.Error)
	}
	info.XSrcMD5 = ""
	// Rev stays the link's revision number: a diff labels the tree with it and finds the
	// revision before it.
	return sourceView{tree: buildstore.Revision{Rev: r.Rev, SrcMD5: e.Info.XSrcMD5, VRev: e.VRev, Version: e.Version, Files: e.Files},
		link: &info, expanded: true, exp: pending}, nil
}

// requestView resolves the view a GET asks for by ?rev=, ?expand= and ?linkrev= (404 for a
// missing project or package first). A plain listing without rev prefers a pending upload
// (preferUpload), as the backend's does; a file read does not.
func requestView(tx *bbolt.Tx, c *fiber.Ctx, project, pkg string, preferUpload bool) (sourceView, error) {
	if _, _, err := lookupPackage(tx, project, pkg); err != nil {
		return sourceView{}, err
	}
	rev := c.Query("rev")
	if _, pending, err := buildstore.GetUpload(tx, project, pkg); preferUpload && rev == "" && pending && err == nil {
		rev = uploadRev
	}
	return readView(tx, personOf(c), project, pkg, rev, boolParam(c, "expand"), c.Query("linkrev"))
}

// storeExpansion keeps an expansion a read made (once per xsrcmd5; later reads find it).
func (a *api) storeExpansion(project, pkg string, v sourceView) error {
	if v.exp == nil {
		return nil
	}
	return a.Store.Write(func(tx *bbolt.Tx) error { return buildstore.PutExpansion(tx, project, pkg, *v.exp) })
}

// linkinfoXML is <linkinfo>: the target, the target tree used, and either the expansion's
// xsrcmd5 (unexpanded listing), the link's own srcmd5 (expanded listing) or the link error.
type linkinfoXML struct {
	Project   string `xml:"project,attr"`
	Package   string `xml:"package,attr"`
	Srcmd5    string `xml:"srcmd5,attr,omitempty"`
	BaseRev   string `xml:"baserev,attr,omitempty"`
	Rev       string `xml:"rev,attr,omitempty"`
	XSrcmd5   string `xml:"xsrcmd5,attr,omitempty"`
	LSrcmd5   string `xml:"lsrcmd5,attr,omitempty"`
	Error     string `xml:"error,attr,omitempty"`
	MissingOK string `xml:"missingok,attr,omitempty"`
}

// listingDoc renders a view as the package's directory listing.
func listingDoc(name string, v sourceView) fileDirXML {
	d := dirDoc(name, v.tree)
	if v.expanded {
		d.Rev, d.VRev = v.tree.SrcMD5, strconv.FormatUint(v.tree.VRev, 10)
	}
	if l := v.link; l != nil {
		d.Linkinfo = &linkinfoXML{Project: l.Project, Package: l.Package, Srcmd5: l.SrcMD5, BaseRev: l.BaseRev, Rev: l.Rev,
			XSrcmd5: l.XSrcMD5, LSrcmd5: l.LSrcMD5, Error: l.Error}
		if l.MissingOK {
			d.Linkinfo.MissingOK = "true"
		}
	}
	return d
}

// committedView is the listing a commit answers: the new revision unexpanded, with its
// linkinfo when it is a link, the expansion stored in the same transaction (osc reads the
// xsrcmd5 and asks for that tree next).
func committedView(tx *bbolt.Tx, project, pkg string, r buildstore.Revision) (fileDirXML, error) {
	v, err := resolveView(tx, project, pkg, strconv.FormatUint(r.Rev, 10), false, "")
	if err != nil {
		return fileDirXML{}, err
	}
	if v.exp != nil {
		if err := buildstore.PutExpansion(tx, project, pkg, *v.exp); err != nil {
			return fileDirXML{}, err
		}
	}
	return listingDoc(pkg, v), nil
}
