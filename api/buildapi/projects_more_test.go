package buildapi

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestProjectDeleteUndelete: a deleted project is a tombstone — hidden everywhere, listed with
// ?deleted=1 to who may restore it, restored by cmd=undelete with the packages deleted with it
// (each with a restoring revision), its key and patterns; a meta PUT over it starts afresh.
func TestProjectDeleteUndelete(t *testing.T) {
	e := newEnv(t)
	gone := "/source/home:alice:gone"
	e.run(t, []scenario{
		{"create", req("PUT", gone+"/_meta", asAlice, prj("home:alice:gone", `<repository name="r"><arch>x86_64</arch></repository>`)), ok},
		{"package a", req("PUT", gone+"/a/_meta", asAlice, `<package><title>A</title><description/></package>`), ok},
		{"a commit", req("PUT", gone+"/a/hello.txt?comment=first", asAlice, "hello\n"), want(200, `<revision rev="1"`)},
		{"package b", req("PUT", gone+"/b/_meta", asAlice, `<package><title>B</title><description/></package>`), ok},
		{"b deleted on its own", req("DELETE", gone+"/b", asAlice, ""), ok},
		{"a key", req("POST", gone+"?cmd=createkey", asAlice, ""), ok},
		{"a pattern", req("PUT", gone+"/_pattern/base", asAlice, `<pattern><name>base</name></pattern>`), ok},
		{"bob may not delete", req("DELETE", gone, asBob, ""), code(403, "delete_project_no_permission")},
		{"lock it", req("POST", gone+"?cmd=lock", asAlice, ""), ok},
		{"a locked project is not deleted", req("DELETE", gone, asAlice, ""), locked403},
		{"unlock it", req("POST", gone+"?cmd=unlock&comment=go", asAlice, ""), ok},
		{"delete", req("DELETE", gone+"?comment=bye", asAlice, ""), ok},
		{"meta gone", req("GET", gone+"/_meta", asAlice, ""), code(404, "unknown_project")},
		{"listing gone", req("GET", gone, asAlice, ""), code(404, "unknown_project")},
		{"package gone", req("GET", gone+"/a", asAlice, ""), code(404, "unknown_project")},
		{"key gone", req("GET", gone+"/_pubkey", asAlice, ""), code(404, "unknown_project")},
		{"patterns gone", req("GET", gone+"/_pattern", asAlice, ""), code(404, "unknown_project")},
		{"not in the project list", req("GET", "/source", asAlice, ""), apitest.Expect{Status: 200, Excludes: []string{"home:alice:gone"}}},
		{"delete again", req("DELETE", gone, asAlice, ""), code(404, "unknown_project")},
		{"deleted list: alice may restore it", req("GET", "/source?deleted=1", asAlice, ""), want(200, `<entry name="home:alice:gone">`)},
		{"deleted list, trailing slash", req("GET", "/source/?deleted=1", asAdmin, ""), want(200, `<entry name="home:alice:gone">`)},
		{"deleted list, flag without value", req("GET", "/source?deleted", asAdmin, ""), want(200, `<entry name="home:alice:gone">`)},
		{"deleted=0 is the live list", req("GET", "/source?deleted=0", asAdmin, ""), apitest.Expect{Status: 200, Excludes: []string{"home:alice:gone"}}},
		{"deleted list: not bob's to see", req("GET", "/source?deleted=1", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"home:alice:gone"}}},
		{"its deleted packages", req("GET", gone+"?deleted=1", asAlice, ""), apitest.Expect{Status: 200,
			Exact: "<directory count=\"2\">\n  <entry name=\"a\"></entry>\n  <entry name=\"b\"></entry>\n</directory>\n"}},
		{"its deleted packages: hidden from bob", req("GET", gone+"?deleted=1", asBob, ""), code(404, "unknown_project")},
		{"its meta with deleted=1", req("GET", gone+"/_meta?deleted=1", asAlice, ""), want(200, `<project name="home:alice:gone">`, `<repository name="r">`)},
		{"bob may not undelete", req("POST", gone+"?cmd=undelete", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"undelete a never-deleted project", req("POST", "/source/home:alice:never?cmd=undelete", asAlice, ""), code(404, "unknown_project", "is not deleted")},
		{"undelete", req("POST", gone+"?cmd=undelete&comment=back", asAlice, ""), ok},
		{"undelete an existing project", req("POST", gone+"?cmd=undelete", asAlice, ""), code(400, "project_exists", "project 'home:alice:gone' already exists")},
		{"listed again", req("GET", "/source", asBob, ""), want(200, `<entry name="home:alice:gone">`)},
		{"no longer deleted", req("GET", "/source?deleted=1", asAdmin, ""), apitest.Expect{Status: 200, Excludes: []string{"home:alice:gone"}}},
		{"meta back", req("GET", gone+"/_meta", asBob, ""), want(200, `<repository name="r">`, `<person userid="alice" role="maintainer">`)},
		{"a back, b still deleted", req("GET", gone, asBob, ""), apitest.Expect{Status: 200,
			Exact: "<directory count=\"1\">\n  <entry name=\"a\"></entry>\n</directory>\n"}},
		{"b among the deleted", req("GET", gone+"?deleted=1", asAlice, ""), want(200, `<entry name="b">`)},
		{"a's history: the restore appended", req("GET", gone+"/a/_history", asBob, ""), want(200,
			`<revision rev="1" vrev="1">`, `<revision rev="2" vrev="2">`, "<comment>back</comment>")},
		{"a's files", req("GET", gone+"/a/hello.txt", asBob, ""), apitest.Expect{Status: 200, Exact: "hello\n"}},
		{"key kept", req("GET", gone+"/_pubkey", asBob, ""), want(200, "BEGIN PGP PUBLIC KEY BLOCK")},
		{"pattern kept", req("GET", gone+"/_pattern/base", asBob, ""), apitest.Expect{Status: 200, Exact: `<pattern><name>base</name></pattern>`}},
		{"delete once more", req("DELETE", gone, asAlice, ""), ok},
		{"created anew over the tombstone", req("PUT", gone+"/_meta", asAlice, prj("home:alice:gone", "")), ok},
		{"no packages", req("GET", gone, asBob, ""), want(200, `<directory count="0">`)},
		{"no deleted packages", req("GET", gone+"?deleted=1", asAlice, ""), want(200, `<directory count="0">`)},
		{"no patterns", req("GET", gone+"/_pattern", asAlice, ""), want(200, `<directory count="0">`)},
		{"no tombstone", req("GET", "/source?deleted=1", asAdmin, ""), apitest.Expect{Status: 200, Excludes: []string{"home:alice:gone"}}},
		{"a top-level delete by its maintainer", req("DELETE", "/source/devel:tools?force=1", asAlice, ""), ok},
		{"only Admin may create devel:tools, so only Admin restores it", req("POST", "/source/devel:tools?cmd=undelete", asAlice, ""), code(403, "cmd_execution_no_permission")},
		{"not in alice's deleted list", req("GET", "/source?deleted=1", asAlice, ""), apitest.Expect{Status: 200, Excludes: []string{"devel:tools"}}},
		{"Admin restores it", req("POST", "/source/devel:tools?cmd=undelete", asAdmin, ""), ok},
		{"its packages back", req("GET", "/source/devel:tools", asBob, ""), want(200, `<entry name="pocket-cli">`)},
		{"pocket-cli's history: 3 + the restore", req("GET", "/source/devel:tools/pocket-cli/_history", asBob, ""), want(200, `<revision rev="4"`, "<user>Admin</user>")},
	})
}

