package buildstore

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// A package whose tree holds a `_link` file is a link: its sources are another package's
// (the target's) with local changes. The file is link.rng's document; this file parses and
// renders it (the codec the link index and the build domain read it with). What the link
// means — expanding it into the files a build would see — is buildsvc's (links_expand.go).

// LinkFile is the name of the link document in a package tree.
const LinkFile = "_link"

// Patch is one entry of <patches>: add (a patch the spec file should apply), apply (a patch
// applied to the sources at expansion), delete (a target file left out), branch (the link is a
// branch: local files are full copies merged 3-way against baserev) or topadd (text put at the
// top of the spec file).
type Patch struct {
	Kind  string `json:"kind"`
	Name  string `json:"name,omitempty"`
	Text  string `json:"text,omitempty"`
	Type  string `json:"type,omitempty"`
	After string `json:"after,omitempty"`
	Popt  string `json:"popt,omitempty"`
	Dir   string `json:"dir,omitempty"`
}

// SourceLink is a parsed _link. Empty Project and Package mean "the link's own".
type SourceLink struct {
	Project   string
	Package   string
	Rev       string
	BaseRev   string
	VRev      string
	CICount   string
	MissingOK bool
	Patches   []Patch
}

// IsBranch reports whether the link carries <branch/>: its files are full copies of the
// target's, merged at expansion.
func (l SourceLink) IsBranch() bool {
	for _, p := range l.Patches {
		if p.Kind == "branch" {
			return true
		}
	}
	return false
}

// Target is the package the link points to, defaults filled from the link's own names.
func (l SourceLink) Target(project, pkg string) (string, string) {
	tp, tk := l.Project, l.Package
	if tp == "" {
		tp = project
	}
	if tk == "" {
		tk = pkg
	}
	return tp, tk
}

// ParseLink reads a _link document. encoding/xml never expands external entities; unknown
// patch kinds, a second <branch/>, patches without a file name and file names with "/" are
// refused, as the schema and the backend refuse them.
func ParseLink(data []byte) (SourceLink, error) {
	var l SourceLink
	d := xml.NewDecoder(bytes.NewReader(data))
	depth, inPatches, sawRoot := 0, false, false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return SourceLink{}, fmt.Errorf("bad _link: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			attr := func(name string) string {
				for _, a := range t.Attr {
					if a.Name.Local == name {
						return a.Value
					}
				}
				return ""
			}
			switch {
			case depth == 1:
				if t.Name.Local != "link" || sawRoot {
					return SourceLink{}, fmt.Errorf("bad _link: the root element must be <link>, not <%s>", t.Name.Local)
				}
				sawRoot = true
				l.Project, l.Package, l.Rev, l.BaseRev = attr("project"), attr("package"), attr("rev"), attr("baserev")
				l.VRev, l.CICount, l.MissingOK = attr("vrev"), attr("cicount"), attr("missingok") == "true"
			case depth == 2 && t.Name.Local == "patches":
				inPatches = true
			case depth == 3 && inPatches:
				p := Patch{Kind: t.Name.Local, Name: attr("name"), Type: attr("type"), After: attr("after"), Popt: attr("popt"), Dir: attr("dir")}
				if err := checkPatch(p, l.Patches); err != nil {
					return SourceLink{}, err
				}
				if p.Kind == "topadd" {
					var text string
					if err := d.DecodeElement(&text, &t); err != nil {
						return SourceLink{}, fmt.Errorf("bad _link: %v", err)
					}
					p.Text = text
					depth--
				}
				l.Patches = append(l.Patches, p)
			}
		case xml.EndElement:
			if depth == 2 && t.Name.Local == "patches" {
				inPatches = false
			}
			depth--
		}
	}
	if !sawRoot {
		return SourceLink{}, fmt.Errorf("bad _link: no <link> element")
	}
	if l.Project != "" && !ValidProjectName(l.Project) || l.Package != "" && !ValidPackageName(l.Package) {
		return SourceLink{}, fmt.Errorf("bad _link: invalid target '%s/%s'", l.Project, l.Package)
	}
	return l, nil
}

// checkPatch validates one patch against the ones before it.
func checkPatch(p Patch, before []Patch) error {
	switch p.Kind {
	case "add", "apply", "delete":
		if p.Name == "" || strings.Contains(p.Name, "/") || p.Name == LinkFile {
			return fmt.Errorf("bad _link: <%s> needs a file name of the package, not '%s'", p.Kind, p.Name)
		}
	case "branch":
		for _, b := range before {
			if b.Kind == "branch" {
				return fmt.Errorf("bad _link: more than one <branch/>")
			}
		}
	case "topadd":
	default:
		return fmt.Errorf("bad _link: unknown patch <%s>", p.Kind)
	}
	return nil
}

