package buildapi

import (
	"encoding/xml"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Package sources: listings, file contents and history at any revision, links expanded on
// request (sourceview.go). The writes (direct PUT/DELETE, osc's commitfilelist) are in
// commits.go. emptylink and lastworking are accepted and ignored.

// bindFiles registers the file routes of a package. It runs after bindSources, so _meta is
// routed there; _history is registered before the :filename routes for the same reason.
func (a *api) bindFiles(r fiber.Router) {
	a.get(r, "/source/:project/:package/_history", a.getHistory)
	r.Post("/source/:project/:package", a.authenticated, a.postPackage)
	a.get(r, "/source/:project/:package/:filename", a.getFile)
	r.Put("/source/:project/:package/:filename", a.authenticated, a.putFile)
	r.Delete("/source/:project/:package/:filename", a.authenticated, a.deleteFile)
}

// fileDirXML is a package's file listing (BSXML dir), also the answer of commitfilelist: with
// error="missing" it lists the files osc must upload first.
type fileDirXML struct {
	XMLName  xml.Name       `xml:"directory"`
	Name     string         `xml:"name,attr"`
	Rev      string         `xml:"rev,attr,omitempty"`
	VRev     string         `xml:"vrev,attr,omitempty"`
	Srcmd5   string         `xml:"srcmd5,attr,omitempty"`
	Error    string         `xml:"error,attr,omitempty"`
	Linkinfo *linkinfoXML   `xml:"linkinfo"`
	Entries  []fileEntryXML `xml:"entry"`
}

// fileEntryXML is one file; size and mtime are strings so an empty file still shows size="0"
// while the missing-files answer leaves both out.
type fileEntryXML struct {
	Name  string `xml:"name,attr"`
	MD5   string `xml:"md5,attr"`
	Size  string `xml:"size,attr,omitempty"`
	MTime string `xml:"mtime,attr,omitempty"`
}

// dirDoc renders a revision as the listing of package name; a tree without a revision (an
// empty package, rev=0) has no rev and vrev.
func dirDoc(name string, r buildstore.Revision) fileDirXML {
	d := fileDirXML{Name: name, Srcmd5: r.SrcMD5}
	if r.SrcMD5 == uploadRev {
		d.Rev = uploadRev
	}
	if r.Rev > 0 {
		d.Rev, d.VRev = strconv.FormatUint(r.Rev, 10), strconv.FormatUint(r.VRev, 10)
	}
	for _, f := range r.Files {
		d.Entries = append(d.Entries, fileEntryXML{Name: f.Name, MD5: f.MD5,
			Size: strconv.FormatInt(f.Size, 10), MTime: strconv.FormatInt(f.MTime, 10)})
	}
	return d
}

var hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

// emptyTree is the tree of a package without commits.
var emptyTree = buildstore.Revision{SrcMD5: buildstore.EmptySrcMD5}

// uploadRev marks the pending upload tree: it has no revision number and its listing says
// rev="upload" srcmd5="upload", as the backend's.
const uploadRev = "upload"

// uploadTree is the pending upload laid over the newest tree; ok is false without an upload.
func uploadTree(tx *bbolt.Tx, project, pkg string) (buildstore.Revision, bool, error) {
	u, ok, err := buildstore.GetUpload(tx, project, pkg)
	if !ok || err != nil {
		return buildstore.Revision{}, false, err
	}
	files, err := latestFiles(tx, project, pkg)
	return buildstore.Revision{SrcMD5: uploadRev, Files: buildstore.Overlay(files, u.Files)}, true, err
}

// treeAt resolves ?rev=: absent or latest (the newest, or the empty tree), 0 (empty), upload
// (the pending upload), a revision number, or a 32-hex srcmd5 (the newest revision with that
// tree).
func treeAt(tx *bbolt.Tx, project, pkg, rev string) (buildstore.Revision, error) {
	if rev == uploadRev {
		r, ok, err := uploadTree(tx, project, pkg)
		if !ok && err == nil {
			return r, noSuchRevision()
		}
		return r, err
	}
	if rev == "" || rev == "latest" {
		r, ok, err := buildstore.LatestRevision(tx, project, pkg)
		if !ok {
			return emptyTree, err
		}
		return r, err
	}
	if hex32.MatchString(rev) {
		all, err := buildstore.Revisions(tx, project, pkg)
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].SrcMD5 == rev {
				return all[i], err
			}
		}
		if rev == buildstore.EmptySrcMD5 {
			return emptyTree, err
		}
		return buildstore.Revision{}, noSuchRevision()
	}
	n, err := strconv.ParseUint(rev, 10, 64)
	if err != nil {
		return buildstore.Revision{}, badRequest("invalid_revision", "bad revision '%s': a number, 'latest' or a srcmd5", rev)
	}
	if n == 0 {
		return emptyTree, nil
	}
	r, err := buildstore.GetRevision(tx, project, pkg, n)
	if err != nil {
		return r, noSuchRevision()
	}
	return r, nil
}

