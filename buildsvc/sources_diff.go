package buildsvc

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/internal/textdiff"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// cmd=diff: the backend's source diff, what osc rdiff prints. Links on either side are
// compared expanded when asked (osc always asks). The output is always unified and never cut.

// DiffOptions name the two sides of a diff: the new side is the package the request names at
// Rev, the old side OldProject/OldPackage at OldRev.
type DiffOptions struct {
	OldProject, OldPackage string
	Rev, OldRev            string
	// Expand compares links expanded, against LinkRev (new side) and OldLinkRev (old side).
	Expand              bool
	LinkRev, OldLinkRev string
}

// Diff compares o's old side with project/pkg at o.Rev, as who may read them, as text.
func (s *Service) Diff(who buildstore.Person, project, pkg string, o DiffOptions) (string, error) {
	var text string
	err := s.diffViews(who, project, pkg, o, func(tx kv.Tx, oldView, newView SourceView) (err error) {
		text, err = SourceDiff(tx, oldView, newView)
		return err
	})
	return text, err
}

// diffViews resolves o's two sides and calls fn with them in one read transaction. Without
// OldRev the old side is the other package's newest tree, or for the same package the revision
// before Rev (the empty tree before revision 1).
func (s *Service) diffViews(who buildstore.Person, project, pkg string, o DiffOptions, fn func(tx kv.Tx, oldView, newView SourceView) error) error {
	return s.db.View(func(tx kv.Tx) error {
		if _, _, err := LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		newView, err := ReadView(tx, who, project, pkg, o.Rev, o.Expand, o.LinkRev)
		if err != nil {
			return err
		}
		if _, _, err := LookupVisiblePackage(tx, who, o.OldProject, o.OldPackage); err != nil {
			return err
		}
		orev := o.OldRev
		if orev == "" && o.OldProject == project && o.OldPackage == pkg {
			orev = "0"
			if newView.Tree.Rev > 1 {
				orev = strconv.FormatUint(newView.Tree.Rev-1, 10)
			}
		}
		oldView, err := ReadView(tx, who, o.OldProject, o.OldPackage, orev, o.Expand, o.OldLinkRev)
		if err != nil {
			return err
		}
		return fn(tx, oldView, newView)
	})
}

// revLabel names a tree in the diff headers: its revision number, else its srcmd5.
func revLabel(r buildstore.Revision) string {
	if r.Rev > 0 {
		return strconv.FormatUint(r.Rev, 10)
	}
	return r.SrcMD5
}

// FileDiff is one file that differs between two trees: its entry on each side (nil where it
// is not), and the unified hunks between the contents ("" for a binary file).
type FileDiff struct {
	Name     string
	Old, New *buildstore.FileEntry
	Binary   bool
	Hunks    string
}

// State is the file's change: added, deleted or changed.
func (f FileDiff) State() string {
	switch {
	case f.Old == nil:
		return "added"
	case f.New == nil:
		return "deleted"
	}
	return "changed"
}

// fileDiffs lists the files that differ between the two trees, by name.
func fileDiffs(tx kv.Tx, oldView, newView SourceView) ([]FileDiff, error) {
	oldTree, newTree := oldView.Tree, newView.Tree
	var names []string
	for _, f := range append(slices.Clone(oldTree.Files), newTree.Files...) {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	var out []FileDiff
	for _, name := range slices.Compact(names) {
		of, inOld := oldTree.File(name)
		nf, inNew := newTree.File(name)
		if inOld && inNew && of.MD5 == nf.MD5 {
			continue
		}
		oldData, newData, err := blobPair(tx, oldView, of, inOld, newView, nf, inNew)
		if err != nil {
			return nil, err
		}
		d := FileDiff{Name: name, Binary: IsBinary(oldData) || IsBinary(newData)}
		if inOld {
			d.Old = &of
		}
		if inNew {
			d.New = &nf
		}
		if !d.Binary {
			d.Hunks = textdiff.Unified(oldData, newData, 3)
		}
		out = append(out, d)
	}
	return out, nil
}

// SourceDiff renders every file that differs between the two trees, by name: "Index:", 67 "=",
// the ---/+++ headers ("(added)" / "(deleted)" for a side without the file) and the hunks. It
// takes the transaction because linkdiff compares trees it resolved itself.
func SourceDiff(tx kv.Tx, oldView, newView SourceView) (string, error) {
	files, err := fileDiffs(tx, oldView, newView)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range files {
		b.WriteString("Index: " + f.Name + "\n" + strings.Repeat("=", 67) + "\n")
		if f.Old != nil {
			b.WriteString("--- " + f.Name + " (revision " + revLabel(oldView.Tree) + ")\n")
		} else {
			b.WriteString("--- " + f.Name + " (added)\n")
		}
		if f.New != nil {
			b.WriteString("+++ " + f.Name + " (revision " + revLabel(newView.Tree) + ")\n")
		} else {
			b.WriteString("+++ " + f.Name + " (deleted)\n")
		}
		if f.Binary {
			b.WriteString("Binary file differs\n")
			continue
		}
		b.WriteString(f.Hunks)
	}
	return b.String(), nil
}

// blobPair reads the contents of both sides; a side without the file is empty.
func blobPair(tx kv.Tx, ov SourceView, of buildstore.FileEntry, inOld bool, nv SourceView, nf buildstore.FileEntry, inNew bool) (oldData, newData []byte, err error) {
	if inOld {
		if oldData, err = ov.Content(tx, of.MD5); err != nil {
			return nil, nil, err
		}
	}
	if inNew {
		newData, err = nv.Content(tx, nf.MD5)
	}
	return oldData, newData, err
}

// IsBinary reports whether data is not text to show: a NUL byte or invalid UTF-8 in the first
// 8 KiB (a character cut at that end is no fault), as diff tools guess. The one rule of the
// diff (whose hunks of such content would be unreadable) and the web pages that show a file.
func IsBinary(data []byte) bool {
	head := data[:min(len(data), 8192)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	for len(head) > 0 {
		r, size := utf8.DecodeRune(head)
		if r == utf8.RuneError && size == 1 && len(head) >= utf8.UTFMax {
			return true
		}
		head = head[size:]
	}
	return false
}