// Render writes the link as the backend stores it: attributes in schema order, one patch per
// line. Branch creation and keeplink commits write _link files through it.
func (l SourceLink) Render() []byte {
	var b strings.Builder
	b.WriteString("<link")
	for _, a := range [][2]string{{"project", l.Project}, {"package", l.Package}, {"rev", l.Rev},
		{"baserev", l.BaseRev}, {"vrev", l.VRev}, {"cicount", l.CICount}} {
		if a[1] != "" {
			b.WriteString(" " + a[0] + `="` + escapeAttr(a[1]) + `"`)
		}
	}
	if l.MissingOK {
		b.WriteString(` missingok="true"`)
	}
	if len(l.Patches) == 0 {
		b.WriteString("/>\n")
		return []byte(b.String())
	}
	b.WriteString(">\n  <patches>\n")
	for _, p := range l.Patches {
		switch p.Kind {
		case "branch":
			b.WriteString("    <branch/>\n")
		case "topadd":
			var t bytes.Buffer
			_ = xml.EscapeText(&t, []byte(p.Text))
			b.WriteString("    <topadd>" + t.String() + "</topadd>\n")
		default:
			b.WriteString("    <" + p.Kind + ` name="` + escapeAttr(p.Name) + `"`)
			for _, a := range [][2]string{{"type", p.Type}, {"after", p.After}, {"popt", p.Popt}, {"dir", p.Dir}} {
				if a[1] != "" {
					b.WriteString(" " + a[0] + `="` + escapeAttr(a[1]) + `"`)
				}
			}
			b.WriteString("/>\n")
		}
	}
	b.WriteString("  </patches>\n</link>\n")
	return []byte(b.String())
}

// escapeAttr makes an attribute value XML-safe.
func escapeAttr(s string) string {
	var t bytes.Buffer
	_ = xml.EscapeText(&t, []byte(s))
	return strings.ReplaceAll(t.String(), `"`, "&quot;")
}

// linkTargetOf reads the target of a tree's _link; ok is false for a tree without a readable
// link.
func linkTargetOf(tx kv.Tx, project, pkg string, r Revision) (tp, tk string, ok bool) {
	lf, has := r.File(LinkFile)
	if !has {
		return "", "", false
	}
	data, err := GetBlob(tx, lf.MD5)
	if err != nil {
		return "", "", false
	}
	l, err := ParseLink(data)
	if err != nil {
		return "", "", false
	}
	tp, tk = l.Target(project, pkg)
	return tp, tk, true
}

func linkIndexKey(tp, tk, project, pkg string) []byte {
	return []byte(tp + "\x00" + tk + "\x00" + project + "\x00" + pkg)
}

// updateLinkIndex keeps the target → link index right after a commit replaced tree old by
// tree new, so showlinked need not read every package.
func updateLinkIndex(tx kv.Tx, project, pkg string, old, new Revision) error {
	b, err := store.Bucket(tx, store.BuildLinks)
	if err != nil {
		return err
	}
	if tp, tk, ok := linkTargetOf(tx, project, pkg, old); ok {
		if err := b.Delete(linkIndexKey(tp, tk, project, pkg)); err != nil {
			return err
		}
	}
	if tp, tk, ok := linkTargetOf(tx, project, pkg, new); ok {
		return b.Put(linkIndexKey(tp, tk, project, pkg), []byte{})
	}
	return nil
}

// LinkingPackages lists the packages whose newest tree links to tp/tk, as project/package
// pairs in name order. Index entries of packages deleted since are skipped (the index is not
// touched by deletes, so undelete needs nothing).
func LinkingPackages(tx kv.Tx, tp, tk string) ([][2]string, error) {
	b, err := store.Bucket(tx, store.BuildLinks)
	if err != nil {
		return nil, err
	}
	prefix := []byte(tp + "\x00" + tk + "\x00")
	var out [][2]string
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		project, pkg, _ := strings.Cut(string(k[len(prefix):]), "\x00")
		if _, err := GetPackage(tx, project, pkg); err != nil {
			continue
		}
		out = append(out, [2]string{project, pkg})
	}
	return out, nil
}
