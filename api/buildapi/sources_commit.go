package buildapi

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// The source writes: a direct PUT or DELETE of one file (each a commit), a blob upload with
// ?rev=repository, a file of the upload revision with ?rev=upload (committed by cmd=commit,
// see pkgcmds.go), and osc's POST ?cmd=commitfilelist.

// withoutFile drops name from files.
func withoutFile(files []buildstore.FileEntry, name string) []buildstore.FileEntry {
	return slices.DeleteFunc(slices.Clone(files), func(f buildstore.FileEntry) bool { return f.Name == name })
}

// putFile stores a file. ?rev=repository keeps the blob only (osc then names it in
// commitfilelist); ?rev=upload adds it to the pending upload revision (cmd=commit commits it);
// without rev the newest tree plus this file is committed at once.
func (a *api) putFile(c *fiber.Ctx) error {
	name := pathParam(c, "filename")
	if err := checkFileName(name); err != nil {
		return err
	}
	if a.FileLimit > 0 && int64(len(c.Body())) > a.FileLimit {
		return &kit.Error{Status: http.StatusRequestEntityTooLarge, Code: "file_too_large",
			Reason: fmt.Sprintf("file '%s' is %d bytes, more than this service takes (%d bytes, --source-file-limit)", name, len(c.Body()), a.FileLimit)}
	}
	rev := c.Query("rev")
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	body, comment := slices.Clone(c.Body()), strings.Clone(c.Query("comment"))
	var r buildstore.Revision
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "put_file_no_permission"); err != nil {
			return err
		}
		if name == buildstore.LinkFile {
			if err := buildsvc.CheckLink(body); err != nil {
				return err
			}
		}
		if rev == "repository" {
			_, err := buildstore.PutPendingBlob(tx, body, a.Clock.Now())
			return err
		}
		sum, err := buildstore.PutBlob(tx, body)
		if err != nil {
			return err
		}
		if rev == "upload" {
			f := buildstore.FileEntry{Name: name, MD5: sum, Size: int64(len(body)), MTime: a.Clock.Now().Unix()}
			return buildstore.AddUpload(tx, project, pkg, f)
		}
		files, err := buildsvc.LatestFiles(tx, project, pkg)
		if err != nil {
			return err
		}
		files = append(withoutFile(files, name), buildstore.FileEntry{Name: name, MD5: sum})
		r, err = buildstore.Commit(tx, project, pkg, files, who.Login, comment, a.Clock.Now())
		return err
	})
	if err != nil {
		return err
	}
	if rev == "repository" || rev == "upload" {
		return sendOK(c)
	}
	return sendXML(c, revisionDoc(r))
}

// deleteFile commits the newest tree without the file.
func (a *api) deleteFile(c *fiber.Ctx) error {
	name := pathParam(c, "filename")
	if err := checkFileName(name); err != nil {
		return err
	}
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	comment := strings.Clone(c.Query("comment"))
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "delete_file_no_permission"); err != nil {
			return err
		}
		files, err := buildsvc.LatestFiles(tx, project, pkg)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(files, func(f buildstore.FileEntry) bool { return f.Name == name }) {
			return buildsvc.NoSuchFile(name)
		}
		_, err = buildstore.Commit(tx, project, pkg, withoutFile(files, name), who.Login, comment, a.Clock.Now())
		return err
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// servicesXML is the empty project-services list: no source services run here, and osc asks
// before every commit.
type servicesXML struct {
	XMLName xml.Name `xml:"services"`
}

