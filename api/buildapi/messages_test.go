package buildapi

import (
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

func msgGolden(name, method, path string, as map[string]string) goldenScenario {
	return goldenScenario{name: name, Request: req(method, path, as, ""), golden: name}
}

// TestStatusMessages: the demo world's announcement, Admin sending one and several at once,
// newest first, ?limit, deleting (the message leaves the list but is still found by id), and
// the 2.7-era service's /status/messages paths answering the same.
func TestStatusMessages(t *testing.T) {
	e := newEnv(t)
	e.runGolden(t, "messages", []goldenScenario{
		msgGolden("status_messages", "GET", "/status_message/", asBob),
		{name: "without the slash", Request: req("GET", "/status_message", asBob, ""), golden: "status_messages"},
		{name: "the service's own path", Request: req("GET", "/status/messages", asBob, ""), golden: "status_messages"},
		msgGolden("status_message_1", "GET", "/status/messages/1", asBob),

		{name: "Admin sends one", Request: req("PUT", "/status_message/", asAdmin, `<message severity="2">Builds are slow today: a worker is down.</message>`), Expect: ok, tick: time.Hour},
		{name: "and two at once", Request: req("PUT", "/status_message", asAdmin,
			`<status_messages><message severity="3">The scheduler is stuck.</message><message severity="1">All workers are back.</message></status_messages>`),
			Expect: ok, tick: time.Hour},
		msgGolden("status_messages_sent", "GET", "/status_message/", asBob),
		msgGolden("status_messages_limit_2", "GET", "/status_message/?limit=2", asBob),
		{name: "limit 0 lists none", Request: req("GET", "/status_message/?limit=0", asBob, ""),
			Expect: apitest.Expect{Status: 200, Exact: `<status_messages count="0"></status_messages>` + "\n"}},

		{name: "Admin deletes one", Request: req("DELETE", "/status/messages/2", asAdmin, ""), Expect: ok, tick: time.Minute},
		msgGolden("status_messages_deleted", "GET", "/status_message/", asBob),
		msgGolden("status_message_2_deleted", "GET", "/status/messages/2", asBob),
		{name: "deleting again is Ok", Request: req("DELETE", "/status/messages/2", asAdmin, ""), Expect: ok, tick: time.Minute},
		{name: "and keeps the first time", Request: req("GET", "/status/messages/2", asBob, ""), golden: "status_message_2_deleted"},
	})
}

// TestStatusMessagesBadInput: sending and deleting need Admin (the status_message_create
// permission), refused before the body is read; bodies the service refuses; unknown ids; a
// limit that is no whole number.
func TestStatusMessagesBadInput(t *testing.T) {
	e := newEnv(t)
	denied := "message(s) cannot be created, you have not sufficient permissions"
	e.run(t, []scenario{
		{"no credentials", req("GET", "/status_message/", nil, ""), apitest.Expect{Status: 401}},
		{"no credentials, PUT", req("PUT", "/status_message/", nil, `<message severity="1">x</message>`), apitest.Expect{Status: 401}},
		{"alice may not send", req("PUT", "/status_message/", asAlice, `<message severity="1">x</message>`), code(403, "permission_denied", denied)},
		{"nor with junk: permission first", req("PUT", "/status_message/", asAlice, "junk"), code(403, "permission_denied", denied)},
		{"nor on the service's path", req("PUT", "/status/messages", asBob, `<message severity="1">x</message>`), code(403, "permission_denied")},
		{"nor delete", req("DELETE", "/status/messages/1", asAlice, ""),
			code(403, "permission_denied", "message cannot be deleted, you have not sufficient permissions")},
		{"the message is still there", req("GET", "/status_message/", asAlice, ""), want(200, `<status_messages count="1">`)},

		{"not XML", req("PUT", "/status_message/", asAdmin, "down for maintenance"), code(400, "invalid_xml")},
		{"empty", req("PUT", "/status_message/", asAdmin, ""), code(400, "invalid_xml")},
		{"no message", req("PUT", "/status_message/", asAdmin, "<whereareyou/>"), code(400, "creating_messages", "no message &lt;whereareyou/&gt;")},
		{"no severity", req("PUT", "/status_message/", asAdmin, "<messages><message>nada</message></messages>"),
			code(400, "invalid_record", "Severity can't be blank")},
		{"a blank text", req("PUT", "/status_message/", asAdmin, `<message severity="1">  </message>`), code(400, "invalid_record", "Message can't be blank")},
		{"a severity that is no number", req("PUT", "/status_message/", asAdmin, `<message severity="high">x</message>`), code(400, "invalid_record", "Severity is not a whole number")},
		{"a negative severity", req("PUT", "/status_message/", asAdmin, `<message severity="-1">x</message>`), code(400, "invalid_record")},
		{"a text too long", req("PUT", "/status_message/", asAdmin, `<message severity="1">`+strings.Repeat("x", 65536)+`</message>`), code(400, "invalid_record", "too long")},
		{"one bad message refuses all", req("PUT", "/status_message/", asAdmin,
			`<status_messages><message severity="1">fine</message><message>no severity</message></status_messages>`), code(400, "invalid_record")},
		{"nothing was stored", req("GET", "/status_message/", asAlice, ""), want(200, `<status_messages count="1">`)},

		{"unknown id", req("GET", "/status/messages/17", asAlice, ""), code(404, "not_found", "Couldn't find StatusMessage with 'id'=17")},
		{"an id that is no number", req("GET", "/status/messages/abc", asAlice, ""), code(404, "not_found")},
		{"delete an unknown id", req("DELETE", "/status/messages/17", asAdmin, ""), code(404, "not_found")},
		{"limit not a number", req("GET", "/status_message/?limit=ten", asAlice, ""), code(400, "invalid_parameter", "limit")},
		{"limit a fraction", req("GET", "/status_message/?limit=1.5", asAlice, ""), code(400, "invalid_parameter")},
		{"limit negative", req("GET", "/status/messages?limit=-1", asAlice, ""), code(400, "invalid_parameter")},
		{"POST is no route", req("POST", "/status_message/", asAdmin, ""), apitest.Expect{Status: 405}},
	})
}

// TestMessagesRead: the demo world's message on devel:tools, by every list and by id.
func TestMessagesRead(t *testing.T) {
	e := newEnv(t)
	e.runGolden(t, "messages", []goldenScenario{
		msgGolden("messages", "GET", "/message/", asBob),
		{name: "without the slash", Request: req("GET", "/message", asBob, ""), golden: "messages"},
		msgGolden("messages_devel_tools", "GET", "/message/?project=devel:tools", asBob),
		msgGolden("messages_pocket_cli", "GET", "/message/?project=devel:tools&package=pocket-cli", asBob),
		msgGolden("message_1", "GET", "/message/1", asBob),
	})
}

// TestMessagesWrite: maintainers (of the project, or of the package for a package) and Admin
// append messages; every list shows them newest first, a project's without its packages';
// ?limit keeps the newest; deleting takes the writer, a maintainer or Admin.
func TestMessagesWrite(t *testing.T) {
	e := newEnv(t)
	msg := func(severity, text string) string {
		return `<message severity="` + severity + `" send_mail="false" private="false">` + text + `</message>`
	}
	denied := "message cannot be created, insufficient permissions"
	e.runGolden(t, "messages", []goldenScenario{
		{name: "alice on her project", Request: req("PUT", "/message/?project=devel:tools", asAlice, msg("0", "forge-build moves to devel:libs next week.")), Expect: ok, tick: time.Hour},
		{name: "alice on its package", Request: req("PUT", "/message/?project=devel:tools&package=pocket-cli", asAlice,
			`<message severity="2" send_mail="true" private="1">pocket-cli 1.1 is in the works; hold the patches.</message>`), Expect: ok, tick: time.Hour},
		{name: "bob on his home", Request: req("PUT", "/message?project=home:bob", asBob, msg("0", "Scratch space, nothing to see.")), Expect: ok, tick: time.Hour},
		{name: "bob on the package he maintains", Request: req("PUT", "/message/?project=Pocket:1.0&package=pocket-filesystem", asBob, msg("1", "The layout follows the FHS 3.0.")), Expect: ok, tick: time.Hour},
		{name: "Admin anywhere", Request: req("PUT", "/message/?project=devel:libs&package=libpocket", asAdmin, msg("3", "libpocket 2 breaks the ABI.")), Expect: ok, tick: time.Hour},
		{name: "bob not on alice's project", Request: req("PUT", "/message/?project=devel:tools", asBob, msg("0", "x")), Expect: code(403, "permission denied", denied)},
		{name: "nor on her package", Request: req("PUT", "/message/?project=devel:tools&package=pocket-cli", asBob, msg("0", "x")), Expect: code(403, "permission denied", denied)},
		{name: "bob's package role is not the project's", Request: req("PUT", "/message/?project=Pocket:1.0", asBob, msg("0", "x")), Expect: code(403, "permission denied")},

		msgGolden("messages_written", "GET", "/message/", asCarolMsgs),
		msgGolden("messages_written_limit_2", "GET", "/message/?limit=2", asCarolMsgs),
		msgGolden("messages_written_devel_tools", "GET", "/message/?project=devel:tools", asCarolMsgs),
		msgGolden("messages_written_pocket_cli", "GET", "/message/?project=devel:tools&package=pocket-cli", asCarolMsgs),
		msgGolden("message_3", "GET", "/message/3", asCarolMsgs),

		{name: "bob may not delete alice's", Request: req("DELETE", "/message/3", asBob, ""),
			Expect: code(403, "permission denied", "message cannot be deleted, insufficient permissions")},
		{name: "alice may not delete bob's on his home", Request: req("DELETE", "/message/4", asAlice, ""), Expect: code(403, "permission denied")},
		{name: "bob, a bugowner of devel:libs, may not delete Admin's there", Request: req("DELETE", "/message/6", asBob, ""), Expect: code(403, "permission denied")},
		{name: "bob deletes his own", Request: req("DELETE", "/message/4", asBob, ""), Expect: ok},
		{name: "alice, a maintainer, deletes Admin's on devel:libs", Request: req("DELETE", "/message/6", asAlice, ""), Expect: ok},
		{name: "Admin deletes alice's", Request: req("DELETE", "/message/3", asAdmin, ""), Expect: ok},
		{name: "gone", Request: req("GET", "/message/3", asAlice, ""), Expect: code(404, "not_found", "Couldn't find Message with 'id'=3")},
		{name: "a second delete", Request: req("DELETE", "/message/3", asAdmin, ""), Expect: code(404, "not_found", "Couldn't find Message with 'id'=3")},
		msgGolden("messages_after_deletes", "GET", "/message/", asBob),
	})
}

// asCarolMsgs reads as carol, who holds no maintainer role anywhere.
var asCarolMsgs = basic("carol", "carol-password")

// TestMessagesBadInput: bodies the schema refuses, missing and unknown objects, unknown ids,
// limits that are no whole number.
func TestMessagesBadInput(t *testing.T) {
	e := newEnv(t)
	good := `<message severity="1" send_mail="true" private="true">sample message...</message>`
	put := func(query, body string) apitest.Request { return req("PUT", "/message/"+query, asAlice, body) }
	e.run(t, []scenario{
		{"no credentials", req("GET", "/message/", nil, ""), apitest.Expect{Status: 401}},
		{"no credentials, PUT", req("PUT", "/message/?project=devel:tools", nil, good), apitest.Expect{Status: 401}},
		{"another document", put("?project=devel:tools", "<hallo/>"), code(400, "validation_failed",
			"message validation error: Element 'hallo': No matching global declaration available for the validation root.")},
		{"not XML", put("?project=devel:tools", "sample message"), code(400, "validation_failed", "message validation error")},
		{"empty", put("?project=devel:tools", ""), code(400, "validation_failed")},
		{"no attributes", put("?project=devel:tools", "<message>hi</message>"), code(400, "validation_failed",
			"Element 'message': The attribute 'private' is required but missing.")},
		{"no severity", put("?project=devel:tools", `<message send_mail="false" private="false">hi</message>`), code(400, "validation_failed", "The attribute 'severity' is required")},
		{"a flag that is no boolean", put("?project=devel:tools", `<message severity="1" send_mail="yes" private="false">hi</message>`),
			code(400, "validation_failed", "Element 'message', attribute 'send_mail': 'yes' is not a valid value of the atomic type 'xs:boolean'.")},
		{"a negative severity", put("?project=devel:tools", `<message severity="-1" send_mail="false" private="false">hi</message>`),
			code(400, "validation_failed", "'xs:nonNegativeInteger'")},
		{"a severity that is no number", put("?project=devel:tools", `<message severity="red" send_mail="false" private="false">hi</message>`), code(400, "validation_failed")},
		{"elements inside", put("?project=devel:tools", `<message severity="1" send_mail="false" private="false">a<b>c</b></message>`),
			code(400, "validation_failed", "Element 'b': This element is not expected.")},
		{"a text too long", put("?project=devel:tools", `<message severity="1" send_mail="false" private="false">`+strings.Repeat("x", 65536)+`</message>`),
			code(400, "validation_failed", "longer than 65535")},
		{"no project", put("", good), code(400, "error creating message", "must give either project or package")},
		{"a package without its project", put("?package=pocket-cli", good), code(400, "error creating message", "must give either project or package")},
		{"unknown project", put("?project=nope", good), code(404, "unknown_project", "Project not found: nope")},
		{"unknown package", put("?project=devel:tools&package=nope", good), code(404, "unknown_package", "Package not found: devel:tools/nope")},
		{"the schema before the object", put("?project=nope", "<hallo/>"), code(400, "validation_failed")},
		{"nothing was stored", req("GET", "/message/", asAlice, ""), want(200, `<messages count="1">`)},

		{"list, unknown project", req("GET", "/message/?project=nope", asBob, ""), code(404, "unknown_project", "Project not found: nope")},
		{"list, unknown package", req("GET", "/message/?project=devel:tools&package=nope", asBob, ""), code(404, "unknown_package")},
		{"list, a package without its project", req("GET", "/message/?package=pocket-cli", asBob, ""), code(400, "missing_parameter", "project")},
		{"unknown id", req("GET", "/message/17", asBob, ""), code(404, "not_found", "Couldn't find Message with 'id'=17")},
		{"an id that is no number", req("GET", "/message/abc", asBob, ""), code(404, "not_found")},
		{"delete an unknown id", req("DELETE", "/message/17", asAdmin, ""), code(404, "not_found")},
		{"limit not a number", req("GET", "/message/?limit=ten", asBob, ""), code(400, "invalid_parameter", "limit")},
		{"limit a fraction", req("GET", "/message/?project=devel:tools&limit=0.5", asBob, ""), code(400, "invalid_parameter")},
		{"limit negative", req("GET", "/message/?limit=-3", asBob, ""), code(400, "invalid_parameter")},
		{"limit 0 lists none", req("GET", "/message/?limit=0", asBob, ""), apitest.Expect{Status: 200, Exact: `<messages count="0"></messages>` + "\n"}},
		{"POST is no route", req("POST", "/message/1", asAdmin, "<hallo/>"), apitest.Expect{Status: 405}},
	})
}

// TestMessagesHidden: the messages on a project with <access><disable/> and on its packages do
// not exist for non-members — not listed, their ids unknown, the project 404 — while members and
// Admin see them; a locked project takes no messages; deleting a package or the project drops
// its messages.
func TestMessagesHidden(t *testing.T) {
	e := newEnv(t)
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><person userid="carol" role="reader"/><access><disable/></access></project>`
	m := `<message severity="0" send_mail="false" private="false">hush</message>`
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"a package in it", req("PUT", "/source/home:alice:secret/p/_meta", asAlice, `<package name="p"><title>P</title><description/></package>`), ok},
		{"alice writes on the project (2)", req("PUT", "/message/?project=home:alice:secret", asAlice, m), ok},
		{"and on the package (3)", req("PUT", "/message/?project=home:alice:secret&package=p", asAlice, m), ok},

		{"bob: the project is a 404", req("GET", "/message/?project=home:alice:secret", asBob, ""), code(404, "unknown_project", "Project not found: home:alice:secret")},
		{"bob: the package too", req("GET", "/message/?project=home:alice:secret&package=p", asBob, ""), code(404, "unknown_project")},
		{"bob: not listed", req("GET", "/message/", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<messages count="1">`}, Excludes: []string{"hush"}}},
		{"bob: their ids are unknown", req("GET", "/message/2", asBob, ""), code(404, "not_found", "Couldn't find Message with 'id'=2")},
		{"bob: the package's too", req("GET", "/message/3", asBob, ""), code(404, "not_found")},
		{"bob may not write there", req("PUT", "/message/?project=home:alice:secret", asBob, m), code(404, "unknown_project")},
		{"nor delete there", req("DELETE", "/message/2", asBob, ""), code(404, "not_found")},

		{"carol (a reader) lists them", req("GET", "/message/", asCarolMsgs, ""), want(200, `<messages count="3">`, `msg_id="3"`, `msg_id="2"`, "hush")},
		{"and reads one", req("GET", "/message/3", asCarolMsgs, ""), want(200, "hush")},
		{"but may not write", req("PUT", "/message/?project=home:alice:secret", asCarolMsgs, m), code(403, "permission denied")},
		{"Admin sees them", req("GET", "/message/?project=home:alice:secret", asAdmin, ""), want(200, `<messages count="1" project="home:alice:secret">`)},

		{"alice locks devel:libs", req("POST", "/source/devel:libs?cmd=lock", asAlice, ""), ok},
		{"a locked project takes no message", req("PUT", "/message/?project=devel:libs", asAlice, m), code(403, "project_locked")},
		{"nor do its packages", req("PUT", "/message/?project=devel:libs&package=libpocket", asAlice, m), code(403, "project_locked")},

		{"alice deletes the package", req("DELETE", "/source/home:alice:secret/p", asAlice, ""), ok},
		{"its message is gone", req("GET", "/message/3", asAlice, ""), code(404, "not_found")},
		{"the project's stays", req("GET", "/message/2", asAlice, ""), want(200, "hush")},
		{"the package back", req("POST", "/source/home:alice:secret/p?cmd=undelete", asAlice, ""), ok},
		{"comes back without it", req("GET", "/message/?project=home:alice:secret&package=p", asAlice, ""),
			apitest.Expect{Status: 200, Exact: `<messages count="0" project="home:alice:secret" package="p"></messages>` + "\n"}},
		{"she writes on it again (4)", req("PUT", "/message/?project=home:alice:secret&package=p", asAlice, m), ok},
		{"she deletes the project", req("DELETE", "/source/home:alice:secret", asAlice, ""), ok},
		{"the project's message is gone", req("GET", "/message/2", asAlice, ""), code(404, "not_found")},
		{"the package's too", req("GET", "/message/4", asAlice, ""), code(404, "not_found")},
		{"only the demo message is left", req("GET", "/message/", asAdmin, ""), want(200, `<messages count="1">`, `msg_id="1"`)},
	})
}

