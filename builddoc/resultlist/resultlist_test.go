package resultlist

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/packaging/resolve"
)

// write feeds results to a Writer as the build API does: each result's statuses, then, for
// view=binarylist, each package's binaries in the statuses' order.
func write(results []fxResult, v Views) ([]byte, string) {
	n := 0
	for _, r := range results {
		n += len(r.Statuses)
	}
	w := NewWriter(v, Estimate(len(results), n))
	for _, r := range results {
		w.Result(Header{Project: r.Project, Repository: r.Repository, Arch: r.Arch, Code: r.Code, Details: r.Details, Dirty: r.Dirty})
		for _, st := range r.Statuses {
			w.Status(st.Package, st.Code, st.Details)
		}
		if v.Binaries {
			for _, st := range r.Statuses {
				w.BinaryList(st.Package)
				for _, b := range r.Binaries[st.Package] {
					w.Binary(b.Filename, b.Size, b.MTime)
				}
			}
		}
	}
	return w.Done()
}

// viewsName names a combination of views as the golden files are named.
func viewsName(v Views) string {
	var names []string
	if v.Status {
		names = append(names, "status")
	}
	if v.Summary {
		names = append(names, "summary")
	}
	if v.Binaries {
		names = append(names, "binarylist")
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "+")
}

var stateAttr = regexp.MustCompile(`^<resultlist state="([0-9a-f]{32})">\n`)

// TestGolden: every combination of views writes exactly the bytes, state included, the build
// API's renderer wrote for the fixture before this package (testdata/<views>.xml); the
// explorer's renderer wrote status.xml's bytes too. The state is the hash of the document
// with an empty state, and Done answers the same state it wrote.
func TestGolden(t *testing.T) {
	for i := range 8 {
		v := Views{Status: i&1 != 0, Summary: i&2 != 0, Binaries: i&4 != 0}
		t.Run(viewsName(v), func(t *testing.T) {
			body, state := write(fixture(), v)
			checkDoc(t, filepath.Join("testdata", viewsName(v)+".xml"), body, state)
		})
	}
	t.Run("empty", func(t *testing.T) {
		body, state := write(nil, Views{Status: true, Summary: true, Binaries: true})
		checkDoc(t, filepath.Join("testdata", "empty.xml"), body, state)
	})
}

func checkDoc(t *testing.T, golden string, body []byte, state string) {
	t.Helper()
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(body, want) {
		t.Errorf("%s:\n%s\nwant\n%s", golden, body, want)
	}
	m := stateAttr.FindSubmatch(body)
	if m == nil || string(m[1]) != state {
		t.Fatalf("state %q, document starts %.60q", state, body)
	}
	without := strings.Replace(string(body), state, "", 1)
	if h := resolve.StateHash(without); h != state {
		t.Errorf("state %s, want %s (the hash of the document without it)", state, h)
	}
}

// TestStateFollowsWhatIsShown: a change a client sees changes the state; the same results
// written twice have the same one.
func TestStateFollowsWhatIsShown(t *testing.T) {
	all := Views{Status: true, Summary: true, Binaries: true}
	_, s1 := write(fixture(), all)
	_, s2 := write(fixture(), all)
	changed := fixture()
	changed[1].Statuses[1].Details = "now it says why"
	_, s3 := write(changed, all)
	if s1 != s2 || s1 == s3 {
		t.Errorf("states %s %s %s", s1, s2, s3)
	}
}

// TestEscapes: the fast path writes exactly what xml.EscapeText writes.
func TestEscapes(t *testing.T) {
	for _, in := range []string{"", "pocket-cli", "a<b", `"q"`, "it's", "x&y", "tab\there", "line\nbreak", "cr\rx",
		"ünïcode", "bad\xffutf8", "ctl\x01", "del\x7f", "nothing provides libfoo.so()(64bit) >= 2", "\uFFFE", "end>"} {
		var want bytes.Buffer
		_ = xml.EscapeText(&want, []byte(in))
		if got := appendEscaped([]byte("pre"), in); string(got) != "pre"+want.String() {
			t.Errorf("%q: %q, want %q", in, got, "pre"+want.String())
		}
	}
}