// TestProjectLinksAndDevel: <link> and <devel> in the project meta — kept, rendered in place,
// checked; ?expand=1 lists inherited packages with their origin; cmd=showlinked lists the
// projects linking here.
func TestProjectLinksAndDevel(t *testing.T) {
	e := newEnv(t)
	linked := "/source/home:alice:linked"
	meta := `<project name="home:alice:linked"><description>d</description><title>L</title>
<person userid="alice" role="maintainer"/><devel project="devel:tools"/>
<link project="devel:tools"/><link project="devel:libs" vrevmode="unextend"/></project>`
	canonical := `<project name="home:alice:linked">
  <title>L</title>
  <description>d</description>
  <link project="devel:tools"></link>
  <link project="devel:libs" vrevmode="unextend"></link>
  <devel project="devel:tools"></devel>
  <person userid="alice" role="maintainer"></person>
</project>
`
	bad := func(inner string) string { return prj("home:alice:bad", inner) }
	e.run(t, []scenario{
		{"create with links and devel", req("PUT", linked+"/_meta", asAlice, meta), ok},
		{"rendered in place", req("GET", linked+"/_meta", asBob, ""), apitest.Expect{Status: 200, Exact: canonical}},
		{"an own package shadowing an inherited one", req("PUT", linked+"/pocket-cli/_meta", asAlice, `<package><title>Mine</title><description/></package>`), ok},
		{"plain listing: own packages only", req("GET", linked, asBob, ""), apitest.Expect{Status: 200,
			Exact: "<directory count=\"1\">\n  <entry name=\"pocket-cli\"></entry>\n</directory>\n"}},
		{"expanded listing", req("GET", linked+"?expand=1", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<entry name="pocket-cli" originproject="home:alice:linked"></entry>`,
			`<entry name="forge-utils" originproject="devel:tools"></entry>`,
			`<entry name="libpocket" originproject="devel:libs"></entry>`},
			Excludes: []string{`<entry name="pocket-cli" originproject="devel:tools">`}}},
		{"expand=0 does not", req("GET", linked+"?expand=0", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"originproject"}}},
		{"link to a missing project", req("PUT", "/source/home:alice:bad/_meta", asAlice, bad(`<link project="nope"/>`)),
			code(400, "validation_failed", "unable to link against project 'nope'")},
		{"link to itself", req("PUT", "/source/home:alice:bad/_meta", asAlice, bad(`<link project="home:alice:bad"/>`)),
			code(400, "validation_failed", "unable to link against myself")},
		{"link without project", req("PUT", "/source/home:alice:bad/_meta", asAlice, bad(`<link/>`)), code(400, "validation_failed", "&lt;link&gt; needs a project")},
		{"bad vrevmode", req("PUT", "/source/home:alice:bad/_meta", asAlice, bad(`<link project="devel:tools" vrevmode="sideways"/>`)),
			code(400, "validation_failed", "vrevmode")},
		{"devel to a missing project", req("PUT", "/source/home:alice:bad/_meta", asAlice, bad(`<devel project="nope"/>`)),
			code(400, "validation_failed", "project 'nope' does not exist")},
		{"devel without project", req("PUT", "/source/home:alice:bad/_meta", asAlice, bad(`<devel/>`)), code(400, "validation_failed", "&lt;devel&gt;")},
		{"devel to itself", req("PUT", "/source/home:alice:bad/_meta", asAlice, bad(`<devel project="home:alice:bad"/>`)),
			code(400, "validation_failed", "can not point to itself")},
		{"a devel cycle", req("PUT", "/source/devel:tools/_meta", asAlice, prj("devel:tools", `<devel project="home:alice:linked"/>`)),
			code(400, "devel_cycle")},
		{"bob's home links back: a link cycle", req("PUT", "/source/home:bob/_meta", asBob, prj("home:bob", `<person userid="bob" role="maintainer"/><link project="home:alice:linked"/>`)), ok},
		{"alice links to bob's home", req("PUT", linked+"/_meta", asAlice, strings.Replace(meta, `<link project="devel:tools"/>`, `<link project="devel:tools"/><link project="home:bob"/>`, 1)), ok},
		{"expansion ends despite the cycle", req("GET", "/source/home:bob?expand=1", asBob, ""), want(200,
			`<entry name="pocket-cli" originproject="home:alice:linked"></entry>`, `<entry name="libpocket" originproject="devel:libs"></entry>`)},
		{"showlinked", req("POST", "/source/devel:tools?cmd=showlinked", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<collection>\n  <project name=\"home:alice:linked\"></project>\n</collection>\n"}},
		{"showlinked: several", req("POST", "/source/home:alice:linked?cmd=showlinked", asCarol, ""), want(200, `<project name="home:bob">`)},
		{"showlinked: none", req("POST", "/source/Pocket:1.0?cmd=showlinked", asBob, ""), apitest.Expect{Status: 200, Exact: "<collection></collection>\n"}},
		{"showlinked: unknown project", req("POST", "/source/nope?cmd=showlinked", asBob, ""), code(404, "unknown_project")},
		{"a linked project deleted", req("DELETE", "/source/home:bob", asBob, ""), ok},
		{"not listed by showlinked", req("POST", "/source/home:alice:linked?cmd=showlinked", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"home:bob"}}},
		{"expansion skips it", req("GET", linked+"?expand=1", asBob, ""), want(200, `originproject="devel:libs"`)},
	})
}

var asCarol = basic("carol", "carol-password")

// TestExpandedListingReadProtection: ?expand=1 over a project link shows nothing of a linked
// project hidden from the person (neither its name nor its packages); source protection does
// not hide names, as it does not in the project's own listing; members and Admin see all.
func TestExpandedListingReadProtection(t *testing.T) {
	e := newEnv(t)
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><person userid="carol" role="reader"/><access><disable/></access></project>`
	closed := `<project name="home:alice:closed"><title>C</title><description/><person userid="alice" role="maintainer"/>` +
		`<sourceaccess><disable/></sourceaccess></project>`
	pkg := func(name string) string { return `<package name="` + name + `"><title/><description/></package>` }
	bobs := prj("home:bob", `<person userid="bob" role="maintainer"/><link project="home:alice:secret"/><link project="home:alice:closed"/><link project="devel:libs"/>`)
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"its package", req("PUT", "/source/home:alice:secret/hushed/_meta", asAlice, pkg("hushed")), ok},
		{"a source-protected project", req("PUT", "/source/home:alice:closed/_meta", asAlice, closed), ok},
		{"its package", req("PUT", "/source/home:alice:closed/shut/_meta", asAlice, pkg("shut")), ok},
		{"an open one in it", req("PUT", "/source/home:alice:closed/open/_meta", asAlice,
			`<package name="open"><title/><description/><sourceaccess><enable/></sourceaccess></package>`), ok},
		{"bob links to all three (as Admin: bob may not see the hidden one)", req("PUT", "/source/home:bob/_meta", asAdmin, bobs), ok},
		// Source protection keeps the package names visible, as the closed project's own listing
		// and metas are: only a hidden project leaves the expansion.
		{"bob's expansion", req("GET", "/source/home:bob?expand=1", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<entry name="open" originproject="home:alice:closed"></entry>`, `<entry name="shut" originproject="home:alice:closed"></entry>`, `originproject="devel:libs"`},
			Excludes: []string{"home:alice:secret", "hushed"}}},
		{"as in the closed project's own listing", req("GET", "/source/home:alice:closed", asBob, ""), want(200, `<entry name="shut"></entry>`)},
		{"carol reads the hidden project", req("GET", "/source/home:bob?expand=1", asCarol, ""), want(200,
			`<entry name="hushed" originproject="home:alice:secret"></entry>`)},
		{"alice sees everything", req("GET", "/source/home:bob?expand=1", asAlice, ""), want(200,
			`<entry name="hushed" originproject="home:alice:secret"></entry>`, `<entry name="shut" originproject="home:alice:closed"></entry>`)},
	})
}

// TestProjectCopy: cmd=copy creates the target from the origin's meta and copies every package's
// newest tree (or, withhistory=1, every revision); withbinaries is Admin's (the binary options
// are TestProjectCopyBinaryOptions').
func TestProjectCopy(t *testing.T) {
	e := newEnv(t)
	cp := "/source/home:alice:copy"
	e.run(t, []scenario{
		{"oproject required", req("POST", cp+"?cmd=copy", asAlice, ""), code(400, "missing_parameter", "oproject")},
		{"unknown origin", req("POST", cp+"?cmd=copy&oproject=nope", asAlice, ""), code(404, "unknown_project")},
		{"bob may not create in alice's home", req("POST", cp+"?cmd=copy&oproject=devel:tools", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"onto itself", req("POST", "/source/devel:tools?cmd=copy&oproject=devel:tools", asAlice, ""), code(400, "illegal_request")},
		{"withbinaries: Admin's", req("POST", cp+"?cmd=copy&oproject=devel:tools&withbinaries=1", asAlice, ""), code(403, "project_copy_no_permission")},
		{"makeolder needs a maintainer of the origin", req("POST", "/source/home:bob:old?cmd=copy&oproject=devel:tools&makeolder=1", asBob, ""), code(403, "cmd_execution_no_permission", "origin project")},
		{"copy", req("POST", cp+"?cmd=copy&oproject=devel:tools&comment=copied&nodelay=1", asAlice, ""), ok},
		{"meta copied", req("GET", cp+"/_meta", asBob, ""), want(200, `<project name="home:alice:copy">`, "<title>Development tools</title>",
			`<person userid="alice" role="maintainer">`, `<person userid="carol" role="reviewer">`,
			`<repository name="standard">`, `<path project="Pocket:1.0" repository="standard">`)},
		{"packages copied", req("GET", cp, asBob, ""), want(200, `<entry name="pocket-cli">`, `<entry name="forge-utils">`)},
		{"newest tree as one revision", req("GET", cp+"/pocket-cli/_history", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<revision rev="1" vrev="1">`, "<user>alice</user>", "<comment>copied</comment>", "<version>1.1.0</version>"},
			Excludes: []string{`rev="2"`}}},
		{"same files", req("GET", cp+"/pocket-cli/pocket-cli-1.1.0.tar.gz", asBob, ""), apitest.Expect{Status: 200}},
		{"package meta copied", req("GET", cp+"/pocket-cli/_meta", asBob, ""), want(200, `<package name="pocket-cli" project="home:alice:copy">`, "<title>The pocket command line</title>")},
		{"again into the existing copy: one more revision", req("POST", cp+"?cmd=copy&oproject=devel:tools", asAlice, ""), ok},
		{"two revisions now", req("GET", cp+"/pocket-cli/_history", asBob, ""), want(200, `<revision rev="2"`)},
		{"with history", req("POST", "/source/home:alice:hist?cmd=copy&oproject=devel:tools&withhistory=1", asAlice, ""), ok},
		{"the whole history", req("GET", "/source/home:alice:hist/pocket-cli/_history", asBob, ""), want(200,
			`<revision rev="1" vrev="1">`, `<revision rev="2"`, `<revision rev="3"`)},
		{"same history as the origin", req("GET", "/source/devel:tools/pocket-cli/_history", asBob, ""), want(200, `<revision rev="3"`)},
		{"bob may not copy into alice's existing project", req("POST", cp+"?cmd=copy&oproject=devel:libs", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"lock the copy", req("POST", cp+"?cmd=lock", asAlice, ""), ok},
		{"copy into a locked project", req("POST", cp+"?cmd=copy&oproject=devel:libs", asAlice, ""), locked403},
		{"bad target name", req("POST", "/source/home:alice:..x?cmd=copy&oproject=devel:libs", asAlice, ""), code(400, "invalid_project_name")},
	})
}

// TestProjectCopyBinaryOptions: withbinaries (Admin), resign (accepted, changes nothing) and
// makeolder (the copy's vrev is the origin's + 1, the origin's + 2).
func TestProjectCopyBinaryOptions(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"origin history", req("GET", "/source/devel:tools/pocket-cli/_history", asBob, ""), want(200, `<revision rev="3" vrev="1">`)},
		{"withbinaries by Admin", req("POST", "/source/home:alice:bin?cmd=copy&oproject=devel:tools&withbinaries=1&resign=1", asAdmin, ""), ok},
		{"copied", req("GET", "/source/home:alice:bin", asBob, ""), want(200, `<entry name="pocket-cli">`)},
		{"makeolder", req("POST", "/source/home:alice:old?cmd=copy&oproject=devel:tools&makeolder=1", asAlice, ""), ok},
		{"the copy: vrev + 1", req("GET", "/source/home:alice:old/pocket-cli/_history", asBob, ""), want(200, `<revision rev="1" vrev="2">`)},
		{"the origin: vrev + 2", req("GET", "/source/devel:tools/pocket-cli/_history", asBob, ""), want(200, `<revision rev="4" vrev="3">`, "<comment>makeolder: copied to home:alice:old</comment>")},
	})
}

