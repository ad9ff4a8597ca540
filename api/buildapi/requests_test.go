package buildapi

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// bobBranch makes bob's branch of devel:tools/forge-utils with a change and returns a submit
// document for it.
func bobBranch(t *testing.T, e *env) string {
	t.Helper()
	e.run(t, []scenario{
		{"branch", req("POST", "/source/devel:tools/forge-utils?cmd=branch", asBob, ""), ok200},
		{"change", req("PUT", "/source/home:bob:branches:devel:tools/forge-utils/NOTES", asBob, "a note\n"), ok200},
	})
	return `<request><action type="submit"><source project="home:bob:branches:devel:tools" package="forge-utils"/>` +
		`<target project="devel:tools" package="forge-utils"/></action><description>add a note</description></request>`
}

// createRequest posts doc as who and returns the new request's number.
func createRequest(t *testing.T, e *env, who map[string]string, doc string) string {
	t.Helper()
	got := apitest.Do(t, e.app, req("POST", "/request?cmd=create", who, doc))
	m := regexp.MustCompile(`<request id="(\d+)"`).FindStringSubmatch(got.Body)
	if got.Status != 200 || m == nil {
		t.Fatalf("create: %d %s", got.Status, got.Body)
	}
	return m[1]
}

// TestRequestRoutes: the request routes as osc and curl use them, and their refusals.
func TestRequestRoutes(t *testing.T) {
	e := newEnv(t)
	doc := bobBranch(t, e)
	id := createRequest(t, e, asBob, doc)
	R := "/request/" + id
	e.run(t, []scenario{
		{"show", req("GET", R, asCarol, ""), want(200, `<request id="`+id+`" creator="bob">`, `<source project="home:bob:branches:devel:tools" package="forge-utils">`,
			`<sourceupdate>cleanup</sourceupdate>`, `<state name="review" who="bob"`, `<review state="new"`, `by_user="carol"`, `<description>add a note</description>`)},
		{"history only when asked", req("GET", R, asCarol, ""), apitest.Expect{Status: 200, Excludes: []string{"<history"}}},
		{"with full history", req("GET", R+"?withfullhistory=1", asCarol, ""), want(200, `<history who="bob"`, `<description>Request created</description>`)},
		{"diff", req("POST", R+"?cmd=diff", asCarol, ""), want(200, "+a note")},
		{"accept in review", req("POST", R+"?cmd=changestate&newstate=accepted", asAlice, "ok"),
			code(403, "post_request_no_permission", "Request is in review state. You may use the force parameter")},
		{"review by another", req("POST", R+"?cmd=changereviewstate&newstate=accepted&by_user=carol", asBob, "mine"), code(403, "review_change_state_no_permission")},
		{"review accepted", req("POST", R+"?cmd=changereviewstate&newstate=accepted&by_user=carol", asCarol, "fine"), ok},
		{"now new", req("GET", R, asBob, ""), want(200, `<state name="new" who="carol"`, `<review state="accepted"`, `who="carol"`)},
		{"bob may not accept", req("POST", R+"?cmd=changestate&newstate=accepted", asBob, ""), code(403, "post_request_no_permission", "No permission to modify target")},
		{"superseded without superseded_by", req("POST", R+"?cmd=changestate&newstate=superseded", asBob, ""), code(400, "post_request_missing_parameter")},
		{"bad accept time", req("POST", R+"?cmd=setacceptat&time=tomorrow-ish", asAlice, ""), code(400, "invalid_time")},
		{"PUT by a non-admin", req("PUT", R, asAlice, doc), code(403, "put_request_no_permission")},
		{"accepted", req("POST", R+"?cmd=changestate&newstate=accepted", asAlice, "thanks"), ok},
		{"target revision names the request", req("GET", "/source/devel:tools/forge-utils/_history", asBob, ""), want(200, "<requestid>"+id+"</requestid>", "<comment>add a note</comment>")},
		{"branch gone", req("GET", "/source/home:bob:branches:devel:tools", asBob, ""), code(404, "unknown_project")},
		{"acceptinfo", req("GET", R, asBob, ""), want(200, `<acceptinfo rev="`, `<state name="accepted" who="alice"`)},
		{"final", req("POST", R+"?cmd=changestate&newstate=declined", asAlice, ""), code(403, "post_request_no_permission", "change state from an accepted state is not allowed.")},
	})
}

// TestRequestBadInput: what the issue names, each a 4xx in the build API's format.
func TestRequestBadInput(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"unknown request", req("GET", "/request/999999", asBob, ""), code(404, "not_found", "Couldn't find request with id '999999'")},
		{"not a number", req("GET", "/request/abc", asBob, ""), code(404, "not_found")},
		{"command on an unknown request", req("POST", "/request/999999?cmd=changestate&newstate=revoked", asBob, ""), code(404, "not_found")},
		{"without credentials", req("POST", "/request?cmd=create", nil, "<request/>"), apitest.Expect{Status: 401}},
		{"not xml", req("POST", "/request?cmd=create", asBob, "<request><action"), code(400, "validation_failed", "request validation error")},
		{"no target", req("POST", "/request?cmd=create", asBob, `<request><action type="submit"><source project="devel:tools" package="forge-utils"/></action></request>`),
			code(400, "validation_failed", "submit action needs a target")},
		{"unknown source", req("POST", "/request?cmd=create", asBob, `<request><action type="submit"><source project="devel:tools" package="nope"/><target project="home:bob"/></action></request>`),
			code(404, "unknown_package")},
		{"unknown action type", req("POST", "/request?cmd=create", asBob, `<request><action type="merge"/></request>`), code(400, "validation_failed", "type 'merge'")},
		{"no cmd", req("POST", "/request", asBob, ""), code(400, "missing_parameter")},
		{"unknown cmd", req("POST", "/request?cmd=frobnicate", asBob, ""), code(400, "illegal_request")},
	})
	id := createRequest(t, e, asBob, fmt.Sprintf(`<request><action type="delete"><target project="home:bob"/></action></request>`))
	e.run(t, []scenario{
		{"unknown command", req("POST", "/request/"+id+"?cmd=frobnicate", asBob, ""), code(400, "illegal_request")},
		{"unknown state", req("POST", "/request/"+id+"?cmd=changestate&newstate=merged", asBob, ""), code(400, "invalid_state")},
		{"bad superseded_by", req("POST", "/request/"+id+"?cmd=changestate&newstate=superseded&superseded_by=x", asBob, ""), code(400, "invalid_parameter")},
		{"accept time parses", req("POST", "/request/"+id+"?cmd=setacceptat&time=2030-01-01T00:00:00", asBob, ""), ok},
	})
}
