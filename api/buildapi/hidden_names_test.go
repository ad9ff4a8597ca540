package buildapi

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestHiddenNamesAnswerAsMissing (issue 32): a request action or a token naming a project
// hidden from the caller is answered exactly as one naming a missing project — status, error
// code and words, byte for byte once the two names are swapped — whether the package named with
// it exists there or not. Before, a wrong package said unknown_package and the right one went
// on (a request was even created), which told a guesser the hidden project and its packages.
func TestHiddenNamesAnswerAsMissing(t *testing.T) {
	e := newEnv(t)
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><access><disable/></access></project>`
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"its package", req("PUT", "/source/home:alice:secret/p/_meta", asAlice, `<package name="p"><title/><description/></package>`), ok},
		{"a file", req("PUT", "/source/home:alice:secret/p/f", asAlice, "hush\n"), ok200},
		{"bob's package", req("PUT", "/source/home:bob/t/_meta", asBob, `<package name="t"><title/><description/></package>`), ok},
	})
	const hidden, missing = "home:alice:secret", "home:alice:secreu" // as long, so the answers align
	routes := []struct {
		name string
		make func(project, pkg string) apitest.Request
	}{
		{"change_devel", func(prj, pkg string) apitest.Request {
			return req("POST", "/request?cmd=create", asBob, `<request><action type="change_devel"><source project="`+prj+`" package="`+pkg+
				`"/><target project="home:bob" package="t"/></action><description>x</description></request>`)
		}},
		{"maintenance_release", func(prj, pkg string) apitest.Request {
			return req("POST", "/request?cmd=create", asBob, `<request><action type="maintenance_release"><source project="`+prj+`" package="`+pkg+
				`"/><target project="home:bob" package="t"/></action><description>x</description></request>`)
		}},
		{"submit", func(prj, pkg string) apitest.Request {
			return req("POST", "/request?cmd=create", asBob, `<request><action type="submit"><source project="`+prj+`" package="`+pkg+
				`"/><target project="home:bob" package="t"/></action><description>x</description></request>`)
		}},
		{"maintenance_incident", func(prj, pkg string) apitest.Request {
			return req("POST", "/request?cmd=create", asBob, `<request><action type="maintenance_incident"><source project="`+prj+
				`"/><target project="home:bob"/></action><description>x</description></request>`)
		}},
		{"a token bound to a package", func(prj, pkg string) apitest.Request {
			return req("POST", "/person/bob/token?cmd=create&project="+prj+"&package="+pkg, asBob, "")
		}},
	}
	for _, r := range routes {
		t.Run(r.name, func(t *testing.T) {
			want := apitest.Do(t, e.app, r.make(missing, "p"))
			if want.Status != 404 {
				t.Fatalf("a missing project: %d %s", want.Status, want.Body)
			}
			for _, pkg := range []string{"p", "nope"} {
				got := apitest.Do(t, e.app, r.make(hidden, pkg))
				body := strings.ReplaceAll(got.Body, hidden, missing)
				if got.Status != want.Status || body != want.Body || got.Header.Get("X-Opensuse-Errorcode") != want.Header.Get("X-Opensuse-Errorcode") {
					t.Errorf("the hidden project with package %q: %d %s\nwant as missing: %d %s", pkg, got.Status, got.Body, want.Status, want.Body)
				}
			}
		})
	}
	// nothing was created: bob has no request and no token naming it
	e.run(t, []scenario{
		{"no request", req("GET", "/request?view=collection&user=bob", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{hidden}}},
		{"no token", req("GET", "/person/bob/token", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{hidden}}},
	})
}

// TestHiddenProjectRoutesAnswerAsMissing (issue 32) walks the build API's routes that take a
// project (and package) name from the path or the query, as bob, with a project hidden from him
// and with a missing one of the same length: the answers must be equal byte for byte once the
// names are swapped — status, error code and words.
func TestHiddenProjectRoutesAnswerAsMissing(t *testing.T) {
	e := newEnv(t)
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><access><disable/></access>` +
		`<repository name="r"><arch>x86_64</arch></repository></project>`
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"its package", req("PUT", "/source/home:alice:secret/p/_meta", asAlice, `<package name="p"><title/><description/></package>`), ok},
		{"a file", req("PUT", "/source/home:alice:secret/p/f", asAlice, "hush\n"), ok200},
	})
	const hidden, missing = "home:alice:secret", "home:alice:secreu"
	routes := []struct{ method, path, body string }{
		{"GET", "/source/P", ""}, {"GET", "/source/P/_meta", ""}, {"GET", "/source/P/_attribute", ""},
		{"GET", "/source/P/_config", ""}, {"GET", "/source/P/_pubkey", ""}, {"GET", "/source/P/_project", ""},
		{"GET", "/source/P/p", ""}, {"GET", "/source/P/p/_meta", ""}, {"GET", "/source/P/p/f", ""},
		{"GET", "/source/P/p/_history", ""}, {"GET", "/source/P/nope", ""}, {"GET", "/source/P/nope/_meta", ""},
		{"POST", "/source/P/p?cmd=branch", ""}, {"POST", "/source/P/p?cmd=diff", ""}, {"POST", "/source/P/p?cmd=showlinked", ""},
		{"POST", "/source/P?cmd=showlinked", ""}, {"PUT", "/source/P/p/g", "x\n"}, {"DELETE", "/source/P/p", ""},
		{"DELETE", "/source/P", ""}, {"PUT", "/source/P/q/_meta", `<package name="q"><title/><description/></package>`},
		{"GET", "/build/P", ""}, {"GET", "/build/P/_result", ""}, {"GET", "/build/P/r/x86_64/p", ""},
		{"GET", "/build/P/r/x86_64/p/_log", ""}, {"GET", "/published/P", ""}, {"GET", "/published/P/r", ""},
		{"GET", "/statistics/latest_updated?project=P", ""},
		{"POST", "/source/home:bob/c?cmd=copy&oproject=P&opackage=p", ""},
		{"POST", "/source/home:bob/c?cmd=copy&oproject=P&opackage=nope", ""},
		{"POST", "/source/home:bob/l?cmd=branch&oproject=P&opackage=p", ""},
		{"POST", "/source/home:bob/l?cmd=branch&oproject=P&opackage=nope", ""},
		{"POST", "/source/home:bob/d?cmd=diff&oproject=P&opackage=p", ""},
		{"POST", "/source/home:bob/d?cmd=diff&oproject=P&opackage=nope", ""},
		{"POST", "/source/P/p?cmd=branch&target_project=home:bob:x", ""},
		{"GET", "/search/package?match=@project='P'", ""},
		{"GET", "/search/project?match=@name='P'", ""},
		{"GET", "/request?view=collection&project=P", ""},
	}
	for _, r := range routes {
		t.Run(r.method+" "+r.path, func(t *testing.T) {
			at := func(name string) apitest.Response {
				return apitest.Do(t, e.app, req(r.method, strings.ReplaceAll(r.path, "P", name), asBob, strings.ReplaceAll(r.body, "P", name)))
			}
			want, got := at(missing), at(hidden)
			body := strings.ReplaceAll(got.Body, hidden, missing)
			if got.Status != want.Status || body != want.Body || got.Header.Get("X-Opensuse-Errorcode") != want.Header.Get("X-Opensuse-Errorcode") {
				t.Errorf("hidden: %d %s\nmissing: %d %s", got.Status, got.Body, want.Status, want.Body)
			}
		})
	}
}
