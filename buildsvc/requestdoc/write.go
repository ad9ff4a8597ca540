package requestdoc

import (
	"bytes"
	"encoding/xml"
	"strings"
)

// AppendIndented appends d as xml.MarshalIndent(d, "", "  ") writes it, byte for byte, at
// depth (an element of a <collection> is at depth 1: it starts on a new line, indented). A
// listing of hundreds of requests spent more time in encoding/xml's reflection than in reading
// the records; this writer knows the one shape. TestAppendIndentedIsMarshalIndent holds it to
// encoding/xml's output.
func (d Request) AppendIndented(b []byte, depth int) []byte {
	w := writer{b: b, depth: depth}
	w.open("request", opt("id", d.ID), opt("creator", d.Creator))
	for _, a := range d.Actions {
		w.action(a)
	}
	w.text("priority", d.Priority, true)
	if s := d.State; s != nil {
		w.open("state", must("name", s.Name), opt("who", s.Who), opt("when", s.When), opt("created", s.Created), opt("superseded_by", s.SupersededBy), opt("approver", s.Approver))
		if s.Comment != nil {
			w.text("comment", *s.Comment, false)
		}
		w.close("state")
	}
	for _, v := range d.Reviews {
		w.open("review", must("state", v.State), opt("when", v.When), opt("who", v.Who), opt("by_user", v.ByUser), opt("by_group", v.ByGroup), opt("by_project", v.ByProject), opt("by_package", v.ByPackage))
		w.text("comment", v.Comment, true)
		for _, h := range v.History {
			w.event(h)
		}
		w.close("review")
	}
	for _, h := range d.History {
		w.event(h)
	}
	w.text("accept_at", d.AcceptAt, true)
	if d.Description != nil {
		w.text("description", *d.Description, false)
	}
	w.close("request")
	return w.b
}

func (w *writer) action(a Action) {
	w.open("action", must("type", a.Type))
	if s := a.Source; s != nil {
		w.empty("source", must("project", s.Project), opt("package", s.Package), opt("rev", s.Rev))
	}
	if t := a.Target; t != nil {
		w.empty("target", must("project", t.Project), opt("package", t.Package), opt("releaseproject", t.ReleaseProject), opt("repository", t.Repository))
	}
	for _, r := range []struct {
		name string
		role *Role
	}{{"person", a.Person}, {"group", a.Group}} {
		if r.role != nil {
			w.empty(r.name, must("name", r.role.Name), opt("role", r.role.Role))
		}
	}
	for _, g := range a.Grouped {
		w.empty("grouped", must("id", g.ID))
	}
	if o := a.Options; o != nil {
		w.open("options")
		w.text("sourceupdate", o.SourceUpdate, true)
		w.text("updatelink", o.UpdateLink, true)
		w.text("makeoriginolder", o.MakeOriginOlder, true)
		w.close("options")
	}
	if i := a.AcceptInfo; i != nil {
		w.empty("acceptinfo", must("rev", i.Rev), must("srcmd5", i.SrcMD5), must("osrcmd5", i.OSrcMD5), opt("oproject", i.OProject), opt("opackage", i.OPackage), opt("xsrcmd5", i.XSrcMD5), opt("oxsrcmd5", i.OXSrcMD5))
	}
	w.close("action")
}

func (w *writer) event(h Event) {
	w.open("history", must("who", h.Who), must("when", h.When))
	w.text("description", h.Description, false)
	w.text("comment", h.Comment, true)
	w.close("history")
}

// writer writes elements the way encoding/xml's indenting printer does: every start tag on a
// new line at its depth, an end tag on its own line when the element had children, text and
// empty elements closed on the same line.
type writer struct {
	b     []byte
	depth int
	// open elements: whether each has had a child element yet
	children []bool
	started  bool
}

// newline starts a line at the current depth (the very first tag at depth 0 starts none).
func (w *writer) newline() {
	if w.started || w.depth > 0 {
		w.b = append(w.b, '\n')
		for range w.depth {
			w.b = append(w.b, "  "...)
		}
	}
	w.started = true
}

// attr is one attribute; an optional one (omitempty) is left out when empty.
type attr struct {
	name, value string
	optional    bool
}

func must(name, value string) attr { return attr{name: name, value: value} }
func opt(name, value string) attr  { return attr{name: name, value: value, optional: true} }

// startTag writes <name attrs…>.
func (w *writer) startTag(name string, attrs []attr) {
	if n := len(w.children); n > 0 {
		w.children[n-1] = true
	}
	w.newline()
	w.b = append(w.b, '<')
	w.b = append(w.b, name...)
	for _, a := range attrs {
		if a.value == "" && a.optional {
			continue
		}
		w.b = append(w.b, ' ')
		w.b = append(w.b, a.name...)
		w.b = append(w.b, `="`...)
		w.b = escape(w.b, a.value)
		w.b = append(w.b, '"')
	}
	w.b = append(w.b, '>')
}

func (w *writer) open(name string, attrs ...attr) {
	w.startTag(name, attrs)
	w.depth++
	w.children = append(w.children, false)
}

func (w *writer) close(name string) {
	w.depth--
	hadChildren := w.children[len(w.children)-1]
	w.children = w.children[:len(w.children)-1]
	if hadChildren {
		w.newline()
	}
	w.b = append(w.b, "</"...)
	w.b = append(w.b, name...)
	w.b = append(w.b, '>')
}

// empty writes an element with attributes and no content.
func (w *writer) empty(name string, attrs ...attr) {
	w.startTag(name, attrs)
	w.b = append(w.b, "</"...)
	w.b = append(w.b, name...)
	w.b = append(w.b, '>')
}

// text writes <name>value</name>; omitEmpty leaves an empty value out.
func (w *writer) text(name, value string, omitEmpty bool) {
	if value == "" && omitEmpty {
		return
	}
	w.startTag(name, nil)
	w.b = escape(w.b, value)
	w.b = append(w.b, "</"...)
	w.b = append(w.b, name...)
	w.b = append(w.b, '>')
}

// escape appends s escaped as encoding/xml escapes text and attribute values.
func escape(b []byte, s string) []byte {
	if strings.IndexAny(s, "\"'&<>\t\n\r") < 0 && isPlain(s) {
		return append(b, s...)
	}
	var buf bytes.Buffer
	xml.EscapeText(&buf, []byte(s))
	return append(b, buf.Bytes()...)
}

// isPlain reports whether s is printable ASCII (which encoding/xml writes unchanged).
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
