package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestOscProjectMove (issue 37): Admin moves a built project with the real osc (osc has no
// command of its own for it: `osc api -X POST /source/<new>?cmd=move&oproject=<old>`, as OBS
// admins do), first refused while a build of it is scheduled or running, then done: osc lists
// the packages and their history under the new name, the old name is gone, and the farm
// publishes the tree under the new name.
func TestOscProjectMove(t *testing.T) {
	t.Parallel()
	p, osc := binWorld(t)
	const move = "/source/e2ebins:moved?cmd=move&oproject=e2ebins"
	if code, out := osc("api", "-X", "PUT", "-d", "notes\n", "/source/e2ebins/hello/notes.txt"); code != 0 {
		t.Fatalf("a source change: exit %d\n%s", code, out)
	}
	for i := 0; ; i++ { // the dev clock stands still: the new build waits or runs
		_, out := osc("results", "e2ebins", "hello")
		if strings.Contains(out, "scheduled") || strings.Contains(out, "building") {
			break
		}
		if i == 40 {
			t.Fatalf("hello was not scheduled again:\n%s", out)
		}
		time.Sleep(250 * time.Millisecond)
	}
	if code, out := osc("api", "-X", "POST", move); code == 0 || !strings.Contains(out, "scheduled or building") {
		t.Fatalf("a move while hello builds: exit %d\n%s", code, out)
	}
	advanceUntil(t, p, osc, "hello built again", "/build/e2ebins/standard/x86_64/hello", "hello-1.0-2.1.x86_64.rpm")
	if code, out := osc("api", "-X", "POST", move); code != 0 || !strings.Contains(out, `code="ok"`) {
		t.Fatalf("the move: exit %d\n%s", code, out)
	}
	if code, out := osc("meta", "prj", "e2ebins"); code == 0 || !strings.Contains(out, "404") {
		t.Errorf("the old name after the move: exit %d\n%s", code, out)
	}
	if code, out := osc("ls", "e2ebins:moved"); code != 0 || !strings.Contains(out, "hello\n") || !strings.Contains(out, "libfoo\n") {
		t.Errorf("osc ls e2ebins:moved: exit %d\n%s", code, out)
	}
	if code, out := osc("log", "e2ebins:moved", "hello"); code != 0 || strings.Count(out, "| Admin |") != 2 {
		t.Errorf("osc log e2ebins:moved hello (2 revisions): exit %d\n%s", code, out)
	}
	if code, out := osc("meta", "pkg", "e2ebins:moved", "hello"); code != 0 || !strings.Contains(out, `project="e2ebins:moved"`) {
		t.Errorf("the package meta: exit %d\n%s", code, out)
	}
	advanceUntil(t, p, osc, "the tree published under the new name", "/published/e2ebins:moved/standard/x86_64", "libfoo-1.0-1.1.x86_64.rpm")
	if code, out := osc("results", "e2ebins:moved"); code != 0 || !strings.Contains(out, "succeeded") {
		t.Errorf("osc results e2ebins:moved: exit %d\n%s", code, out)
	}
}

// advanceUntil moves p's dev clock on, 30 s at a time, until osc api path shows want.
func advanceUntil(t *testing.T, p *proc, osc func(args ...string) (int, string), what, path, want string) {
	t.Helper()
	var out string
	for range 60 {
		if _, out = osc("api", path); strings.Contains(out, want) {
			return
		}
		if code, body := request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"30s"}`)); code != 200 {
			t.Fatalf("clock: %d %s", code, body)
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("%s: %s lacks %s:\n%s", what, path, want, out)
}
