package metadoc

import (
	"sort"

	"github.com/pocketforge/pocketforge/buildsvc/xmlindent"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// AppendPackage appends k's meta as xml.MarshalIndent(FromPackage(k), "", "  ") writes it,
// byte for byte, at depth (an element of a <collection> is at depth 1). A package search over
// a project of 20,000 packages spent a third of its time in encoding/xml's reflection; this
// walks the one shape from the record. GET …/_meta, the meta history (RenderPackage) and the
// package search all render with it; TestAppendPackageIsMarshalIndent and
// FuzzAppendPackage hold it to encoding/xml's rendering of the document.
func AppendPackage(b []byte, k buildstore.Package, depth int) []byte {
	w := xmlindent.New(b, depth)
	w.Open("package", xmlindent.Must("name", k.Name), xmlindent.Must("project", k.Project))
	w.Text("title", k.Title, false)
	w.Text("description", k.Description, false)
	w.Text("scmsync", k.SCMSync, true)
	if d := k.Devel; d != nil {
		w.Empty("devel", xmlindent.Opt("project", d.Project), xmlindent.Opt("package", d.Package))
	}
	writeRoles(&w, k.Persons, k.Groups, k.Locked, k.Flags)
	w.Text("url", k.URL, true)
	w.Close("package")
	return w.Bytes()
}

// AppendProject appends p's meta as xml.MarshalIndent(FromProject(p), "", "  ") writes it,
// byte for byte, at depth: GET /source/<project>/_meta and the project search render with it
// (TestAppendProjectIsMarshalIndent, FuzzAppendProject).
func AppendProject(b []byte, p buildstore.Project, depth int) []byte {
	w := xmlindent.New(b, depth)
	w.Open("project", xmlindent.Must("name", p.Name), xmlindent.Opt("kind", p.Kind))
	w.Text("title", p.Title, false)
	w.Text("description", p.Description, false)
	for _, l := range p.Links {
		w.Empty("link", xmlindent.Must("project", l.Project), xmlindent.Opt("vrevmode", l.VRevMode))
	}
	w.Text("url", p.URL, true)
	if p.Devel != "" {
		w.Empty("devel", xmlindent.Must("project", p.Devel))
	}
	writeRoles(&w, p.Persons, p.Groups, p.Locked, p.Flags)
	for _, r := range sortedRepositories(p.Repositories) {
		w.Open("repository", xmlindent.Must("name", r.Name), xmlindent.Opt("rebuild", r.Rebuild), xmlindent.Opt("block", r.Block), xmlindent.Opt("linkedbuild", r.LinkedBuild))
		if t := r.ReleaseTarget; t != nil {
			w.Empty("releasetarget", xmlindent.Must("project", t.Project), xmlindent.Must("repository", t.Repository), xmlindent.Opt("trigger", t.Trigger))
		}
		for _, x := range r.Paths {
			w.Empty("path", xmlindent.Must("project", x.Project), xmlindent.Must("repository", x.Repository))
		}
		for _, a := range r.Archs {
			w.Text("arch", a, false)
		}
		w.Close("repository")
	}
	w.Close("project")
	return w.Bytes()
}

// sortedRepositories is the render order of a project's repositories: by name descending, as
// the build service renders them (stable, so equal names keep the record's order).
func sortedRepositories(in []buildstore.Repository) []buildstore.Repository {
	if sort.SliceIsSorted(in, func(i, j int) bool { return in[i].Name > in[j].Name }) {
		return in
	}
	out := append([]buildstore.Repository(nil), in...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name > out[j].Name })
	return out
}

// writeRoles writes what both metas hold in the same order after their own elements: persons,
// groups, the lock and the flag blocks.
func writeRoles(w *xmlindent.Writer, persons, groups []buildstore.Role, locked bool, flags []buildstore.Flag) {
	for _, r := range persons {
		w.Empty("person", xmlindent.Must("userid", r.ID), xmlindent.Must("role", r.Role))
	}
	for _, r := range groups {
		w.Empty("group", xmlindent.Must("groupid", r.ID), xmlindent.Must("role", r.Role))
	}
	if locked {
		w.Open("lock")
		w.Empty("enable")
		w.Close("lock")
	}
	if len(flags) == 0 {
		return
	}
	for _, name := range flagNames {
		open := false
		for _, f := range flags {
			if f.Name != name {
				continue
			}
			if !open {
				w.Open(name)
				open = true
			}
			w.Empty(flagElement(f.Status), xmlindent.Opt("repository", f.Repository), xmlindent.Opt("arch", f.Arch))
		}
		if open {
			w.Close(name)
		}
	}
}

// flagNames are the flag blocks in render order (flagBlocks' fields); a flag of another name
// is not rendered.
var flagNames = [...]string{"build", "publish", "debuginfo", "useforbuild", "binarydownload", "sourceaccess", "access"}

// flagElement is the element a flag entry renders as: its status. encoding/xml names an
// entry without one after the Go field that holds the entries; records always have one
// (enable or disable), but the writer renders what encoding/xml would.
func flagElement(status string) string {
	if status == "" {
		return "Entries"
	}
	return status
}