// TestUnsupportedCommands: POST /source without a command, or with one the service does not
// have, and a project command it does not have, are refused as OBS refuses them (cmd=move is
// TestProjectMove's).
func TestUnsupportedCommands(t *testing.T) {
	e := newEnv(t)
	var list []scenario
	list = append(list,
		scenario{"POST /source without cmd", req("POST", "/source", asAlice, ""), code(400, "missing_parameter")},
		scenario{"POST /source/?cmd=createmaintenanceincident", req("POST", "/source/?cmd=createmaintenanceincident", asAlice, ""), code(404, "unknown_project", "maintenance project")},
		scenario{"POST /source?cmd=frob", req("POST", "/source?cmd=frob", asAlice, ""), code(400, "illegal_request", "unsupported POST command frob")},
		scenario{"POST /source without credentials", req("POST", "/source?cmd=branch", nil, ""), apitest.Expect{Status: 401}},
		scenario{"unknown project command", req("POST", "/source/home:alice?cmd=freezelink", asAlice, ""), code(400, "illegal_request", "unsupported POST command freezelink")},
	)
	e.run(t, list)
}

// TestSigningKeys: _pubkey falls back to a parent's key and at last to the global key (made
// once); createkey makes a real key with the service's user id, extendkey renews it, DELETE
// removes it.
func TestSigningKeys(t *testing.T) {
	e := newEnv(t)
	get := func(path string, h map[string]string) string {
		t.Helper()
		got := apitest.Do(t, e.app, req("GET", path, h, ""))
		if got.Status != 200 || got.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Fatalf("GET %s: %d %s\n%s", path, got.Status, got.Header.Get("Content-Type"), got.Body)
		}
		return got.Body
	}
	global := get("/source/home:alice/_pubkey", asBob)
	if g := readKey(t, global); g.PrimaryIdentity().Name != "pocketforge OBS Instance <signkey@build.pocketforge>" {
		t.Fatalf("global key: %q", g.PrimaryIdentity().Name)
	}
	if again := get("/source/devel:tools/_pubkey", asAlice); again != global {
		t.Fatal("the global key was made twice")
	}
	e.run(t, []scenario{
		{"no credentials", req("GET", "/source/home:alice/_pubkey", nil, ""), apitest.Expect{Status: 401}},
		{"unknown project", req("GET", "/source/nope/_pubkey", asBob, ""), code(404, "unknown_project")},
		{"createkey: not bob's", req("POST", "/source/home:alice?cmd=createkey", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"createkey: unknown project", req("POST", "/source/nope?cmd=createkey", asAdmin, ""), code(404, "unknown_project")},
		{"createkey", req("POST", "/source/home:alice?cmd=createkey", asAlice, ""), ok},
		{"a subproject", req("PUT", "/source/home:alice:sub:deeper/_meta", asAlice, prj("home:alice:sub:deeper", "")), ok},
		{"extendkey without an own key", req("POST", "/source/home:alice:sub:deeper?cmd=extendkey", asAlice, ""), code(400, "400", "project does not have a key")},
		{"extendkey: bad days", req("POST", "/source/home:alice?cmd=extendkey&days=soon", asAlice, ""), code(400, "invalid_parameter")},
		{"extendkey: too far", req("POST", "/source/home:alice?cmd=extendkey&days=100000", asAlice, ""), code(400, "invalid_parameter", "too far in the future")},
		{"extendkey: not bob's", req("POST", "/source/home:alice?cmd=extendkey", asBob, ""), code(403, "cmd_execution_no_permission")},
	})
	own := get("/source/home:alice/_pubkey", asBob)
	k := readKey(t, own)
	if own == global || k.PrimaryIdentity().Name != "home:alice OBS Project <home:alice@build.pocketforge>" {
		t.Fatalf("project key: %q", k.PrimaryIdentity().Name)
	}
	if strings.Contains(own, "PRIVATE") {
		t.Fatal("a private key was served")
	}
	if sub := get("/source/home:alice:sub:deeper/_pubkey", asBob); sub != own {
		t.Fatal("the subproject does not fall back to home:alice's key")
	}
	lifetime := func(key *openpgp.Entity) uint32 {
		sig, _ := key.PrimarySelfSignature()
		if sig == nil || sig.KeyLifetimeSecs == nil {
			t.Fatal("no key lifetime")
		}
		return *sig.KeyLifetimeSecs
	}
	if lifetime(k) != 800*86400 {
		t.Fatalf("lifetime %d s", lifetime(k))
	}
	e.run(t, []scenario{{"extendkey by 1000 days", req("POST", "/source/home:alice?cmd=extendkey&days=1000", asAlice, ""), ok}})
	x := readKey(t, get("/source/home:alice/_pubkey", asBob))
	if string(x.PrimaryKey.Fingerprint) != string(k.PrimaryKey.Fingerprint) || lifetime(x) != 1000*86400 {
		t.Fatalf("extended: same key %v, lifetime %d s", string(x.PrimaryKey.Fingerprint) == string(k.PrimaryKey.Fingerprint), lifetime(x))
	}
	e.run(t, []scenario{
		{"delete: not bob's", req("DELETE", "/source/home:alice/_pubkey", asBob, ""), code(403, "delete_project_pubkey_no_permission")},
		{"delete: unknown project", req("DELETE", "/source/nope/_pubkey", asAlice, ""), code(404, "unknown_project")},
		{"delete", req("DELETE", "/source/home:alice/_pubkey", asAlice, ""), ok},
		{"back to the global key", req("GET", "/source/home:alice:sub:deeper/_pubkey", asBob, ""), apitest.Expect{Status: 200, Exact: global}},
		{"delete without a key: no effect", req("DELETE", "/source/home:alice/_pubkey", asAlice, ""), ok},
		{"lock", req("POST", "/source/home:alice?cmd=lock", asAlice, ""), ok},
		{"createkey on a locked project", req("POST", "/source/home:alice?cmd=createkey", asAlice, ""), locked403},
		{"delete on a locked project", req("DELETE", "/source/home:alice/_pubkey", asAlice, ""), locked403},
	})
}

