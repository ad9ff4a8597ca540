package buildapi

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/internal/textdiff"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// cmd=diff: the backend's source diff as text/plain, what osc rdiff prints. With expand=1
// (osc always sends it) links on either side are compared expanded. filelimit, tarlimit and
// unified are accepted and ignored: the output is always unified and never cut.

// diffPackage compares oproject/opackage at ?orev= (old side) with this package at ?rev= (new
// side). Without orev the old side is the other package's newest tree, or for the same package
// the revision before rev (the empty tree before revision 1).
func (a *api) diffPackage(c *fiber.Ctx) error {
	project, pkg := pathParam(c, "project"), pathParam(c, "package")
	oproject, opackage := otherPackage(c)
	rev, orev := c.Query("rev"), c.Query("orev")
	expand, linkrev, who := boolParam(c, "expand"), c.Query("linkrev"), personOf(c)
	var text string
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, _, err := buildsvc.LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		newView, err := buildsvc.ReadView(tx, who, project, pkg, rev, expand, linkrev)
		if err != nil {
			return err
		}
		newTree := newView.Tree
		if _, _, err := buildsvc.LookupPackage(tx, oproject, opackage); err != nil {
			return err
		}
		if orev == "" && oproject == project && opackage == pkg {
			orev = "0"
			if newTree.Rev > 1 {
				orev = strconv.FormatUint(newTree.Rev-1, 10)
			}
		}
		oldView, err := buildsvc.ReadView(tx, who, oproject, opackage, orev, expand, c.Query("olinkrev"))
		if err != nil {
			return err
		}
		text, err = sourceDiff(tx, oldView, newView)
		return err
	})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(text)
}

// revLabel names a tree in the diff headers: its revision number, else its srcmd5.
func revLabel(r buildstore.Revision) string {
	if r.Rev > 0 {
		return strconv.FormatUint(r.Rev, 10)
	}
	return r.SrcMD5
}

// sourceDiff renders every file that differs between the two trees, by name: "Index:", 67 "=",
// the ---/+++ headers ("(added)" / "(deleted)" for a side without the file) and the hunks.
func sourceDiff(tx *bbolt.Tx, oldView, newView buildsvc.SourceView) (string, error) {
	oldTree, newTree := oldView.Tree, newView.Tree
	var names []string
	for _, f := range append(slices.Clone(oldTree.Files), newTree.Files...) {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range slices.Compact(names) {
		of, inOld := oldTree.File(name)
		nf, inNew := newTree.File(name)
		if inOld && inNew && of.MD5 == nf.MD5 {
			continue
		}
		oldData, newData, err := blobPair(tx, oldView, of, inOld, newView, nf, inNew)
		if err != nil {
			return "", err
		}
		b.WriteString("Index: " + name + "\n" + strings.Repeat("=", 67) + "\n")
		if inOld {
			b.WriteString("--- " + name + " (revision " + revLabel(oldTree) + ")\n")
		} else {
			b.WriteString("--- " + name + " (added)\n")
		}
		if inNew {
			b.WriteString("+++ " + name + " (revision " + revLabel(newTree) + ")\n")
		} else {
			b.WriteString("+++ " + name + " (deleted)\n")
		}
		if isBinary(oldData) || isBinary(newData) {
			b.WriteString("Binary file differs\n")
			continue
		}
		b.WriteString(textdiff.Unified(oldData, newData, 3))
	}
	return b.String(), nil
}

// blobPair reads the contents of both sides; a side without the file is empty.
func blobPair(tx *bbolt.Tx, ov buildsvc.SourceView, of buildstore.FileEntry, inOld bool, nv buildsvc.SourceView, nf buildstore.FileEntry, inNew bool) (oldData, newData []byte, err error) {
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

// isBinary: a NUL byte or invalid UTF-8 in the first 8 KiB, as diff tools guess; hunks of
// such content would be unreadable.
func isBinary(data []byte) bool {
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
