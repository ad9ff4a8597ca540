package buildapi

import (
	"errors"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The source writes: a direct PUT or DELETE of one file (each a commit), a blob upload with
// ?rev=repository, a file of the upload revision with ?rev=upload (committed by cmd=commit,
// see sources_upload.go), and osc's POST ?cmd=commitfilelist. Every commit is
// buildsvc.Service.Commit; these handlers only read the request and render its answer.

// putFile stores a file. ?rev=repository keeps the blob only (osc then names it in
// commitfilelist); ?rev=upload adds it to the pending upload revision (cmd=commit commits it);
// without rev the newest tree plus this file is committed at once.
func (a *api) putFile(c *fiber.Ctx) error {
	project, pkg, name, who := pathParam(c, "project"), pathParam(c, "package"), pathParam(c, "filename"), personOf(c)
	body := slices.Clone(c.Body())
	switch c.Query("rev") {
	case "repository":
		return sendOKUnless(c, a.Svc.UploadBlob(who, project, pkg, name, body))
	case buildsvc.UploadRev:
		return sendOKUnless(c, a.Svc.AddUpload(who, project, pkg, name, body))
	}
	done, err := a.Svc.Commit(who, project, pkg, buildsvc.PutFile(name, body), buildsvc.CommitOptions{Comment: strings.Clone(c.Query("comment"))})
	if err != nil {
		return err
	}
	return sendXML(c, revisionDoc(done.Revision))
}

// deleteFile commits the newest tree without the file.
func (a *api) deleteFile(c *fiber.Ctx) error {
	_, err := a.Svc.Commit(personOf(c), pathParam(c, "project"), pathParam(c, "package"), buildsvc.DeleteFile(pathParam(c, "filename")),
		buildsvc.CommitOptions{Comment: strings.Clone(c.Query("comment"))})
	return sendOKUnless(c, err)
}

// sendOKUnless answers err, or the <status code="ok"> of a write without it.
func sendOKUnless(c *fiber.Ctx, err error) error {
	if err != nil {
		return err
	}
	return sendOK(c)
}

// fileListXML is commitfilelist's body: the complete new file set by name and md5.
type fileListXML struct {
	Entries []struct {
		Name string `xml:"name,attr"`
		MD5  string `xml:"md5,attr"`
	} `xml:"entry"`
}

// parseFileList reads a commitfilelist body within metadoc's bounds (buildsvc.FileList checks
// the entries).
func parseFileList(body []byte) ([]buildstore.FileEntry, error) {
	var d fileListXML
	if err := metadoc.Unmarshal(body, &d); err != nil {
		var tooMany *metadoc.TooManyError
		if errors.As(err, &tooMany) {
			return nil, buildsvc.Invalid("file list", "%v", err)
		}
		return nil, buildsvc.BadRequest("invalid_xml", "the file list is not a <directory> document: %v", err)
	}
	files := make([]buildstore.FileEntry, 0, len(d.Entries))
	for _, e := range d.Entries {
		files = append(files, buildstore.FileEntry{Name: e.Name, MD5: e.MD5})
	}
	return files, nil
}

// commitFileList commits the listed file set. When some content is not stored yet it answers
// the listing with error="missing" and those entries, and osc uploads them with
// ?rev=repository and asks again. The committer is the authenticated person, not ?user=.
// With keeplink=1 the list is a link's expanded tree, stored back as the link.
func (a *api) commitFileList(c *fiber.Ctx) error {
	files, err := parseFileList(c.Body())
	if err != nil {
		return err
	}
	pkg := pathParam(c, "package")
	done, err := a.Svc.Commit(personOf(c), pathParam(c, "project"), pkg, buildsvc.FileList(files), buildsvc.CommitOptions{
		Comment: strings.Clone(c.Query("comment")), KeepLink: boolParam(c, "keeplink"), LinkRev: strings.Clone(c.Query("linkrev")), Listing: true})
	if err != nil {
		return err
	}
	return sendXML(c, committedDoc(pkg, done))
}

// committedDoc is the answer of a commit that shows the listing: the new revision's, or the
// files osc must upload first (error="missing", name and md5 only).
func committedDoc(pkg string, done buildsvc.Committed) fileDirXML {
	if len(done.Missing) == 0 {
		return listingDoc(pkg, done.View)
	}
	doc := fileDirXML{Name: pkg, Error: "missing"}
	for _, f := range done.Missing {
		doc.Entries = append(doc.Entries, fileEntryXML{Name: f.Name, MD5: f.MD5})
	}
	return doc
}