func readKey(t *testing.T, armored string) *openpgp.Entity {
	t.Helper()
	list, err := openpgp.ReadArmoredKeyRing(strings.NewReader(armored))
	if err != nil || len(list) != 1 {
		t.Fatalf("not one public key: %v\n%s", err, armored)
	}
	return list[0]
}

// TestPatterns: /source/P/_pattern lists, reads, writes and deletes pattern files; a write needs
// a maintainer, an unlocked project and a well-formed <pattern> document.
func TestPatterns(t *testing.T) {
	e := newEnv(t)
	pat := "/source/home:alice/_pattern"
	doc := `<?xml version="1.0"?>
<pattern xmlns="http://novell.com/package/metadata/suse/pattern" xmlns:rpm="http://linux.duke.edu/metadata/rpm">
  <name>pocket</name><summary>Pocket</summary><description>d</description><category lang="en">Base</category>
  <rpm:requires><rpm:entry name="pocket-cli"/></rpm:requires>
</pattern>
`
	e.run(t, []scenario{
		{"no credentials", req("GET", pat, nil, ""), apitest.Expect{Status: 401}},
		{"empty list", req("GET", pat, asBob, ""), apitest.Expect{Status: 200, Exact: "<directory count=\"0\"></directory>\n"}},
		{"unknown project", req("GET", "/source/nope/_pattern", asBob, ""), code(404, "unknown_project")},
		{"PUT: not bob's", req("PUT", pat+"/pocket", asBob, doc), code(403, "change_project_no_permission", "no permission to store pattern")},
		{"PUT: not XML", req("PUT", pat+"/pocket", asAlice, "<pattern><name>"), code(400, "validation_failed", "pattern validation error")},
		{"PUT: empty", req("PUT", pat+"/pocket", asAlice, " \n"), code(400, "validation_failed")},
		{"PUT: wrong root", req("PUT", pat+"/pocket", asAlice, "<patterns/>"), code(400, "validation_failed", "&lt;pattern&gt;")},
		{"PUT: two roots", req("PUT", pat+"/pocket", asAlice, "<pattern/><pattern/>"), code(400, "validation_failed", "more than one root")},
		{"PUT: text after the root", req("PUT", pat+"/pocket", asAlice, "<pattern/>junk"), code(400, "validation_failed")},
		{"PUT: mismatched tags", req("PUT", pat+"/pocket", asAlice, "<pattern><a></b></pattern>"), code(400, "validation_failed")},
		{"PUT: bad name", req("PUT", pat+"/.hidden", asAlice, doc), code(400, "invalid_filename")},
		{"PUT: a name that is not UTF-8", req("PUT", pat+"/p%FF", asAlice, doc), code(400, "invalid_filename", "not UTF-8")},
		{"PUT: unknown project", req("PUT", "/source/nope/_pattern/x", asAdmin, doc), code(404, "unknown_project")},
		{"PUT", req("PUT", pat+"/pocket", asAlice, doc), ok},
		{"PUT another", req("PUT", pat+"/_meta", asAdmin, "<pattern/>"), ok},
		{"listed", req("GET", pat, asBob, ""), want(200, `<directory count="2">`, `<entry name="_meta" md5="`,
			`<entry name="pocket" md5="`, `size="`+strconv.Itoa(len(doc))+`" mtime="`)},
		{"read back as sent", req("GET", pat+"/pocket", asBob, ""), apitest.Expect{Status: 200, Exact: doc,
			Header: map[string]string{"Content-Type": "application/xml; charset=utf-8"}}},
		{"replace", req("PUT", pat+"/pocket", asAlice, "<pattern><name>v2</name></pattern>"), ok},
		{"read the new one", req("GET", pat+"/pocket", asBob, ""), apitest.Expect{Status: 200, Exact: "<pattern><name>v2</name></pattern>"}},
		{"missing file", req("GET", pat+"/nope", asBob, ""), code(404, "404", "nope: no such file")},
		{"DELETE: not bob's", req("DELETE", pat+"/pocket", asBob, ""), code(403, "change_project_no_permission", "no permission to delete pattern")},
		{"DELETE", req("DELETE", pat+"/pocket", asAlice, ""), ok},
		{"gone", req("GET", pat+"/pocket", asBob, ""), code(404, "404")},
		{"DELETE a missing one", req("DELETE", pat+"/pocket", asAlice, ""), code(404, "404")},
		{"lock", req("POST", "/source/home:alice?cmd=lock", asAlice, ""), ok},
		{"PUT on a locked project", req("PUT", pat+"/pocket", asAlice, doc), locked403},
		{"DELETE on a locked project", req("DELETE", pat+"/_meta", asAdmin, ""), locked403},
	})
}

