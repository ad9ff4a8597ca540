package buildapi

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// searchURL is route?match=<match>&<extra>, the match escaped as osc escapes it.
func searchURL(route, match, extra string) string {
	u := route + "?match=" + url.QueryEscape(match)
	if extra != "" {
		u += "&" + extra
	}
	return u
}

// searchRequests are the requests the search scenarios find, numbered far above the demo
// world's and naming projects of their own.
func searchRequests(now time.Time) []buildstore.Request {
	branch := "home:alice:branches:srch:test"
	submit := func(id uint64, state, who string) buildstore.Request {
		return buildstore.Request{ID: id, Creator: "alice",
			Actions: []buildstore.RequestAction{{Type: "submit",
				Source:  &buildstore.ActionSource{Project: branch, Package: "hello", Rev: "2"},
				Target:  &buildstore.ActionTarget{Project: "srch:test", Package: "hello"},
				Options: buildstore.ActionOptions{SourceUpdate: "cleanup"}}},
			State:   buildstore.RequestState{Name: state, Who: who, When: now, Created: now},
			History: []buildstore.HistoryRecord{{Who: "alice", When: now, Description: "Request created", Comment: "please"}},
			Updated: now, Description: "please"}
	}
	inReview := submit(9001, buildstore.RequestReview, "alice")
	inReview.Reviews = []buildstore.Review{
		{State: buildstore.RequestNew, ByUser: "srch-dave", When: now},
		{State: buildstore.RequestAccepted, ByGroup: "srch-group", Who: "srch-erin", When: now,
			History: []buildstore.HistoryRecord{{Who: "srch-erin", When: now, Description: "Review got accepted"}}},
	}
	declined := submit(9002, buildstore.RequestDeclined, "srch-dave")
	declined.History = append(declined.History, buildstore.HistoryRecord{Who: "srch-dave", When: now, Description: "Request got declined", Comment: "no"})
	del := buildstore.Request{ID: 9003, Creator: "bob",
		Actions: []buildstore.RequestAction{{Type: "delete", Target: &buildstore.ActionTarget{Project: "srch:test", Package: "old"}}},
		State:   buildstore.RequestState{Name: buildstore.RequestNew, Who: "bob", When: now, Created: now}, Updated: now}
	hidden := submit(9004, buildstore.RequestNew, "alice")
	hidden.Actions[0].Source = &buildstore.ActionSource{Project: "home:alice:secret", Package: "p"}
	hidden.Actions[0].Target = &buildstore.ActionTarget{Project: "home:alice:secret", Package: "q"}
	return []buildstore.Request{inReview, declined, del, hidden}
}