// TestMessageRoutesNever500: odd ids, names, encodings, methods and bodies on every message
// route answer 4xx (or 200), never 5xx.
func TestMessageRoutesNever500(t *testing.T) {
	e := newEnv(t)
	names := []string{"%00", "%2e%2e", "a%0Ab", "%FF%FE", "%2F", "_", "-1", "18446744073709551616", "1e3", "%20", "devel:tools"}
	routes := []string{
		"/status_message/?limit=%s", "/status/messages/%s", "/status/messages?limit=%s", "/message/%s",
		"/message/?limit=%s", "/message/?project=%s", "/message/?project=devel:tools&package=%s", "/message/?project=%s&package=%s&limit=%s",
	}
	bodies := []string{"", "\x00junk", `<message severity="&#0;" send_mail="false" private="false"/>`,
		`<message severity="99999999999999999999" send_mail="1" private="0">x</message>`, `<status_messages><message/><message severity=""/></status_messages>`,
		`<message severity="1" send_mail="true" private="true">ok</message>`}
	for _, r := range routes {
		for _, n := range names {
			path := strings.ReplaceAll(r, "%s", n)
			for _, m := range []string{"GET", "PUT", "POST", "DELETE"} {
				for _, b := range bodies {
					for _, as := range []map[string]string{asAlice, asAdmin} {
						if got := apitest.Do(t, e.app, req(m, path, as, b)); got.Status >= 500 {
							t.Errorf("%s %s %q: %d %s", m, path, b, got.Status, got.Body)
						}
					}
				}
			}
		}
	}
}