// TestProjectExtrasOddInput: odd names, parameters and bodies on the new routes answer with a
// 4xx status document, never a 500.
func TestProjectExtrasOddInput(t *testing.T) {
	e := newEnv(t)
	paths := []string{"nope", "home:alice", "home%3Aalice", "%00", "a%2Fb", "..", strings.Repeat("x", 300)}
	bodies := []string{"", "<", "<pattern>", "<pattern/>", strings.Repeat("<a>", 5000), "\xff\xfe", `<?xml version="1.0" encoding="latin1"?><pattern/>`,
		`<!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]><pattern>&x;</pattern>`}
	queries := []string{"", "?cmd=undelete", "?cmd=copy&oproject=%00", "?cmd=copy&oproject=home:bob&withhistory", "?cmd=extendkey&days=-5",
		"?cmd=extendkey&days=99999999999999999999", "?cmd=createkey", "?cmd=showlinked", "?cmd=release", "?cmd=move", "?deleted=1&expand=1", "?expand"}
	for _, p := range paths {
		for _, r := range []apitest.Request{
			req("GET", "/source/"+p+"/_pubkey", asAlice, ""),
			req("DELETE", "/source/"+p+"/_pubkey", asAlice, ""),
			req("GET", "/source/"+p+"/_pattern", asAlice, ""),
			req("GET", "/source/"+p+"/_pattern/"+p, asAlice, ""),
			req("DELETE", "/source/"+p+"/_pattern/"+p, asAlice, ""),
			req("GET", "/source/"+p+"/_meta?deleted=1", asAlice, ""),
		} {
			checkNo500(t, e, r)
		}
		for _, b := range bodies {
			checkNo500(t, e, req("PUT", "/source/home:alice/_pattern/"+p, asAlice, b))
			checkNo500(t, e, req("PUT", "/source/home:alice:odd/_meta", asAlice,
				`<project name="home:alice:odd"><title/><description/><link project="`+p+`" vrevmode="`+p+`"/><devel project="`+p+`"/>`+b+`</project>`))
		}
		for _, q := range queries {
			checkNo500(t, e, req("POST", "/source/"+p+q, asAlice, ""))
			checkNo500(t, e, req("GET", "/source/"+p+q, asAlice, ""))
		}
	}
}

