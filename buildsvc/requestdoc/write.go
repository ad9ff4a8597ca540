package requestdoc

import "github.com/pocketforge/pocketforge/buildsvc/xmlindent"

// AppendIndented appends d as xml.MarshalIndent(d, "", "  ") writes it, byte for byte, at
// depth (an element of a <collection> is at depth 1: it starts on a new line, indented). A
// listing of hundreds of requests spent more time in encoding/xml's reflection than in reading
// the records; this walks the one shape with xmlindent's writer.
// TestAppendIndentedIsMarshalIndent holds it to encoding/xml's output.
func (d Request) AppendIndented(b []byte, depth int) []byte {
	w := xmlindent.New(b, depth)
	w.Open("request", xmlindent.Opt("id", d.ID), xmlindent.Opt("creator", d.Creator))
	for _, a := range d.Actions {
		writeAction(&w, a)
	}
	w.Text("priority", d.Priority, true)
	if s := d.State; s != nil {
		w.Open("state", xmlindent.Must("name", s.Name), xmlindent.Opt("who", s.Who), xmlindent.Opt("when", s.When), xmlindent.Opt("created", s.Created), xmlindent.Opt("superseded_by", s.SupersededBy), xmlindent.Opt("approver", s.Approver))
		if s.Comment != nil {
			w.Text("comment", *s.Comment, false)
		}
		w.Close("state")
	}
	for _, v := range d.Reviews {
		w.Open("review", xmlindent.Must("state", v.State), xmlindent.Opt("when", v.When), xmlindent.Opt("who", v.Who), xmlindent.Opt("by_user", v.ByUser), xmlindent.Opt("by_group", v.ByGroup), xmlindent.Opt("by_project", v.ByProject), xmlindent.Opt("by_package", v.ByPackage))
		w.Text("comment", v.Comment, true)
		for _, h := range v.History {
			writeEvent(&w, h)
		}
		w.Close("review")
	}
	for _, h := range d.History {
		writeEvent(&w, h)
	}
	w.Text("accept_at", d.AcceptAt, true)
	if d.Description != nil {
		w.Text("description", *d.Description, false)
	}
	w.Close("request")
	return w.Bytes()
}

func writeAction(w *xmlindent.Writer, a Action) {
	w.Open("action", xmlindent.Must("type", a.Type))
	if s := a.Source; s != nil {
		w.Empty("source", xmlindent.Must("project", s.Project), xmlindent.Opt("package", s.Package), xmlindent.Opt("rev", s.Rev))
	}
	if t := a.Target; t != nil {
		w.Empty("target", xmlindent.Must("project", t.Project), xmlindent.Opt("package", t.Package), xmlindent.Opt("releaseproject", t.ReleaseProject), xmlindent.Opt("repository", t.Repository))
	}
	for _, r := range []struct {
		name string
		role *Role
	}{{"person", a.Person}, {"group", a.Group}} {
		if r.role != nil {
			w.Empty(r.name, xmlindent.Must("name", r.role.Name), xmlindent.Opt("role", r.role.Role))
		}
	}
	for _, g := range a.Grouped {
		w.Empty("grouped", xmlindent.Must("id", g.ID))
	}
	if o := a.Options; o != nil {
		w.Open("options")
		w.Text("sourceupdate", o.SourceUpdate, true)
		w.Text("updatelink", o.UpdateLink, true)
		w.Text("makeoriginolder", o.MakeOriginOlder, true)
		w.Close("options")
	}
	if i := a.AcceptInfo; i != nil {
		w.Empty("acceptinfo", xmlindent.Must("rev", i.Rev), xmlindent.Must("srcmd5", i.SrcMD5), xmlindent.Must("osrcmd5", i.OSrcMD5), xmlindent.Opt("oproject", i.OProject), xmlindent.Opt("opackage", i.OPackage), xmlindent.Opt("xsrcmd5", i.XSrcMD5), xmlindent.Opt("oxsrcmd5", i.OXSrcMD5))
	}
	w.Close("action")
}

func writeEvent(w *xmlindent.Writer, h Event) {
	w.Open("history", xmlindent.Must("who", h.Who), xmlindent.Must("when", h.When))
	w.Text("description", h.Description, false)
	w.Text("comment", h.Comment, true)
	w.Close("history")
}
