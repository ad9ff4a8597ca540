package api

import (
	"strings"
	"testing"
)

// TestExplorerHiddenProjectAnswersAsMissing (issue 32) walks the explorer's routes that take a
// project (and package) name — the JSON API, the badges and the build proxy — anonymous and as
// bob, with a project hidden from both and a missing one of the same length: the answers must
// be equal byte for byte once the names are swapped (status, Content-Type, error code, body).
func TestExplorerHiddenProjectAnswersAsMissing(t *testing.T) {
	e := proxyEnv(t, nil)
	const hidden, missing = "home:alice:secret", "home:alice:secreu"
	routes := []string{
		"/api/projects/P/_result", "/api/projects/P/_result?package=p", "/api/projects/P/_result?package=nope",
		"/api/search/binary?q=pocket-cli&project=P", "/api/search/binary?q=f&project=P&package=p",
		"/badge/P.svg", "/badge/P/p.svg", "/badge/P/nope.svg", "/badge/P/p/r/x86_64.svg", "/badge/P.svg?type=percent",
		"/obs/source/P", "/obs/source/P/_meta", "/obs/source/P/p", "/obs/source/P/p/f", "/obs/source/P/nope",
		"/obs/build/P/_result", "/obs/build/P/r/x86_64/p", "/obs/build/P/r/x86_64/p/_log",
		"/obs/source/Pocket:1.0/pocket-cli?cmd=diff&oproject=P&opackage=p",
		"/download/P/", "/download/P/r/", "/download/P/r/P.repo", "/download/P/r/repodata/repomd.xml",
	}
	for _, who := range []struct{ name, auth string }{{"anonymous", ""}, {"bob", basicOf("bob", "bob-password")}} {
		for _, path := range routes {
			t.Run(who.name+" "+path, func(t *testing.T) {
				at := func(name string) (int, string, string, string) {
					method := "GET"
					if strings.Contains(path, "cmd=") {
						method = "POST"
					}
					r, _ := e.do(t, call{method: method, path: strings.ReplaceAll(path, "P", name), auth: who.auth})
					return r.Status, r.Header.Get("Content-Type"), r.Header.Get("X-Opensuse-Errorcode"), strings.ReplaceAll(r.Body, hidden, missing)
				}
				ws, wt, wc, wb := at(missing)
				gs, gt, gc, gb := at(hidden)
				if gs != ws || gt != wt || gc != wc || gb != wb {
					t.Errorf("hidden: %d %s %s %.300s\nmissing: %d %s %s %.300s", gs, gt, gc, gb, ws, wt, wc, wb)
				}
			})
		}
	}
}