// searchEnv is the demo world with a hidden project, packages to find (one with a devel
// package) and the requests of searchRequests.
func searchEnv(t *testing.T) *env {
	e := newEnv(t)
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><access><disable/></access></project>`
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"a package in it", req("PUT", "/source/home:alice:secret/srch-hidden/_meta", asAlice, `<package name="srch-hidden"><title/><description/></package>`), ok},
		{"a project", req("PUT", "/source/home:alice:search/_meta", asAlice, `<project name="home:alice:search"><title>Search Me</title><description/></project>`), ok},
		{"a devel package", req("PUT", "/source/home:alice:search/srch-hello-devel/_meta", asAlice, `<package name="srch-hello-devel"><title/><description/></package>`), ok},
		{"a package developed there", req("PUT", "/source/home:alice:search/srch-hello/_meta", asAlice,
			`<package name="srch-hello"><title>Hello</title><description/><devel project="home:alice:search" package="srch-hello-devel"/></package>`), ok},
	})
	if err := e.db.Write(func(tx kv.Tx) error {
		for _, r := range searchRequests(e.clk.Now()) {
			if err := buildstore.PutRequest(tx, r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSearchRequest: each request search osc 0.169.1 sends (build-notes §6 and §8, the http
// trace), the /id form, paging, read protection and the refusals.
func TestSearchRequest(t *testing.T) {
	e := searchEnv(t)
	const (
		coForm = `(state/@name='new' or state/@name='review') and (action/target/@project='%s' or action/source/@project='%s') and (action/target/@package='%s' or action/source/@package='%s')`
		listP  = `(state/@name='declined' or state/@name='new' or state/@name='review') and (action/target/@project='srch:test' or action/source/@project='srch:test')`
	)
	co := func(project, pkg string) string { return fmt.Sprintf(coForm, project, project, pkg, pkg) }
	sr := `(state/@name='new' or state/@name='review' or state/@name='declined') and action[source/@project='home:alice:branches:srch:test' and source/@package='hello' and target/@project='srch:test' and target/@package='hello'] and action/@type='submit'`
	rdelete := `(state/@name='new' or state/@name='review' or state/@name='declined') and (action/target/@project='srch:test' or action/source/@project='srch:test') and (action/target/@package='old' or action/source/@package='old')`
	r := "/search/request"
	e.run(t, []scenario{
		{"co/ci/up in the target", req("GET", searchURL(r, co("srch:test", "hello"), ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="1">`, `<request id="9001" creator="alice">`,
				`<target project="srch:test" package="hello"></target>`, `<review state="new" when="2026-11-22T12:00:00" by_user="srch-dave">`}, Excludes: []string{"<history"}}},
		{"co in the branch", req("GET", searchURL(r, co("home:alice:branches:srch:test", "hello"), ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="1">`, `<request id="9001"`}}},
		{"nothing open for another package", req("GET", searchURL(r, co("srch:test", "other"), ""), asBob, ""), apitest.Expect{Status: 200, Exact: "<collection matches=\"0\"></collection>\n"}},
		{"sr: the same submit, also declined", req("GET", searchURL(r, sr, ""), asAlice, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="2">`, `<request id="9001"`, `<request id="9002"`}}},
		{"rq list P", req("GET", searchURL(r, listP, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="3">`, `id="9001"`, `id="9002"`, `id="9003"`}}},
		{"rq list -U: state or history", req("GET", searchURL(r, `(state/@who='srch-dave' or history/@who='srch-dave')`, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="1">`, `id="9002"`}}},
		{"a review's history is not the request's", req("GET", searchURL(r, `history/@who='srch-erin'`, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="0">`}}},
		{"review list", req("GET", searchURL(r, `((state/@name='review') and review/@state='new') and review[@by_user='srch-dave' and @state='new']`, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="1">`, `id="9001"`}}},
		{"review list: an accepted review is not pending", req("GET", searchURL(r, `((state/@name='review') and review/@state='new') and review[@by_group='srch-group' and @state='new']`, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="0">`}}},
		{"rdelete", req("GET", searchURL(r, rdelete, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="1">`, `<request id="9003" creator="bob">`}}},
		{"withfullhistory renders the histories", req("GET", searchURL(r, `@id=9001`, "withfullhistory=1"), asBob, ""),
			want(200, `<history who="alice" when="2026-11-22T12:00:00">`, `<history who="srch-erin"`)},
		{"withhistory: the request's only", req("GET", searchURL(r, `@id=9001`, "withhistory=1"), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<history who="alice"`}, Excludes: []string{`<history who="srch-erin"`}}},
		{"the /id form", req("GET", searchURL(r+"/id", listP, ""), asBob, ""),
			apitest.Expect{Status: 200, Exact: `<collection matches="3">` + "\n" + `  <request id="9001"></request>` + "\n" +
				`  <request id="9002"></request>` + "\n" + `  <request id="9003"></request>` + "\n</collection>\n"}},
		{"a page: offset and limit", req("GET", searchURL(r+"/id", listP, "offset=1&limit=1"), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="3">`, `id="9002"`}, Excludes: []string{`id="9001"`, `id="9003"`}}},
		{"a limit that is no number is no limit", req("GET", searchURL(r+"/id", listP, "limit=x"), asBob, ""),
			want(200, `id="9001"`, `id="9003"`)},
		{"POST with a form", apitest.Request{Method: "POST", Path: r + "/id", Body: "match=" + url.QueryEscape(`@id=9003`),
			Header: map[string]string{"Authorization": asBob["Authorization"], "Content-Type": "application/x-www-form-urlencoded"}},
			want(200, `<collection matches="1">`, `<request id="9003">`)},
		{"POST with a query", req("POST", searchURL(r, `@id=9003`, ""), asBob, ""), want(200, `<collection matches="1">`)},
		{"bob does not find a hidden project's request", req("GET", searchURL(r+"/id", `action/target/@project='home:alice:secret'`, ""), asBob, ""),
			want(200, `<collection matches="0">`)},
		{"alice does", req("GET", searchURL(r+"/id", `action/target/@project='home:alice:secret'`, ""), asAlice, ""),
			want(200, `<collection matches="1">`, `id="9004"`)},
		{"/id without a match: every request", req("GET", r+"/id", asAdmin, ""), want(200, `id="9001"`, `id="9002"`, `id="9003"`, `id="9004"`)},
		{"empty match", req("GET", r+"?match=", asBob, ""), code(400, "empty_match", "No predicate found in match argument")},
		{"no match", req("GET", r, asBob, ""), code(400, "empty_match")},
		{"position()", req("GET", searchURL(r, `position()=1`, ""), asBob, ""), code(400, "illegal_xpath_error", "unknown xpath function 'position'")},
		{"union", req("GET", searchURL(r, `@id=1 | @id=2`, ""), asBob, ""), code(400, "illegal_xpath_error", "illegal token X ':union'")},
		{"unknown key", req("GET", searchURL(r, `action/@foo='x'`, ""), asBob, ""), code(400, "illegal_xpath_error", "unable to evaluate 'action/@foo' for 'requests'")},
		{"does not parse", req("GET", searchURL(r, `(@id=1`, ""), asBob, ""), code(400, "illegal_xpath_error", "failed to parse")},
		{"without credentials", req("GET", searchURL(r, `@id=1`, ""), nil, ""), apitest.Expect{Status: 401}},
	})
}

