package explorerapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/valyala/fasthttp"
)

// proxyPath is a proxied path taken apart: raw as the client encoded it after the prefix
// ("/source/home%3Aalice/pkg"), forwarded byte for byte, and its decoded segments
// ("source", "home:alice", "pkg"), which the rules below read.
type proxyPath struct {
	raw  string
	segs []string
}

// parseProxyPath checks the part of a request path after the proxy prefix. A "." or ".."
// segment — written plainly, percent-encoded, or encoded twice — a backslash, a NUL or an
// encoded slash is refused with 400 and never forwarded: whatever a backend would make of it,
// the proxy must not be the way out of /source and /build. (fiber routes on the path as sent,
// so /obs/source/../../x arrives here too, and is refused like the encoded forms.)
func parseProxyPath(raw string) (proxyPath, error) {
	bad := kit.Errorf(http.StatusBadRequest, "The build proxy refuses paths with . or .. segments, backslashes or encoded slashes")
	lower := strings.ToLower(raw)
	if strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c") || strings.Contains(lower, "%00") {
		return proxyPath{}, bad
	}
	dec, err := url.PathUnescape(raw)
	if err != nil {
		return proxyPath{}, kit.Errorf(http.StatusBadRequest, "Malformed percent-encoding in the path")
	}
	if strings.ContainsAny(dec, "\\\x00") || strings.Contains(strings.ToLower(dec), "%2e") {
		return proxyPath{}, bad
	}
	p := proxyPath{raw: raw}
	for _, s := range strings.Split(strings.Trim(dec, "/"), "/") {
		if s == "." || s == ".." {
			return proxyPath{}, bad
		}
		p.segs = append(p.segs, s)
	}
	if len(p.segs) == 1 && p.segs[0] == "" {
		p.segs = nil
	}
	return p, nil
}

// requestList reports whether a path asks for requests: /request/… (the seed's), and
// /search/request, which osc asks after every checkout for the package's open requests (it
// fails the checkout on a 404). The explorer manages no requests: both are always empty.
func requestList(segs []string) bool {
	return len(segs) > 0 && segs[0] == "request" || len(segs) > 1 && segs[0] == "search" && segs[1] == "request"
}

// readOnlyCmds are the source commands osc sends as POST that only read: rdiff (diff),
// linkdiff, the packages linking here (showlinked) and the project's services a checkout
// looks at (getprojectservices).
var readOnlyCmds = map[string]bool{"diff": true, "linkdiff": true, "showlinked": true, "getprojectservices": true}

// postShape reports whether a path takes any read-only POST at all (which the Allow of its
// 405 then names): a project or package under /source, a package's _buildinfo (osc buildinfo
// with a local spec file as the body), a repository's _builddepinfo, a project's _result.
func postShape(segs []string) bool {
	if len(segs) == 0 {
		return false
	}
	n, last := len(segs), segs[len(segs)-1]
	switch segs[0] {
	case "source":
		// not …/_meta or …/_attribute; …/_project is where osc asks a project's services
		return n == 2 || n == 3 && (!strings.HasPrefix(segs[2], "_") || segs[2] == "_project")
	case "build":
		return n == 6 && last == "_buildinfo" || n == 5 && last == "_builddepinfo" || n == 3 && last == "_result"
	}
	return false
}

// readOnlyPost reports whether a POST only reads: the shapes above, under /source only with
// exactly one cmd and that one read-only, under /build with no cmd at all.
func readOnlyPost(segs []string, args *fasthttp.Args) bool {
	if !postShape(segs) {
		return false
	}
	cmds := args.PeekMulti("cmd")
	if segs[0] == "build" {
		return len(cmds) == 0
	}
	return len(cmds) == 1 && readOnlyCmds[string(cmds[0])]
}

// projectParams are the query parameters that name a further project (rdiff's other side,
// _result's and search-like filters), which must be reachable too.
var projectParams = []string{"oproject", "project"}
