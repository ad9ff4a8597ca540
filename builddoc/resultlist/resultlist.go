// Package resultlist is the build results document, OBS's resultlist (buildresult.rng), in one
// place: the build service's GET /build/<project>/_result writes it (api/buildapi, with the
// views status, summary and binarylist), the explorer's GET /api/projects/<project>/_result
// writes it again from its cache (api/explorerapi, statuses only), and the explorer's remote
// backend reads a remote build service's (explorersvc/remote). Both APIs write it with one
// Writer, so an unfiltered explorer answer is byte for byte — state included — the build
// API's for the same results.
//
// The document's state attribute is resolve.StateHash of the document written without it (an
// empty state=""), so the state changes exactly when something a client sees does: osc
// results -w sends it back as oldstate= and waits for it to change.
//
// The Writer writes by hand, not with encoding/xml: reflection was most of the time of a
// large project's answer (api/buildapi's BenchmarkBuildResult), and it is fed straight from
// each API's own types, one call per element, so no answer converts its results into another
// slice first.
package resultlist

import (
	"encoding/xml"
	"strconv"
	"unsafe"

	"github.com/pocketforge/pocketforge/packaging/resolve"
)

// Views are the parts of each result a document shows: its packages' statuses (view=status),
// a summary counting them by code (view=summary), each package's binaries (view=binarylist).
// The build API shows the statuses when no view is named; the explorer shows only them.
type Views struct{ Status, Summary, Binaries bool }

// Header is one <result>'s attributes: a repository and arch of a project, and the
// repository's state, written twice as OBS does (code and the older state). Dirty says the
// scheduler has yet to recalculate the repository (dirty="true"); Details explains a state.
type Header struct {
	Project, Repository, Arch string
	Code, Details             string
	Dirty                     bool
}

// Writer writes one resultlist document: Result for each <result>, then, for that result,
// Status for each package in order and, for view=binarylist, BinaryList and its Binary
// elements per package in the same order; Done ends the document. What the Views leave out is
// not written (Status still counts a package for the summary), so a caller may feed
// everything it has. A Writer writes one document; its body is the caller's after Done.
type Writer struct {
	b      []byte
	views  Views
	result bool // a <result> is open
	list   bool // a <binarylist> is open
	// counts are the open result's status codes in order of first appearance, for its
	// summary; index finds a code among them once there are many.
	counts []statusCount
	index  map[string]int
}

type statusCount struct {
	code string
	n    int
}

// head is the document's start up to its state's value; the state is put in by Done.
const head = `<resultlist state="`

// stateLen is the length of resolve.StateHash's answer (32 hex digits).
const stateLen = 32

// indexFrom is the number of distinct codes in a result from which the summary's counts are
// found by a map rather than by comparing each (OBS has some fifteen codes).
const indexFrom = 16

// NewWriter starts a document showing views; size is a guess of the body's length (Estimate),
// so the body is allocated once.
func NewWriter(views Views, size int) *Writer {
	w := &Writer{views: views, b: make([]byte, 0, max(size, 64)+stateLen)}
	w.b = append(w.b, head+`">`+"\n"...)
	return w
}

// Estimate guesses the length of a document of results results and statuses package
// statuses, statuses shown, a tenth of them with details.
func Estimate(results, statuses int) int {
	return 64 + results*128 + statuses*64
}

// Result opens a <result> (ending the one before).
func (w *Writer) Result(h Header) {
	w.endResult()
	b := append(w.b, `  <result project="`...)
	b = appendEscaped(b, h.Project)
	b = append(b, `" repository="`...)
	b = appendEscaped(b, h.Repository)
	b = append(b, `" arch="`...)
	b = appendEscaped(b, h.Arch)
	b = append(b, `" code="`...)
	b = appendEscaped(b, h.Code)
	b = append(b, `" state="`...)
	b = appendEscaped(b, h.Code)
	if h.Dirty {
		b = append(b, `" dirty="true`...)
	}
	if h.Details != "" {
		b = append(b, `" details="`...)
		b = appendEscaped(b, h.Details)
	}
	w.b = append(b, `">`+"\n"...)
	w.result = true
}

// Status is one package's status in the open result: written with view=status, counted for
// view=summary. It comes before the result's binary lists.
func (w *Writer) Status(pkg, code, details string) {
	if !w.result || w.list {
		panic("resultlist: Status outside a result's statuses")
	}
	if w.views.Summary {
		w.count(code)
	}
	if !w.views.Status {
		return
	}
	b := append(w.b, `    <status package="`...)
	b = appendEscaped(b, pkg)
	b = append(b, `" code="`...)
	b = appendEscaped(b, code)
	if details == "" {
		w.b = append(b, `"/>`+"\n"...)
		return
	}
	b = append(b, `">`+"\n      <details>"...)
	b = appendEscaped(b, details)
	w.b = append(b, "</details>\n    </status>\n"...)
}

