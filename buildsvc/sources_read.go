package buildsvc

import (
	"strings"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The reads of a package's sources: its listing, a file and its history at any revision, links
// expanded on request. Each applies the read protection (ReadView) and the file-name rule.

// TreeOptions say which tree of a package a read asks for: ?rev= (see TreeAt), ?expand= (a
// link's expanded tree) and ?linkrev= (the link target's tree to expand against).
type TreeOptions struct {
	Rev     string
	Expand  bool
	LinkRev string
}

// CheckFileName refuses the file names the backend refuses: empty, with "/" or "..", control
// characters, over 200 bytes, not UTF-8, and the names of the package's own sub-resources
// (_meta, _history), which a file would hide. A name that is not UTF-8 cannot be written in the
// XML listings at all (it came back as U+FFFD, a name no request could name again).
func CheckFileName(name string) error {
	if !utf8.ValidString(name) {
		return BadRequest("invalid_filename", "'%s' is not a valid filename: not UTF-8", strings.ToValidUTF8(name, "\uFFFD"))
	}
	bad := name == "" || name == "." || strings.Contains(name, "/") || strings.Contains(name, "..") ||
		name == "_meta" || name == "_history" || len(name) > 200 ||
		strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f })
	if bad {
		return BadRequest("invalid_filename", "'%s' is not a valid filename", name)
	}
	return nil
}

// Listing is the tree a package listing shows to who. Without a rev it prefers a pending
// upload, as the backend's listing does. An expansion the read made is stored, so a later
// ?rev=<xsrcmd5> (osc checks branches out that way) finds the same tree.
func (s *Service) Listing(who buildstore.Person, project, pkg string, o TreeOptions) (SourceView, error) {
	var v SourceView
	err := s.db.View(func(tx kv.Tx) (err error) {
		v, err = RequestView(tx, who, project, pkg, o.Rev, o.Expand, o.LinkRev, true)
		return err
	})
	if err != nil {
		return v, err
	}
	return v, s.StoreExpansion(project, pkg, v)
}

// ReadFile is the content of file name in the tree o asks for (a file read never prefers the
// upload revision; ?rev=upload names it).
func (s *Service) ReadFile(who buildstore.Person, project, pkg, name string, o TreeOptions) ([]byte, error) {
	if err := CheckFileName(name); err != nil {
		return nil, err
	}
	var data []byte
	err := s.db.View(func(tx kv.Tx) error {
		v, err := RequestView(tx, who, project, pkg, o.Rev, o.Expand, o.LinkRev, false)
		if err != nil {
			return err
		}
		f, ok := v.Tree.File(name)
		if !ok {
			return NoSuchFile(name)
		}
		data, err = v.Content(tx, f.MD5)
		return err
	})
	return data, err
}

// FileContent is one file of a tree with its bytes.
type FileContent struct {
	buildstore.FileEntry
	Data []byte
}

// TreeContents is every file of the tree o asks for with its bytes, in name order: what
// ?view=cpio streams, osc's way to fetch a package in one request.
func (s *Service) TreeContents(who buildstore.Person, project, pkg string, o TreeOptions) ([]FileContent, error) {
	var out []FileContent
	err := s.db.View(func(tx kv.Tx) error {
		v, err := RequestView(tx, who, project, pkg, o.Rev, o.Expand, o.LinkRev, false)
		if err != nil {
			return err
		}
		out = make([]FileContent, 0, len(v.Tree.Files))
		for _, f := range v.Tree.Files {
			data, err := v.Content(tx, f.MD5)
			if err != nil {
				return err
			}
			out = append(out, FileContent{FileEntry: f, Data: data})
		}
		return nil
	})
	return out, err
}

// History is the package's revisions, oldest first, for who.
func (s *Service) History(who buildstore.Person, project, pkg string) ([]buildstore.Revision, error) {
	var all []buildstore.Revision
	err := s.db.View(func(tx kv.Tx) (err error) {
		if _, _, err := LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		if err := SourcesReadable(tx, who, project, pkg); err != nil {
			return err
		}
		all, err = buildstore.Revisions(tx, project, pkg)
		return err
	})
	return all, err
}
