package buildsvc

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// linkWorld is a target package T/t and helpers to commit trees given as name → content.
type linkWorld struct {
	t  *testing.T
	tx kv.Tx
	at time.Time
}

func (w *linkWorld) commit(project, pkg string, files map[string]string) buildstore.Revision {
	w.t.Helper()
	if _, err := buildstore.GetPackage(w.tx, project, pkg); err != nil {
		if err := buildstore.PutPackage(w.tx, buildstore.Package{Project: project, Name: pkg}); err != nil {
			w.t.Fatal(err)
		}
	}
	var list []buildstore.FileEntry
	for name, content := range files {
		sum, err := buildstore.PutBlob(w.tx, []byte(content))
		if err != nil {
			w.t.Fatal(err)
		}
		list = append(list, buildstore.FileEntry{Name: name, MD5: sum})
	}
	w.at = w.at.Add(time.Minute)
	r, err := CommitRevision(w.tx, project, pkg, list, buildstore.Revision{User: "alice"}, w.at)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// files reads an expansion's tree back as name → content.
func (w *linkWorld) files(e buildstore.Expansion) map[string]string {
	out := map[string]string{}
	for _, f := range e.Files {
		data, err := e.Content(w.tx, f.MD5)
		if err != nil {
			w.t.Fatal(err)
		}
		out[f.Name] = string(data)
	}
	return out
}

func withLinkWorld(t *testing.T, fn func(w *linkWorld)) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Write(func(tx kv.Tx) error {
		fn(&linkWorld{t: t, tx: tx, at: time.Unix(1_800_000_000, 0)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

const spec = "Name: t\nVersion: 1.0\n\n%prep\n%setup -q\n\n%build\nmake\n\n%changelog\n"

func TestExpandBranchMerge(t *testing.T) {
	withLinkWorld(t, func(w *linkWorld) {
		base := w.commit("T", "t", map[string]string{"t.spec": spec, "README": "readme\n", "t.changes": "one\n"})
		link := buildstore.SourceLink{Project: "T", Package: "t", BaseRev: base.SrcMD5, Patches: []buildstore.Patch{{Kind: "branch"}}}
		// The branch changes the spec's %build and adds a file; the target later edits the
		// spec's top and README.
		branch := w.commit("B", "t", map[string]string{buildstore.LinkFile: string(link.Render()), "t.spec": strings.Replace(spec, "make\n", "make V=1\n", 1),
			"README": "readme\n", "t.changes": "one\n", "local.patch": "x\n"})
		target := w.commit("T", "t", map[string]string{"t.spec": "# top\n" + spec, "README": "readme 2\n", "t.changes": "one\n"})
		e, ok, err := Expand(w.tx, "B", "t", branch, "")
		if err != nil || !ok || e.Info.Error != "" {
			t.Fatalf("expand: %v %v %+v", ok, err, e.Info)
		}
		got := w.files(e)
		if got["t.spec"] != "# top\n"+strings.Replace(spec, "make\n", "make V=1\n", 1) || got["README"] != "readme 2\n" || got["local.patch"] != "x\n" || len(got) != 4 {
			t.Errorf("merged tree: %q", got)
		}
		if e.Info.SrcMD5 != target.SrcMD5 || e.Info.LSrcMD5 != branch.SrcMD5 || e.Info.XSrcMD5 != buildstore.XSrcMD5(target.SrcMD5, branch.SrcMD5) {
			t.Errorf("linkinfo %+v", e.Info)
		}
		if e.VRev != target.VRev+branch.VRev || e.Version != "1.0" {
			t.Errorf("vrev %d version %s", e.VRev, e.Version)
		}
		// Stored, the expansion answers ?rev=<xsrcmd5> even after the target moves on.
		if err := buildstore.PutExpansion(w.tx, "B", "t", e); err != nil {
			t.Fatal(err)
		}
		w.commit("T", "t", map[string]string{"t.spec": spec})
		r, found, err := ResolveRevision(w.tx, "B", "t", e.Info.XSrcMD5)
		if err != nil || !found || buildstore.SrcMD5(r.Files) != buildstore.SrcMD5(e.Files) {
			t.Errorf("stored expansion: %v %v", found, err)
		}
		// linkrev=base expands against the tree the branch was made from.
		old, _, _ := Expand(w.tx, "B", "t", branch, "base")
		if old.Info.SrcMD5 != base.SrcMD5 || w.files(old)["README"] != "readme\n" {
			t.Errorf("linkrev=base: %+v", old.Info)
		}
	})
}

func TestExpandConflictsAndErrors(t *testing.T) {
	withLinkWorld(t, func(w *linkWorld) {
		base := w.commit("T", "t", map[string]string{"t.spec": spec})
		link := buildstore.SourceLink{Project: "T", Package: "t", BaseRev: base.SrcMD5, Patches: []buildstore.Patch{{Kind: "branch"}}}
		branch := w.commit("B", "t", map[string]string{buildstore.LinkFile: string(link.Render()), "t.spec": strings.Replace(spec, "make", "make A", 1)})
		w.commit("T", "t", map[string]string{"t.spec": strings.Replace(spec, "make", "make B", 1)})
		w.commit("L", "b", map[string]string{buildstore.LinkFile: `<link project="L" package="a"/>`})
		cases := []struct {
			name, project, pkg, link, want string
		}{
			{"missing target", "B", "m", `<link project="T" package="nope"/>`, "package 'T/nope' does not exist"},
			{"bad xml", "B", "x", `<link project="T"`, "bad _link"},
			{"wrong root", "B", "r", `<linx/>`, "bad _link"},
			{"self", "B", "s", `<link/>`, "points to itself"},
			{"loop", "L", "a", `<link project="L" package="b"/>`, "too many levels"},
			{"missing rev", "B", "v", `<link project="T" package="t" rev="99"/>`, "revision '99'"},
			{"patch missing", "B", "p", `<link project="T" package="t"><patches><apply name="no.diff"/></patches></link>`, "patch 'no.diff' does not exist"},
			{"both changed one line", "B", "t", "", "conflict in file t.spec"},
		}
		for _, c := range cases {
			r := branch
			if c.link != "" {
				r = w.commit(c.project, c.pkg, map[string]string{buildstore.LinkFile: c.link})
			}
			e, ok, err := Expand(w.tx, c.project, c.pkg, r, "")
			if err != nil || !ok || !strings.Contains(e.Info.Error, c.want) {
				t.Errorf("%s: error %q, want %q (%v)", c.name, e.Info.Error, c.want, err)
			}
			if e.Info.XSrcMD5 != "" {
				t.Errorf("%s: a broken link has an xsrcmd5", c.name)
			}
		}
		// missingok: a link to a package that does not exist (yet) expands to its own files.
		mo := w.commit("B", "mo", map[string]string{buildstore.LinkFile: `<link project="T" package="later" missingok="true"/>`, "a": "1\n"})
		e, _, _ := Expand(w.tx, "B", "mo", mo, "")
		if e.Info.Error != "" || w.files(e)["a"] != "1\n" || e.Info.SrcMD5 != buildstore.EmptySrcMD5 {
			t.Errorf("missingok: %+v", e.Info)
		}
	})
}

func TestExpandPlainLinkPatches(t *testing.T) {
	withLinkWorld(t, func(w *linkWorld) {
		target := w.commit("T", "t", map[string]string{"t.spec": spec, "old.txt": "gone\n", "README": "r\n"})
		diff := "--- README\n+++ README\n@@ -1 +1 @@\n-r\n+r patched\n"
		link := `<link project="T" package="t"><patches><delete name="old.txt"/><apply name="fix.diff"/><add name="extra.patch"/><topadd>%define _x 1</topadd></patches></link>`
		l := w.commit("L", "t", map[string]string{buildstore.LinkFile: link, "fix.diff": diff, "extra.patch": "p\n", "new.txt": "new\n"})
		e, _, err := Expand(w.tx, "L", "t", l, "")
		if err != nil || e.Info.Error != "" {
			t.Fatalf("expand: %v %q", err, e.Info.Error)
		}
		got := w.files(e)
		if _, ok := got["old.txt"]; ok {
			t.Error("<delete/> kept the file")
		}
		if _, ok := got["fix.diff"]; ok {
			t.Error("an applied patch is part of the tree")
		}
		if got["README"] != "r patched\n" || got["new.txt"] != "new\n" || got["extra.patch"] != "p\n" {
			t.Errorf("tree %q", got)
		}
		s := got["t.spec"]
		if !strings.HasPrefix(s, "%define _x 1\n") || !strings.Contains(s, "Patch901: extra.patch\n") || !strings.Contains(s, "%setup -q\n%patch901 -p0\n") {
			t.Errorf("spec %q", s)
		}
		if e.Info.SrcMD5 != target.SrcMD5 {
			t.Errorf("linkinfo %+v", e.Info)
		}
	})
}
