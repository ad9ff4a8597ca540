package buildsvc

import (
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The commit: every way the API writes a package's sources — a direct PUT or DELETE of one
// file, osc's commitfilelist, cmd=commit of the upload revision — makes a new revision here,
// so who may commit, which _link is accepted, keeplink, the revision record and the answer's
// link expansion are decided once.

// Change is the file set a commit makes, in one of the ways the API sends it. Build one with
// PutFile, DeleteFile, FileList or UploadRevision.
type Change struct {
	kind  changeKind
	name  string                 // the file PutFile and DeleteFile name
	data  []byte                 // PutFile's content
	files []buildstore.FileEntry // FileList's entries
}

type changeKind int

const (
	putFile changeKind = iota
	deleteFile
	fileList
	uploadRevision
)

// PutFile is the newest tree with file name added or replaced by data.
func PutFile(name string, data []byte) Change { return Change{kind: putFile, name: name, data: data} }

// DeleteFile is the newest tree without file name (404 when it holds none).
func DeleteFile(name string) Change { return Change{kind: deleteFile, name: name} }

// FileList is the complete new file set by name and md5, osc's commitfilelist. Content not
// stored yet is not committed: the commit answers it as Missing, and osc uploads it first.
func FileList(files []buildstore.FileEntry) Change { return Change{kind: fileList, files: files} }

// UploadRevision is the pending upload laid over the newest tree (without an upload: the newest
// tree again, a new revision with the same srcmd5); the commit discards the upload.
func UploadRevision() Change { return Change{kind: uploadRevision} }

// CommitOptions are a commit's choices beyond its files.
type CommitOptions struct {
	// Comment is the revision's comment.
	Comment string
	// RequestID is the request whose accept makes the commit (the revision shows it).
	RequestID uint64
	// VRev, when not 0, is the new revision's version revision instead of the next one (a
	// project copy with makeolder sets it).
	VRev uint64
	// KeepLink commits a link's expanded tree back as the link (see KeepLink), against the
	// target tree LinkRev names (default: the newest).
	KeepLink bool
	LinkRev  string
	// Listing also resolves the new revision's listing view (Committed.View), storing its link
	// expansion: the answers that show the listing need it, osc reads the xsrcmd5 from it.
	Listing bool
}

// Committed is a commit's outcome.
type Committed struct {
	// Revision is the new revision; zero when Missing is not empty.
	Revision buildstore.Revision
	// View is the new revision's listing view when CommitOptions.Listing asked for it.
	View SourceView
	// Missing lists the files of a FileList whose content is not stored; nothing was committed.
	Missing []buildstore.FileEntry
}

// Commit makes a new revision of project/pkg by who from change: who must be able to write the
// package (a maintainer, not locked), a _link the change brings must be a link document, and a
// file must be within the service's size limit.
func (s *Service) Commit(who buildstore.Person, project, pkg string, change Change, opts CommitOptions) (Committed, error) {
	if err := s.checkChange(change); err != nil {
		return Committed{}, err
	}
	denied := "put_file_no_permission"
	if change.kind == deleteFile {
		denied = "delete_file_no_permission"
	}
	var out Committed
	err := s.db.Write(func(tx kv.Tx) error {
		out = Committed{}
		if err := Writable(tx, who, project, pkg, denied); err != nil {
			return err
		}
		files, missing, err := changedFiles(tx, project, pkg, change)
		if err != nil || len(missing) > 0 {
			out.Missing = missing
			return err
		}
		if out, err = CommitTree(tx, project, pkg, files, who.Login, s.clk.Now(), opts); err != nil {
			return err
		}
		if change.kind == uploadRevision {
			return buildstore.DropUpload(tx, project, pkg)
		}
		return nil
	})
	return out, err
}

// CommitTree is the step every commit ends with, once the caller may write and the tree is
// known: keeplink, the revision record (by user, with the comment, at at) with the issues its
// tree names (CommitRevision), the package's activity and, when asked, the listing view with
// its link expansion stored. Every operation that makes a revision — a file
// write, osc's commit, branch, copy, linktobranch, undelete, a service run, the spec template,
// and the demo world's history — ends here, so a revision is made one way.
func CommitTree(tx kv.Tx, project, pkg string, files []buildstore.FileEntry, user string, at time.Time, opts CommitOptions) (Committed, error) {
	var out Committed
	var err error
	if opts.KeepLink {
		if files, err = KeepLink(tx, project, pkg, files, opts.LinkRev); err != nil {
			return out, err
		}
	}
	as := buildstore.Revision{User: user, Comment: opts.Comment, VRev: opts.VRev, RequestID: opts.RequestID}
	if out.Revision, err = CommitRevision(tx, project, pkg, files, as, at); err != nil {
		return out, err
	}
	if err := touchPackage(tx, project, pkg, at); err != nil { // its activity (statistics_activity.go)
		return out, err
	}
	if opts.Listing {
		out.View, err = CommittedView(tx, project, pkg, out.Revision)
	}
	return out, err
}

// CommitRevision is CommitTree's revision step: the store appends the revision record of
// files (buildstore.AppendRevision: by as's user, with its comment, request and version
// revision, at now) and then the issues the new tree names — its .changes files, its
// patchinfo, for a link its expansion against the target (issues_scan.go) — become the
// package's in the issue index, in the same transaction. Read after the revision is written,
// as a link to its own package's newest revision must see it. Tests and benchmarks that build
// histories without the commit's other steps (keeplink, the package's activity) call it too.
func CommitRevision(tx kv.Tx, project, pkg string, files []buildstore.FileEntry, as buildstore.Revision, now time.Time) (buildstore.Revision, error) {
	r, err := buildstore.AppendRevision(tx, project, pkg, files, as, now)
	if err != nil {
		return buildstore.Revision{}, err
	}
	return r, indexRevisionIssues(tx, project, pkg, r, now)
}

// checkChange runs the rules a change must pass before anything is read: valid file names,
// each listed once with a 32-hex md5, and content within the size limit.
func (s *Service) checkChange(change Change) error {
	switch change.kind {
	case putFile:
		if err := CheckFileName(change.name); err != nil {
			return err
		}
		return s.checkSize(change.name, change.data)
	case deleteFile:
		return CheckFileName(change.name)
	case fileList:
		seen := map[string]bool{}
		for _, f := range change.files {
			if err := CheckFileName(f.Name); err != nil {
				return err
			}
			if !IsMD5(f.MD5) || seen[f.Name] {
				return BadRequest("invalid_xml", "entry '%s': each file once, with a 32-hex md5", f.Name)
			}
			seen[f.Name] = true
		}
	}
	return nil
}

// changedFiles is the tree change makes from the newest one; for a FileList with content not
// stored, the entries missing instead.
func changedFiles(tx kv.Tx, project, pkg string, change Change) (files, missing []buildstore.FileEntry, err error) {
	if change.kind == fileList {
		for _, f := range change.files {
			if !buildstore.HasBlob(tx, f.MD5) {
				missing = append(missing, f)
			}
		}
		if len(missing) > 0 {
			return nil, missing, nil
		}
		return change.files, nil, checkListedLink(tx, change.files)
	}
	files, err = editedFiles(tx, project, pkg, change)
	return files, nil, err
}

// editedFiles is the newest tree with a PutFile, DeleteFile or UploadRevision change applied.
func editedFiles(tx kv.Tx, project, pkg string, change Change) ([]buildstore.FileEntry, error) {
	var sum string
	if change.kind == putFile {
		var err error
		if sum, err = storeFile(tx, change.name, change.data); err != nil {
			return nil, err
		}
	}
	files, err := LatestFiles(tx, project, pkg)
	if err != nil {
		return nil, err
	}
	switch change.kind {
	case putFile:
		return append(withoutFile(files, change.name), buildstore.FileEntry{Name: change.name, MD5: sum}), nil
	case deleteFile:
		if !slices.ContainsFunc(files, func(f buildstore.FileEntry) bool { return f.Name == change.name }) {
			return nil, NoSuchFile(change.name)
		}
		return withoutFile(files, change.name), nil
	default:
		u, _, err := buildstore.GetUpload(tx, project, pkg)
		return buildstore.Overlay(files, u.Files), err
	}
}

// checkListedLink checks the _link of a file list, whose content was uploaded unchecked.
func checkListedLink(tx kv.Tx, files []buildstore.FileEntry) error {
	for _, f := range files {
		if f.Name != buildstore.LinkFile {
			continue
		}
		data, err := buildstore.GetBlob(tx, f.MD5)
		if err != nil {
			return err
		}
		if err := CheckLink(data); err != nil {
			return err
		}
	}
	return nil
}

// storeFile keeps the content of a file written by name (a _link must be a link document).
func storeFile(tx kv.Tx, name string, data []byte) (string, error) {
	if name == buildstore.LinkFile {
		if err := CheckLink(data); err != nil {
			return "", err
		}
	}
	return buildstore.PutBlob(tx, data)
}

// withoutFile drops name from files.
func withoutFile(files []buildstore.FileEntry, name string) []buildstore.FileEntry {
	return slices.DeleteFunc(slices.Clone(files), func(f buildstore.FileEntry) bool { return f.Name == name })
}
