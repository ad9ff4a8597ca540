package buildapi

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/apitest"
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
