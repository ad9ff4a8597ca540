package apidocs

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
)

// Route is one bound route: its method and fiber path (:param style).
type Route struct{ Method, Path string }

// BuildRoute is one route of the build API with the XML documents it takes and answers (see
// buildDocs for the names); Known is false for a bound route the table does not name yet.
type BuildRoute struct {
	Method, Path string
	In, Out      string
	Known        bool
}

// Template is the route's path as an OpenAPI path template ({param} style).
func (r BuildRoute) Template() string { return OpenAPIPath(r.Path) }

// buildTable parses buildDocs once.
var buildTable = sync.OnceValue(func() map[Route][2]string {
	t := map[Route][2]string{}
	for _, line := range strings.Split(buildDocs, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			panic("apidocs: bad buildDocs line: " + line)
		}
		t[Route{f[0], f[1]}] = [2]string{f[2], f[3]}
	}
	return t
})

// BuildTable lists the routes the table of build documents names (the test compares them with
// the bound ones).
func BuildTable() []Route {
	var out []Route
	for r := range buildTable() {
		out = append(out, r)
	}
	sortRoutes(out)
	return out
}

// BuildRoutes joins the build API's bound routes with the table of their documents, sorted by
// path then method. A route the table lacks is listed with Known false rather than left out:
// the list says what is served.
func BuildRoutes(bound []Route) []BuildRoute {
	bound = append([]Route(nil), bound...)
	sortRoutes(bound)
	out := make([]BuildRoute, 0, len(bound))
	for i, r := range bound {
		if i > 0 && bound[i-1] == r {
			continue
		}
		docs, ok := buildTable()[r]
		out = append(out, BuildRoute{Method: r.Method, Path: r.Path, In: docs[0], Out: docs[1], Known: ok})
	}
	return out
}

// BuildText renders the build route list as the plain-text table served at
// /_appliance/openapi/build.txt: a header, then method, path ({param} style), request and
// answer document a line.
func BuildText(list []BuildRoute) []byte {
	var b bytes.Buffer
	b.WriteString("# The build service API's routes and the XML documents they take and answer.\n" +
		"# *.rng / *.xsd: the schema of that name in the Open Build Service API documents (docs/api/api);\n" +
		"# other names are root elements of documents without a schema there; - no body; file: the bytes of a file;\n" +
		"# text: plain text; ?: not named yet. Routes taking cmd=... answer status.xsd unless said otherwise.\n")
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "METHOD\tPATH\tREQUEST\tANSWER")
	for _, r := range list {
		in, out := r.In, r.Out
		if !r.Known {
			in, out = "?", "?"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", r.Method, OpenAPIPath(r.Path), in, out)
	}
	w.Flush()
	return b.Bytes()
}

// OpenAPIPath turns a fiber path into an OpenAPI path template: :id becomes {id}, and a
// wildcard * becomes {path}.
func OpenAPIPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		switch {
		case strings.HasPrefix(s, ":"):
			segs[i] = "{" + strings.TrimSuffix(s[1:], "?") + "}"
		case s == "*" || s == "+":
			segs[i] = "{path}"
		}
	}
	return strings.Join(segs, "/")
}

func sortRoutes(rs []Route) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Path != rs[j].Path {
			return rs[i].Path < rs[j].Path
		}
		return rs[i].Method < rs[j].Method
	})
}
