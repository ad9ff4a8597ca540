package buildstore

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// linkWorld commits trees given as name → content straight into the revision records (the
// link expansion and its tests are buildsvc's: links_expand_test.go).
type linkWorld struct {
	t  *testing.T
	tx kv.Tx
	at time.Time
}

func (w *linkWorld) commit(project, pkg string, files map[string]string) Revision {
	w.t.Helper()
	if _, err := GetPackage(w.tx, project, pkg); err != nil {
		if err := PutPackage(w.tx, Package{Project: project, Name: pkg}); err != nil {
			w.t.Fatal(err)
		}
	}
	var list []FileEntry
	for name, content := range files {
		sum, err := PutBlob(w.tx, []byte(content))
		if err != nil {
			w.t.Fatal(err)
		}
		list = append(list, FileEntry{Name: name, MD5: sum})
	}
	w.at = w.at.Add(time.Minute)
	r, err := AppendRevision(w.tx, project, pkg, list, Revision{User: "alice"}, w.at)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
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

func TestParseLinkRender(t *testing.T) {
	l := SourceLink{Project: "devel:tools", Package: "x", BaseRev: "0123456789abcdef0123456789abcdef", Patches: []Patch{{Kind: "branch"}, {Kind: "topadd", Text: "a < b & c"}, {Kind: "apply", Name: "a.diff"}}}
	back, err := ParseLink(l.Render())
	if err != nil || back.Project != l.Project || back.BaseRev != l.BaseRev || len(back.Patches) != 3 || back.Patches[1].Text != "a < b & c" || !back.IsBranch() {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	for _, bad := range []string{"", "<link", "<x/>", "<link/><link/>", `<link><patches><branch/><branch/></patches></link>`,
		`<link><patches><apply name="../x"/></patches></link>`, `<link><patches><frob/></patches></link>`, `<link project="a b"/>`,
		`<!DOCTYPE link [<!ENTITY x SYSTEM "file:///etc/passwd">]><link project="&x;"/>`} {
		if _, err := ParseLink([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func FuzzParseLink(f *testing.F) {
	f.Add([]byte(`<link project="a" package="b"><patches><branch/><topadd>x</topadd></patches></link>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLink(data)
		if err != nil {
			return
		}
		if _, err := ParseLink(l.Render()); err != nil {
			t.Fatalf("rendered link does not parse: %v\n%s", err, l.Render())
		}
	})
}

// TestCommitQueuesLinkers: a commit to a link's target queues the projects of the packages
// that link to it, through a chain of links, as their expanded sources changed too.
func TestCommitQueuesLinkers(t *testing.T) {
	withLinkWorld(t, func(w *linkWorld) {
		w.commit("T", "t", map[string]string{"t.spec": spec})
		w.commit("L", "t", map[string]string{LinkFile: `<link project="T" package="t"/>`})
		w.commit("M", "t", map[string]string{LinkFile: `<link project="L" package="t"/>`})
		w.commit("U", "u", map[string]string{"u.spec": spec})
		for _, p := range []string{"T", "L", "M", "U"} {
			names, tickets, _ := DirtyProjects(w.tx)
			for i, n := range names {
				if n == p {
					if err := ClearDirty(w.tx, p, tickets[i]); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		w.commit("T", "t", map[string]string{"t.spec": "# changed\n" + spec})
		names, _, _ := DirtyProjects(w.tx)
		if strings.Join(names, " ") != "L M T" {
			t.Errorf("queued after the target's commit: %v, want L M T", names)
		}
	})
}