// postPackage runs a package command (?cmd=): osc's commit, the upload revision, undelete,
// copy, diff, the link commands (branch.go) and the rest (pkgmore.go).
func (a *api) postPackage(c *fiber.Ctx) error {
	if ok, err := a.packageRecordCmd(c); ok {
		return err
	}
	switch cmd := c.Query("cmd"); cmd {
	case "commit":
		return a.commitUpload(c)
	case "deleteuploadrev":
		return a.deleteUploadRev(c)
	case "undelete":
		return a.undeletePackage(c)
	case "copy":
		return a.copyPackage(c)
	case "diff":
		return a.diffPackage(c)
	case "getprojectservices":
		if _, err := a.viewTree(c); err != nil {
			return err
		}
		return sendXML(c, servicesXML{})
	case "commitfilelist":
		return a.commitFileList(c)
	case "branch":
		return a.branchPackage(c)
	case "linktobranch":
		return a.linkToBranch(c)
	case "showlinked":
		return a.showLinkedPackages(c)
	case "linkdiff":
		return a.linkDiff(c)
	case "createSpecFileTemplate":
		return a.createSpecFileTemplate(c)
	case "":
		return buildsvc.BadRequest("missing_parameter", "POST %s needs a cmd parameter", c.Path())
	default:
		if _, farm := packageFarmCommands[cmd]; farm {
			return a.farmPackageCmd(c, cmd)
		}
		return buildsvc.BadRequest("illegal_request", "unsupported POST command %s to %s", cmd, c.Path())
	}
}

// fileListXML is commitfilelist's body: the complete new file set by name and md5.
type fileListXML struct {
	Entries []struct {
		Name string `xml:"name,attr"`
		MD5  string `xml:"md5,attr"`
	} `xml:"entry"`
}

// parseFileList reads and checks a commitfilelist body: valid names, each once, hex md5s.
func parseFileList(body []byte) ([]buildstore.FileEntry, error) {
	var d fileListXML
	if err := xml.Unmarshal(body, &d); err != nil {
		return nil, buildsvc.BadRequest("invalid_xml", "the file list is not a <directory> document: %v", err)
	}
	var files []buildstore.FileEntry
	seen := map[string]bool{}
	for _, e := range d.Entries {
		if err := checkFileName(e.Name); err != nil {
			return nil, err
		}
		if !buildsvc.IsMD5(e.MD5) || seen[e.Name] {
			return nil, buildsvc.BadRequest("invalid_xml", "entry '%s': each file once, with a 32-hex md5", e.Name)
		}
		seen[e.Name] = true
		files = append(files, buildstore.FileEntry{Name: e.Name, MD5: e.MD5})
	}
	return files, nil
}

// commitFileList commits the listed file set. When some content is not stored yet it answers
// the listing with error="missing" and those entries, and osc uploads them with
// ?rev=repository and asks again. The committer is the authenticated person, not ?user=.
// With keeplink=1 the list is a link's expanded tree, stored back as the link (keeplink.go).
func (a *api) commitFileList(c *fiber.Ctx) error {
	files, err := parseFileList(c.Body())
	if err != nil {
		return err
	}
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	comment := strings.Clone(c.Query("comment"))
	var doc fileDirXML
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "put_file_no_permission"); err != nil {
			return err
		}
		doc = fileDirXML{Name: pkg, Error: "missing"}
		for _, f := range files {
			if !buildstore.HasBlob(tx, f.MD5) {
				doc.Entries = append(doc.Entries, fileEntryXML{Name: f.Name, MD5: f.MD5})
			}
		}
		if len(doc.Entries) > 0 {
			return nil
		}
		for _, f := range files {
			if f.Name != buildstore.LinkFile {
				continue
			}
			data, err := buildstore.GetBlob(tx, f.MD5)
			if err != nil {
				return err
			}
			if err := buildsvc.CheckLink(data); err != nil {
				return err
			}
		}
		if boolParam(c, "keeplink") {
			if files, err = buildsvc.KeepLink(tx, project, pkg, files, c.Query("linkrev")); err != nil {
				return err
			}
		}
		r, err := buildstore.Commit(tx, project, pkg, files, who.Login, comment, a.Clock.Now())
		if err != nil {
			return err
		}
		doc, err = committedView(tx, project, pkg, r)
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, doc)
}
