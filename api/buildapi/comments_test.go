package buildapi

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// commentBase is the last comment id the data file has handed out (the demo world's), so the
// scenarios name the ids their comments get.
func (e *env) commentBase(t *testing.T) uint64 {
	t.Helper()
	var n uint64
	if err := e.db.View(func(tx kv.Tx) error {
		b, err := store.Bucket(tx, store.BuildComments)
		n = b.Sequence()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// putRequest stores a submit request to target (reviews by carol and pocket-reviewers) and
// returns its number.
func (e *env) putRequest(t *testing.T, target string) string {
	t.Helper()
	var id uint64
	if err := e.db.Write(func(tx kv.Tx) (err error) {
		if id, err = buildstore.NewRequestID(tx); err != nil {
			return err
		}
		return buildstore.PutRequest(tx, buildstore.Request{ID: id, Creator: "alice",
			Actions: []buildstore.RequestAction{{Type: "submit",
				Source: &buildstore.ActionSource{Project: "home:alice:branches:devel:tools", Package: "forge-utils"},
				Target: &buildstore.ActionTarget{Project: target, Package: "forge-utils"}}},
			State:   buildstore.RequestState{Name: buildstore.RequestReview, Who: "alice"},
			Reviews: []buildstore.Review{{State: buildstore.RequestNew, ByUser: "carol"}, {State: buildstore.RequestNew, ByGroup: "pocket-reviewers"}}})
	}); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(id)
}

// lastMail is the newest mail of the outbox (zero when there is none).
func (e *env) lastMail(t *testing.T) outbox.Mail {
	t.Helper()
	var list []outbox.Mail
	e.db.View(func(tx kv.Tx) (err error) { list, err = outbox.List(tx, "", 1); return err })
	if len(list) == 0 {
		return outbox.Mail{}
	}
	return list[0]
}

// TestComments: comments on a package, a project and a request — listing, replies, who may
// delete (author, maintainer, request target maintainer, Admin; not a stranger), the blank a
// deleted comment with replies leaves, and the refusals.
func TestComments(t *testing.T) {
	e := newEnv(t)
	asCarol := basic("carol", "carol-password")
	base := e.commentBase(t)
	id := func(n uint64) string { return fmt.Sprint(base + n) }
	pkg, prj := "/comments/package/devel:tools/forge-build", "/comments/project/devel:tools"
	const when = `when="2026-11-22 12:00:00 UTC"`
	e.run(t, []scenario{
		{"no credentials", req("GET", pkg, nil, ""), apitest.Expect{Status: 401}},
		{"none yet", req("GET", pkg, asBob, ""), apitest.Expect{Status: 200,
			Exact: `<comments project="devel:tools" package="forge-build"></comments>` + "\n"}},
		{"bob comments", req("POST", pkg, asBob, "Builds fine here.\nAnd on aarch64 <too> & all."), ok},
		{"alice replies", req("POST", pkg+"?parent_id="+id(1), asAlice, "Thanks"), ok},
		{"carol on the project", req("POST", prj, asCarol, "project note"), ok},
		{"the package's", req("GET", pkg, asCarol, ""), apitest.Expect{Status: 200, Contains: []string{
			`<comments project="devel:tools" package="forge-build">`,
			`<comment who="bob" ` + when + ` id="` + id(1) + `">Builds fine here.&#xA;And on aarch64 &lt;too&gt; &amp; all.</comment>`,
			`<comment who="alice" ` + when + ` id="` + id(2) + `" parent="` + id(1) + `">Thanks</comment>`},
			Excludes: []string{"project note"}}},
		{"the project's", req("GET", prj, asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<comments project="devel:tools">`, `<comment who="carol" ` + when + ` id="` + id(3) + `">project note</comment>`},
			Excludes: []string{"Thanks"}}},

		{"an empty text", req("POST", pkg, asBob, ""), code(400, "invalid_record", "Body can't be blank")},
		{"a blank text", req("POST", pkg, asBob, " \n"), code(400, "invalid_record", "Body can't be blank")},
		{"too long", req("POST", pkg, asBob, strings.Repeat("x", 64<<10+1)), code(400, "invalid_record", "Body is too long")},
		{"a parent on another object", req("POST", pkg+"?parent_id="+id(3), asBob, "x"), code(400, "invalid_record", "Parent belongs to different object")},
		{"an unknown parent", req("POST", pkg+"?parent_id=999999", asBob, "x"), code(400, "invalid_record")},
		{"a parent that is no number", req("POST", pkg+"?parent_id=abc", asBob, "x"), code(400, "invalid_record")},
		{"unknown project", req("GET", "/comments/project/nope", asBob, ""), code(404, "unknown_project", "Project not found: nope")},
		{"unknown package", req("GET", "/comments/package/devel:tools/nope", asBob, ""), code(404, "unknown_package")},
		{"comment on an unknown package", req("POST", "/comments/package/devel:tools/nope", asBob, "x"), code(404, "unknown_package")},
		{"unknown request", req("GET", "/comments/request/999999", asBob, ""), code(404, "not_found", "Couldn't find Request with id 999999")},
		{"a request that is no number", req("POST", "/comments/request/abc", asBob, "x"), code(404, "not_found", "Couldn't find Request with id abc")},
		{"post without credentials", req("POST", pkg, nil, "x"), apitest.Expect{Status: 401}},

		{"carol may not delete bob's", req("DELETE", "/comment/"+id(1), asCarol, ""), code(403, "no_permission", "No permission to delete "+id(1))},
		{"bob deletes his, which has a reply", req("DELETE", "/comment/"+id(1), asBob, ""), ok},
		{"a blank stays for the reply", req("GET", pkg, asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<comment who="_nobody_" ` + when + ` id="` + id(1) + `">This comment has been deleted</comment>`,
			`id="` + id(2) + `" parent="` + id(1) + `">Thanks</comment>`}, Excludes: []string{"Builds fine"}}},
		{"carol may not delete alice's reply", req("DELETE", "/comment/"+id(2), asCarol, ""), code(403, "no_permission")},
		{"Admin may", req("DELETE", "/comment/"+id(2), asAdmin, ""), ok},
		{"anyone removes a blank", req("DELETE", "/comment/"+id(1), asCarol, ""), ok},
		{"the package has none left", req("GET", pkg, asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"<comment "}}},
		{"alice maintains devel:tools: deletes carol's", req("DELETE", "/comment/"+id(3), asAlice, ""), ok},
		{"gone", req("GET", prj, asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"project note"}}},
		{"an unknown comment", req("DELETE", "/comment/"+id(3), asAlice, ""), code(404, "not_found", "Couldn't find Comment with id "+id(3))},
		{"a comment id that is no number", req("DELETE", "/comment/x", asAlice, ""), code(404, "not_found")},
	})

	// A package maintainer who does not maintain the project moderates the package's comments;
	// an author who maintains nothing deletes her own.
	e.run(t, []scenario{
		{"carol on forge-build", req("POST", pkg, asCarol, "hm"), ok},
		{"bob maintains forge-build", req("DELETE", "/comment/"+id(4), asBob, ""), ok},
		{"carol again", req("POST", pkg, asCarol, "hm"), ok},
		{"the author deletes her own", req("DELETE", "/comment/"+id(5), asCarol, ""), ok},
	})

	n := e.putRequest(t, "devel:tools")
	rq := "/comments/request/" + n
	e.run(t, []scenario{
		{"bob on the request", req("POST", rq, asBob, "Please wait for 1.2"), ok},
		{"listed", req("GET", "/comments/request/0"+n, asCarol, ""), apitest.Expect{Status: 200, Contains: []string{
			`<comments request="` + n + `">`, `<comment who="bob" ` + when + ` id="` + id(6) + `">Please wait for 1.2</comment>`}}},
	})
	if m := e.lastMail(t); m.API != "build" || m.Subject != "Request "+n+" commented by bob" ||
		!slices.Equal(m.To, []string{"alice@pocketforge.test", "carol@pocketforge.test", "reviewers@pocketforge.test"}) ||
		m.Body != "bob wrote:\n\nPlease wait for 1.2\n" {
		t.Errorf("request comment mail: %+v", m)
	}
	e.run(t, []scenario{
		{"carol may not delete it", req("DELETE", "/comment/"+id(6), asCarol, ""), code(403, "no_permission")},
		{"alice maintains the target: may", req("DELETE", "/comment/"+id(6), asAlice, ""), ok},
	})

	// Hidden projects: their comments, and requests to them, are as unknown as missing ones.
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><access><disable/></access></project>`
	hidden := e.putRequest(t, "home:alice:secret")
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"alice comments on it", req("POST", "/comments/project/home:alice:secret", asAlice, "secret"), ok},
		{"alice reads them", req("GET", "/comments/project/home:alice:secret", asAlice, ""), want(200, ">secret</comment>")},
		{"bob does not", req("GET", "/comments/project/home:alice:secret", asBob, ""), code(404, "unknown_project")},
		{"nor comments", req("POST", "/comments/project/home:alice:secret", asBob, "x"), code(404, "unknown_project")},
		{"nor deletes", req("DELETE", "/comment/"+id(7), asBob, ""), code(404, "not_found", "Couldn't find Comment with id "+id(7))},
		{"nor sees the request to it", req("GET", "/comments/request/"+hidden, asBob, ""), code(404, "not_found", "Couldn't find Request with id "+hidden)},
		{"alice does", req("GET", "/comments/request/"+hidden, asAlice, ""), want(200, `<comments request="`+hidden+`">`)},
	})
}

// TestCommentMails: a package comment is mailed to the package's and the project's maintainers
// but not to its author; a package's comments go when it is deleted.
func TestCommentMails(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{{"bob on forge-build", req("POST", "/comments/package/devel:tools/forge-build", asBob, "x"), ok}})
	if m := e.lastMail(t); m.Subject != "New comment in package devel:tools/forge-build by bob" || !slices.Equal(m.To, []string{"alice@pocketforge.test"}) {
		t.Errorf("package comment mail: %+v", m)
	}
	e.run(t, []scenario{{"alice on devel:tools", req("POST", "/comments/project/devel:tools", asAlice, "x"), ok}})
	if m := e.lastMail(t); !strings.HasPrefix(m.Subject, "New comment in package") {
		t.Errorf("a mail to nobody was sent: %+v", m)
	}
	p := "/source/home:bob/p"
	e.run(t, []scenario{
		{"a package", req("PUT", p+"/_meta", asBob, `<package name="p"><title/><description/></package>`), ok},
		{"a comment", req("POST", "/comments/package/home:bob/p", asBob, "x"), ok},
		{"delete the package", req("DELETE", p, asBob, ""), ok},
		{"create it again", req("PUT", p+"/_meta", asBob, `<package name="p"><title/><description/></package>`), ok},
		{"no comments", req("GET", "/comments/package/home:bob/p", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"<comment "}}},
	})
}
