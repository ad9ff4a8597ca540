package buildapi

import (
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Package sources: listings, file contents and history at any revision, links expanded on
// request (sources_listing.go renders them). The writes (direct PUT/DELETE, osc's
// commitfilelist) are in sources_commit.go. emptylink and lastworking are accepted and ignored;
// ?extension= filters the listing.

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
	if r.SrcMD5 == buildsvc.UploadRev {
		d.Rev = buildsvc.UploadRev
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

// treeOptions reads which tree a GET asks for: ?rev=, ?expand= and ?linkrev=.
func treeOptions(c *fiber.Ctx) buildsvc.TreeOptions {
	return buildsvc.TreeOptions{Rev: c.Query("rev"), Expand: boolParam(c, "expand"), LinkRev: c.Query("linkrev")}
}

// viewTree is the listing view the request asks for (see buildsvc.Service.Listing).
func (a *api) viewTree(c *fiber.Ctx) (buildsvc.SourceView, error) {
	return a.Svc.Listing(personOf(c), pathParam(c, "project"), pathParam(c, "package"), treeOptions(c))
}

// getPackage lists the package's files at ?rev= (default: the newest revision), with
// <linkinfo> for a link and its expansion with ?expand=1.
func (a *api) getPackage(c *fiber.Ctx) error {
	switch view := c.Query("view"); view {
	case "info":
		return a.packageInfo(c)
	case "cpio":
		return a.packageCpio(c)
	case "issues":
		return a.packageIssues(c)
	case "products":
		return a.packageProducts(c)
	case "":
	default:
		return buildsvc.BadRequest("400", "unknown view '%s' (info, cpio, issues or products)", view)
	}
	if boolParam(c, "meta") {
		return a.getMetaListing(c)
	}
	ext := c.Query("extension")
	if !validExtension(ext) {
		return buildsvc.BadRequest("invalid_parameter", "invalid extension '%s' (letters, digits and . _ + -, at most 64)", ext)
	}
	v, err := a.viewTree(c)
	if err != nil {
		return err
	}
	d := listingDoc(pathParam(c, "package"), v)
	if ext != "" {
		d.Entries = withExtension(d.Entries, ext)
	}
	return sendXML(c, d)
}

// withExtension keeps the entries whose name ends in "."+ext (?extension=spec lists the spec
// files; the webui asks so). The directory's rev and srcmd5 stay the revision's: the filter is
// of the listing, not of the tree.
func withExtension(entries []fileEntryXML, ext string) []fileEntryXML {
	out := entries[:0]
	for _, e := range entries {
		if strings.HasSuffix(e.Name, "."+ext) {
			out = append(out, e)
		}
	}
	return out
}

// validExtension accepts an empty extension (no filter) or a short file-name suffix.
func validExtension(ext string) bool {
	if len(ext) > 64 {
		return false
	}
	for _, r := range ext {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._+-", r)) {
			return false
		}
	}
	return true
}

// getFile answers a file's bytes at ?rev= (expanded with ?expand=1), as
// application/octet-stream.
func (a *api) getFile(c *fiber.Ctx) error {
	data, err := a.Svc.ReadFile(personOf(c), pathParam(c, "project"), pathParam(c, "package"), pathParam(c, "filename"), treeOptions(c))
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
	// RequestID is the request whose accept made the revision.
	RequestID uint64 `xml:"requestid,omitempty"`
}

func revisionDoc(r buildstore.Revision) revisionXML {
	return revisionXML{Rev: r.Rev, VRev: r.VRev, Srcmd5: r.SrcMD5, Version: r.Version, Time: r.Time, User: r.User, Comment: r.Comment, RequestID: r.RequestID}
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
	all, err := a.Svc.History(personOf(c), pathParam(c, "project"), pathParam(c, "package"))
	if err != nil {
		return err
	}
	return sendXML(c, historyDoc(all, c.Query("rev")))
}