// TestSummaryOfManyCodes: the summary counts codes in order of first appearance, past the
// number where it starts finding them by a map as well, and starts afresh in each result.
func TestSummaryOfManyCodes(t *testing.T) {
	var r fxResult
	r.Project, r.Repository, r.Arch, r.Code = "p", "r", "a", "published"
	var want strings.Builder
	for i := range 40 {
		code := fmt.Sprintf("code%02d", (i*7)%20)
		r.Statuses = append(r.Statuses, fxStatus{Package: fmt.Sprint("pkg", i), Code: code})
	}
	counts := map[string]int{}
	var order []string
	for _, st := range r.Statuses {
		if counts[st.Code] == 0 {
			order = append(order, st.Code)
		}
		counts[st.Code]++
	}
	want.WriteString("    <summary>\n")
	for _, c := range order {
		fmt.Fprintf(&want, `      <statuscount code="%s" count="%d"/>`+"\n", c, counts[c])
	}
	want.WriteString("    </summary>\n")
	body, _ := write([]fxResult{r, r}, Views{Summary: true})
	if got := strings.Count(string(body), want.String()); got != 2 {
		t.Errorf("summary written %d times, want twice:\n%s\nwant\n%s", got, body, want.String())
	}
}

// TestRead: a document written with every view reads back as written (binary lists and
// summaries skipped), and RepoCode and IsDirty read OBS's older forms.
func TestRead(t *testing.T) {
	body, state := write(fixture(), Views{Status: true, Summary: true, Binaries: true})
	var l List
	if err := xml.Unmarshal(body, &l); err != nil {
		t.Fatal(err)
	}
	if l.State != state || len(l.Results) != len(fixture()) {
		t.Fatalf("state %q, %d results", l.State, len(l.Results))
	}
	for i, want := range fixture() {
		got := l.Results[i]
		if got.Project != want.Project || got.Repository != want.Repository || got.Arch != want.Arch ||
			got.RepoCode() != want.Code || got.Details != want.Details || got.IsDirty() != want.Dirty ||
			len(got.Statuses) != len(want.Statuses) {
			t.Fatalf("result %d: %+v, want %+v", i, got, want)
		}
		for j, st := range want.Statuses {
			// what the document carries: invalid UTF-8 and control characters were replaced
			var d bytes.Buffer
			_ = xml.EscapeText(&d, []byte(st.Details))
			var text struct {
				S string `xml:",chardata"`
			}
			_ = xml.Unmarshal([]byte("<d>"+d.String()+"</d>"), &text)
			if g := got.Statuses[j]; g.Package != st.Package || g.Code != st.Code || g.Details != text.S {
				t.Errorf("result %d status %d: %+v, want %+v", i, j, g, st)
			}
		}
	}
	var old List
	if err := xml.Unmarshal([]byte(`<resultlist><result state="building" dirty="1"/><result code="a" state="b"/></resultlist>`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Results[0].RepoCode() != "building" || !old.Results[0].IsDirty() || old.Results[1].RepoCode() != "a" || old.Results[1].IsDirty() {
		t.Errorf("%+v", old)
	}
}

// TestMisuse: a status after a binary list, or an element outside a result, is a bug of the
// caller's, not a malformed document.
func TestMisuse(t *testing.T) {
	for name, f := range map[string]func(w *Writer){
		"status before a result":      func(w *Writer) { w.Status("p", "c", "") },
		"binary list before a result": func(w *Writer) { w.BinaryList("p") },
		"status after a binary list": func(w *Writer) {
			w.Result(Header{})
			w.BinaryList("p")
			w.Status("p", "c", "")
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f(NewWriter(Views{Status: true, Binaries: true}, 0))
		})
	}
}

// big is a project of n packages in 2 repositories × 2 archs (the explorer's benchmark
// project: a tenth of the packages unresolvable with details), each package with two binaries.
func big(n int) []fxResult {
	codes := []string{"succeeded", "succeeded", "succeeded", "failed", "building", "scheduled", "excluded"}
	var out []fxResult
	for _, repo := range []string{"standard", "images"} {
		for _, arch := range []string{"x86_64", "aarch64"} {
			r := fxResult{Project: "Pocket:Big", Repository: repo, Arch: arch, Code: "published", Binaries: map[string][]fxBinary{}}
			for i := range n {
				st := fxStatus{Package: fmt.Sprintf("package-%04d", i), Code: codes[i%len(codes)]}
				if i%10 == 0 {
					st.Code, st.Details = "unresolvable", fmt.Sprintf("nothing provides libdep%d.so()(64bit) needed by package-%04d", i, i)
				}
				r.Statuses = append(r.Statuses, st)
				r.Binaries[st.Package] = []fxBinary{{st.Package + "-1.0-1.1." + arch + ".rpm", 123456, 1700000000}, {"_statistics", 512, 1700000000}}
			}
			out = append(out, r)
		}
	}
	return out
}

// BenchmarkWriter500: the document of a 500-package project in 2 repositories × 2 archs,
// with the explorer's view (statuses) and with every view.
func BenchmarkWriter500(b *testing.B) {
	res := big(500)
	for _, v := range []Views{{Status: true}, {Status: true, Summary: true, Binaries: true}} {
		b.Run(viewsName(v), func(b *testing.B) {
			body, _ := write(res, v)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				write(res, v)
			}
		})
	}
}