// count adds one package of code to the open result's summary.
func (w *Writer) count(code string) {
	if w.index != nil {
		if i, ok := w.index[code]; ok {
			w.counts[i].n++
			return
		}
	} else {
		for i := range w.counts {
			if w.counts[i].code == code {
				w.counts[i].n++
				return
			}
		}
	}
	w.counts = append(w.counts, statusCount{code, 1})
	switch n := len(w.counts); {
	case w.index != nil:
		w.index[code] = n - 1
	case n == indexFrom:
		w.index = make(map[string]int, 2*indexFrom)
		for i, c := range w.counts {
			w.index[c.code] = i
		}
	}
}

// BinaryList opens the <binarylist> of pkg in the open result (ending the one before), for
// view=binarylist; Binary adds its files.
func (w *Writer) BinaryList(pkg string) {
	if !w.result {
		panic("resultlist: BinaryList outside a result")
	}
	if !w.views.Binaries {
		return
	}
	w.endList()
	b := append(w.b, `    <binarylist package="`...)
	b = appendEscaped(b, pkg)
	w.b = append(b, `">`+"\n"...)
	w.list = true
}

// Binary is one file of the open binary list: its name, size in bytes and modification time
// in seconds since the epoch.
func (w *Writer) Binary(filename string, size, mtime int64) {
	if !w.list {
		return // view=binarylist not asked for
	}
	b := append(w.b, `      <binary filename="`...)
	b = appendEscaped(b, filename)
	b = append(b, `" size="`...)
	b = strconv.AppendInt(b, size, 10)
	b = append(b, `" mtime="`...)
	b = strconv.AppendInt(b, mtime, 10)
	w.b = append(b, `"/>`+"\n"...)
}

func (w *Writer) endList() {
	if w.list {
		w.b = append(w.b, "    </binarylist>\n"...)
		w.list = false
	}
}

// endResult ends the open result: its binary list, its summary, the element.
func (w *Writer) endResult() {
	if !w.result {
		return
	}
	w.endList()
	b := w.b
	if w.views.Summary {
		b = append(b, "    <summary>\n"...)
		for _, c := range w.counts {
			b = append(b, `      <statuscount code="`...)
			b = appendEscaped(b, c.code)
			b = append(b, `" count="`...)
			b = strconv.AppendInt(b, int64(c.n), 10)
			b = append(b, `"/>`+"\n"...)
		}
		b = append(b, "    </summary>\n"...)
	}
	w.b = append(b, "  </result>\n"...)
	w.result = false
	w.counts, w.index = w.counts[:0], nil
}

// Done ends the document and returns it with its state, and the state: resolve.StateHash of
// the document with an empty state attribute.
func (w *Writer) Done() (body []byte, state string) {
	w.endResult()
	b := append(w.b, "</resultlist>\n"...)
	// The hash reads the bytes as they are, without a copy: the string does not outlive the
	// call, and b is not changed before it returns.
	state = resolve.StateHash(unsafe.String(unsafe.SliceData(b), len(b)))
	// Put the state in place: move everything after head along by its length.
	n := len(b)
	b = append(b, state...)
	copy(b[len(head)+len(state):], b[len(head):n])
	copy(b[len(head):], state)
	w.b = nil
	return b, state
}

// appendEscaped appends s escaped for an attribute value in double quotes, or for text:
// exactly what xml.EscapeText writes, but a string of printable ASCII with nothing to escape
// — nearly every package name, code and repository — is appended as it is, without
// EscapeText's conversion and byte-by-byte writes (they were most of a 500-package render).
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\'', c == '&', c == '<', c == '>':
			a := appender(b)
			_ = xml.EscapeText(&a, []byte(s))
			return a
		}
	}
	return append(b, s...)
}

// appender is a byte slice xml.EscapeText can write to.
type appender []byte

func (a *appender) Write(p []byte) (int, error) {
	*a = append(*a, p...)
	return len(p), nil
}

// List is a resultlist as a client reads it (encoding/xml): each result's attributes and its
// packages' statuses; the binary lists and summaries are not read.
type List struct {
	State   string   `xml:"state,attr"`
	Results []Result `xml:"result"`
}

// Result is a <result> as read: OBS writes the repository's state as code and as the older
// state (RepoCode reads them), and dirty as "true" (IsDirty).
type Result struct {
	Project    string   `xml:"project,attr"`
	Repository string   `xml:"repository,attr"`
	Arch       string   `xml:"arch,attr"`
	Code       string   `xml:"code,attr"`
	State      string   `xml:"state,attr"`
	Dirty      string   `xml:"dirty,attr"`
	Details    string   `xml:"details,attr"`
	Statuses   []Status `xml:"status"`
}

// Status is a <status> as read: a package, its code, and its details element's text as it
// stands (OBS indents it).
type Status struct {
	Package string `xml:"package,attr"`
	Code    string `xml:"code,attr"`
	Details string `xml:"details"`
}

// RepoCode is the repository's state: code, or state where code is missing.
func (r *Result) RepoCode() string {
	if r.Code == "" {
		return r.State
	}
	return r.Code
}

// IsDirty reports whether the result is marked dirty (dirty="true", or "1").
func (r *Result) IsDirty() bool { return r.Dirty == "true" || r.Dirty == "1" }