// noSuchRevision and noSuchFile are the backend's 404s, passed through with the numeric code.
func noSuchRevision() error {
	return &kit.Error{Status: http.StatusNotFound, Code: "404", Reason: "no such revision"}
}

func noSuchFile(name string) error {
	return &kit.Error{Status: http.StatusNotFound, Code: "404", Reason: name + ": no such file"}
}

// checkFileName refuses names the backend refuses: empty, with "/" or "..", control
// characters, and the names of the package's own sub-resources.
func checkFileName(name string) error {
	bad := name == "" || name == "." || strings.Contains(name, "/") || strings.Contains(name, "..") ||
		name == "_meta" || name == "_history" || len(name) > 200 ||
		strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f })
	if bad {
		return badRequest("invalid_filename", "'%s' is not a valid filename", name)
	}
	return nil
}

// viewTree reads the package's tree as the request asks for it (see requestView) and stores
// an expansion the read made.
func (a *api) viewTree(c *fiber.Ctx) (sourceView, error) {
	project, pkg := pathParam(c, "project"), pathParam(c, "package")
	var v sourceView
	err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		v, err = requestView(tx, c, project, pkg, true)
		return err
	})
	if err != nil {
		return v, err
	}
	return v, a.storeExpansion(project, pkg, v)
}

// getPackage lists the package's files at ?rev= (default: the newest revision), with
// <linkinfo> for a link and its expansion with ?expand=1.
func (a *api) getPackage(c *fiber.Ctx) error {
	switch view := c.Query("view"); view {
	case "info":
		return a.packageInfo(c)
	case "cpio":
		return a.packageCpio(c)
	case "":
	default:
		return badRequest("400", "unknown view '%s' (info or cpio)", view)
	}
	if boolParam(c, "meta") {
		return a.getMetaListing(c)
	}
	v, err := a.viewTree(c)
	if err != nil {
		return err
	}
	return sendXML(c, listingDoc(pathParam(c, "package"), v))
}

// getFile answers a file's bytes at ?rev= (expanded with ?expand=1), as
// application/octet-stream.
func (a *api) getFile(c *fiber.Ctx) error {
	name := pathParam(c, "filename")
	if err := checkFileName(name); err != nil {
		return err
	}
	var data []byte
	err := a.Store.View(func(tx *bbolt.Tx) error {
		v, err := requestView(tx, c, pathParam(c, "project"), pathParam(c, "package"), false)
		if err != nil {
			return err
		}
		f, ok := v.tree.File(name)
		if !ok {
			return noSuchFile(name)
		}
		data, err = v.content(tx, f.MD5)
		return err
	})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/octet-stream")
	return c.Send(data)
}

// revisionXML is one revision: the answer of a direct PUT and an element of _history.
type revisionXML struct {
	XMLName xml.Name `xml:"revision"`
	Rev     uint64   `xml:"rev,attr"`
	VRev    uint64   `xml:"vrev,attr"`
	Srcmd5  string   `xml:"srcmd5"`
	Version string   `xml:"version"`
	Time    int64    `xml:"time"`
	User    string   `xml:"user"`
	Comment string   `xml:"comment,omitempty"`
}

func revisionDoc(r buildstore.Revision) revisionXML {
	return revisionXML{Rev: r.Rev, VRev: r.VRev, Srcmd5: r.SrcMD5, Version: r.Version, Time: r.Time, User: r.User, Comment: r.Comment}
}

type revisionListXML struct {
	XMLName   xml.Name      `xml:"revisionlist"`
	Revisions []revisionXML `xml:"revision"`
}

// getHistory lists the package's revisions oldest first (osc log prints them newest first);
// ?rev=N keeps only that one; ?meta=1 lists the meta history instead.
func (a *api) getHistory(c *fiber.Ctx) error {
	if boolParam(c, "meta") {
		return a.getMetaHistory(c)
	}
	project, pkg := pathParam(c, "project"), pathParam(c, "package")
	var all []buildstore.Revision
	err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		if _, _, err := lookupPackage(tx, project, pkg); err != nil {
			return err
		}
		if err := sourcesReadable(tx, personOf(c), project, pkg); err != nil {
			return err
		}
		all, err = buildstore.Revisions(tx, project, pkg)
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, historyDoc(all, c.Query("rev")))
}