// TestSearchPackageAndProject: osc's package searches (rq accept's devel search, search
// --package, search -s), the /id forms, read protection and the refusals.
func TestSearchPackageAndProject(t *testing.T) {
	e := searchEnv(t)
	p := "/search/package"
	e.run(t, []scenario{
		{"rq accept: who has it as devel", req("GET", searchURL(p, `([devel/[@project='home:alice:search' and @package='srch-hello-devel']])`, ""), asAlice, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="1">`, `<package name="srch-hello" project="home:alice:search">`,
				`<devel project="home:alice:search" package="srch-hello-devel"></devel>`}}},
		{"rq accept: nobody", req("GET", searchURL(p, `([devel/[@project='home:alice:search' and @package='srch-hello']])`, ""), asAlice, ""),
			apitest.Expect{Status: 200, Exact: "<collection matches=\"0\"></collection>\n"}},
		{"search --package", req("GET", searchURL(p, `@name = 'srch-hello'`, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="1">`, `<title>Hello</title>`}}},
		{"search -s --package, any case", req("GET", searchURL(p+"/id", `contains(@name, 'SRCH-')`, ""), asBob, ""),
			apitest.Expect{Status: 200, Exact: `<collection matches="2">` + "\n" +
				`  <package project="home:alice:search" name="srch-hello"></package>` + "\n" +
				`  <package project="home:alice:search" name="srch-hello-devel"></package>` + "\n</collection>\n"}},
		{"a member finds the hidden package", req("GET", searchURL(p+"/id", `contains(@name, 'srch-')`, ""), asAlice, ""),
			want(200, `<collection matches="3">`, `<package project="home:alice:secret" name="srch-hidden">`)},
		{"search by title", req("GET", searchURL(p+"/id", `@name = 'Hello' or title = 'Hello' or description = 'Hello'`, ""), asBob, ""),
			want(200, `name="srch-hello"`)},
		{"a page", req("GET", searchURL(p+"/id", `contains(@name, 'srch-')`, "limit=1"), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="2">`, `name="srch-hello"`}, Excludes: []string{`srch-hello-devel`}}},
		{"empty match", req("GET", p+"?match=", asBob, ""), code(400, "empty_match")},
		{"unknown key", req("GET", searchURL(p, `@foo='x'`, ""), asBob, ""), code(400, "illegal_xpath_error", "unable to evaluate '@foo' for 'packages'")},

		{"search --project", req("GET", searchURL("/search/project", `@name = 'home:alice:search'`, ""), asBob, ""),
			want(200, `<collection matches="1">`, `<project name="home:alice:search">`, `<title>Search Me</title>`)},
		{"a project's name heeds case (utf8_bin)", req("GET", searchURL("/search/project/id", `starts-with(@name, 'HOME:ALICE:SE') or @name='HOME:alice:search'`, ""), asBob, ""),
			apitest.Expect{Status: 200, Exact: `<collection matches="0"></collection>` + "\n"}},
		{"project /id", req("GET", searchURL("/search/project/id", `starts-with(@name, 'home:alice:se')`, ""), asBob, ""),
			apitest.Expect{Status: 200, Exact: `<collection matches="1">` + "\n" + `  <project name="home:alice:search"></project>` + "\n</collection>\n"}},
		{"a member finds the hidden project", req("GET", searchURL("/search/project/id", `starts-with(@name, 'home:alice:se')`, ""), asAlice, ""),
			want(200, `<collection matches="2">`, `<project name="home:alice:secret">`)},
		{"project: unknown key", req("GET", searchURL("/search/project", `devel/@package='x'`, ""), asBob, ""),
			code(400, "illegal_xpath_error", "unable to evaluate 'devel/@package' for 'projects'")},
	})
}