func checkNo500(t *testing.T, e *env, r apitest.Request) {
	t.Helper()
	got := apitest.Do(t, e.app, r)
	if got.Status >= 500 || got.Status < 200 {
		t.Errorf("%s %s: %d\n%s", r.Method, r.Path, got.Status, got.Body)
	}
}

// TestMetaBounds: a meta carrying more entries than metadoc's bounds, or an element with more
// text than metadoc.MaxText, (the 200,000 <person>
// document of issue 13 took 3.4 s) is refused with validation_failed naming the element and the
// bound, and so is a file list of too many entries; the bound is checked while decoding.
func TestMetaBounds(t *testing.T) {
	e := newEnv(t)
	persons := `<project name="home:alice:many"><title>T</title><description/>` +
		strings.Repeat(`<person userid="bob" role="bugowner"/>`, 100000) + `</project>` // the test app's body limit is 4 MB
	groups := `<project name="home:alice:many"><title>T</title><description/>` +
		strings.Repeat(`<group groupid="g" role="reviewer"/>`, 1001) + `</project>`
	pkgPersons := `<package name="many" project="home:alice"><title>T</title><description/>` +
		strings.Repeat(`<person userid="bob" role="maintainer"/>`, 10001) + `</package>`
	list := `<directory>` + strings.Repeat(`<entry name="f" md5="d41d8cd98f00b204e9800998ecf8427e"/>`, 10001) + `</directory>`
	e.run(t, []scenario{
		{"100,000 persons", req("PUT", "/source/home:alice:many/_meta", asAlice, persons),
			code(400, "validation_failed", "more than 10000 &lt;person&gt; elements")},
		{"not created", req("GET", "/source/home:alice:many/_meta", asAlice, ""), code(404, "unknown_project")},
		{"1,001 groups", req("PUT", "/source/home:alice:many/_meta", asAlice, groups),
			code(400, "validation_failed", "more than 1000 &lt;group&gt; elements")},
		{"a package's persons", req("PUT", "/source/home:alice/many/_meta", asAlice, pkgPersons),
			code(400, "validation_failed", "more than 10000 &lt;person&gt;")},
		{"a file list of 10,001 entries", req("POST", "/source/home:alice/x?cmd=commitfilelist", asAlice, list),
			code(400, "validation_failed", "more than 10000 &lt;entry&gt;")},
		// issue 32: a 3 MB description and a 100 KB title were stored
		{"a 3 MB description", req("PUT", "/source/home:alice:long/_meta", asAlice,
			`<project name="home:alice:long"><title>T</title><description>`+strings.Repeat("d", 3<<20)+`</description></project>`),
			code(400, "validation_failed", "the text of &lt;description&gt; is longer than 65535 bytes")},
		{"a 100 KB package title", req("PUT", "/source/home:alice/long/_meta", asAlice,
			`<package name="long" project="home:alice"><title>`+strings.Repeat("t", 100<<10)+`</title><description/></package>`),
			code(400, "validation_failed", "the text of &lt;title&gt; is longer than 65535 bytes")},
		{"not created", req("GET", "/source/home:alice/long/_meta", asAlice, ""), code(404, "unknown_package")},
	})
}
