package kit

import (
	"fmt"
	"testing"
)

func TestJournal(t *testing.T) {
	j := NewJournal(3)
	for i := 1; i <= 5; i++ {
		j.Add(Entry{ID: fmt.Sprint(i), API: []string{"cloud", "build"}[i%2], Status: 200 + i%2*204, Method: "GET", Path: fmt.Sprintf("/p/%d", i)})
	}
	ids := func(es []Entry) string {
		s := ""
		for _, e := range es {
			s += e.ID
		}
		return s
	}
	cases := []struct {
		name string
		f    Filter
		want string
	}{
		{"newest first, oldest dropped", Filter{}, "543"},
		{"limit", Filter{Limit: 2}, "54"},
		{"by api", Filter{API: "build"}, "53"},
		{"by exact status", Filter{Status: 404}, "53"},
		{"by status class", Filter{Status: 2}, "4"},
		{"by path prefix", Filter{PathPrefix: "/p/4"}, "4"},
		{"by method", Filter{Method: "post"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ids(j.List(c.f)); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	j.Clear()
	if len(j.List(Filter{})) != 0 {
		t.Fatal("clear")
	}
	NewJournal(0).Add(Entry{}) // a disabled journal ignores entries
}

func TestReadiness(t *testing.T) {
	r := NewReadiness("store", "fixtures")
	if r.Ready() {
		t.Fatal("ready before any check")
	}
	r.Set("store", true)
	r.Set("fixtures", true)
	if !r.Ready() {
		t.Fatal("not ready after all checks")
	}
	r.Set("index", false)
	if r.Ready() || len(r.Checks()) != 3 {
		t.Fatal("a new unmet check must make it unready")
	}
}

func TestSaneID(t *testing.T) {
	for id, want := range map[string]bool{"abc-123": true, "": false, "a b": false, "x\ny": false, string(make([]byte, 65)): false} {
		if saneID(id) != want {
			t.Errorf("saneID(%q) != %v", id, want)
		}
	}
}

// TestJournalCopiesViews: Add copies strings that view a buffer the caller reuses at once (as
// the middleware's views of fiber's request buffers), and List's entries keep their values while
// the ring goes round under them.
func TestJournalCopiesViews(t *testing.T) {
	j := NewJournal(8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 0, 64)
		for i := 0; i < 20000; i++ {
			buf = fmt.Appendf(buf[:0], "/p/%d", i)
			id := fmt.Sprint(i)
			j.Add(Entry{ID: id, Path: View(buf), UserAgent: View(buf[1:2])})
			clear(buf)
		}
	}()
	var kept []Entry
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		kept = append(kept, j.List(Filter{Limit: 3})...)
	}
	for _, e := range kept {
		if e.Path != "/p/"+e.ID || e.UserAgent != "p" {
			t.Fatalf("entry %s: path %q, user agent %q", e.ID, e.Path, e.UserAgent)
		}
	}
}
