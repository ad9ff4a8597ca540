package textdiff

import (
	"strings"
	"testing"
)

func TestMerge3(t *testing.T) {
	base := "a\nb\nc\nd\ne\nf\ng\n"
	cases := []struct {
		name, ours, theirs, want string
		ok                       bool
	}{
		{"nobody changed", base, base, base, true},
		{"only ours", "a\nB\nc\nd\ne\nf\ng\n", base, "a\nB\nc\nd\ne\nf\ng\n", true},
		{"only theirs", base, "a\nb\nc\nd\ne\nF\ng\n", "a\nb\nc\nd\ne\nF\ng\n", true},
		{"both, apart", "a\nB\nc\nd\ne\nf\ng\n", "a\nb\nc\nd\ne\nF\ng\n", "a\nB\nc\nd\ne\nF\ng\n", true},
		{"both the same change", "a\nB\nc\nd\ne\nf\ng\n", "a\nB\nc\nd\ne\nf\ng\n", "a\nB\nc\nd\ne\nf\ng\n", true},
		{"ours appends, theirs prepends", base + "h\n", "0\n" + base, "0\n" + base + "h\n", true},
		{"conflict on one line", "a\nB\nc\nd\ne\nf\ng\n", "a\nX\nc\nd\ne\nf\ng\n", "", false},
		{"adjacent changes conflict", "a\nB\nc\nd\ne\nf\ng\n", "a\nb\nC\nd\ne\nf\ng\n", "", false},
		{"two insertions at one place", "a\nb\nnew1\nc\nd\ne\nf\ng\n", "a\nb\nnew2\nc\nd\ne\nf\ng\n", "", false},
		{"ours deletes, theirs edits elsewhere", "a\nb\nc\ne\nf\ng\n", "a\nb\nc\nd\ne\nf\nG\n", "a\nb\nc\ne\nf\nG\n", true},
	}
	for _, c := range cases {
		got, ok := Merge3([]byte(base), []byte(c.ours), []byte(c.theirs))
		if ok != c.ok || (ok && string(got) != c.want) {
			t.Errorf("%s: got %q ok=%v, want %q ok=%v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestApply(t *testing.T) {
	spec := "Name: x\nVersion: 1\n\n%prep\n%setup\n\n%build\nmake\n"
	files := map[string][]byte{"x.spec": []byte(spec)}
	patch := "--- x.spec\t2026-01-01\n+++ x.spec\t2026-01-02\n" + Unified([]byte(spec), []byte(strings.Replace(spec, "make\n", "make %{?_smp_mflags}\n", 1)), 3)
	if err := Apply(files, []byte(patch)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(files["x.spec"]), "make %{?_smp_mflags}") {
		t.Fatalf("not applied: %q", files["x.spec"])
	}
	// Applying it again no longer fits: an error, and the file stays as it was.
	before := string(files["x.spec"])
	if err := Apply(files, []byte(patch)); err == nil {
		t.Error("a patch that does not fit applied")
	}
	if string(files["x.spec"]) != before {
		t.Error("a failed patch changed the file")
	}
	// A hunk off by a few lines still applies; a new file is created; a deleted one removed.
	shifted := map[string][]byte{"x.spec": []byte("# top\n# more\n" + spec), "old.txt": []byte("bye\n")}
	add := "--- /dev/null\n+++ new.txt\n@@ -0,0 +1 @@\n+hello\n--- old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n"
	if err := Apply(shifted, []byte(patch+add)); err != nil {
		t.Fatal(err)
	}
	if string(shifted["new.txt"]) != "hello\n" || shifted["old.txt"] != nil || !strings.Contains(string(shifted["x.spec"]), "_smp_mflags") {
		t.Errorf("got %q", shifted)
	}
	for _, bad := range []string{"", "not a diff", "--- ../etc\n+++ ../etc\n@@ -1 +1 @@\n-a\n+b\n", "--- x.spec\n+++ x.spec\n@@ -z +1 @@\n", "--- gone\n+++ gone\n@@ -1 +1 @@\n-a\n+b\n"} {
		if err := Apply(map[string][]byte{"x.spec": []byte(spec)}, []byte(bad)); err == nil {
			t.Errorf("%q applied", bad)
		}
	}
}

func FuzzMerge3(f *testing.F) {
	f.Add("a\nb\n", "a\nB\n", "A\nb\n")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		if len(base)+len(ours)+len(theirs) > 4096 {
			return
		}
		got, ok := Merge3([]byte(base), []byte(ours), []byte(theirs))
		if ok && ours == base && string(got) != theirs {
			t.Fatalf("ours unchanged: got %q, want theirs %q", got, theirs)
		}
		if ok && theirs == base && string(got) != ours {
			t.Fatalf("theirs unchanged: got %q, want ours %q", got, ours)
		}
		_ = Apply(map[string][]byte{"f": []byte(base)}, []byte(ours))
	})
}
