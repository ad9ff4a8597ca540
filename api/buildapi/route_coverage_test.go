package buildapi

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// seedRouteCount is how many route/variant pairs seed 001 (../shared/seeds/001_*.txt, the
// build service API) names, counted by hand section by section: every row of its endpoint
// tables (a "GET, PUT, DELETE" row is one pair per method; each search path is a GET), with
// a row that takes several commands (cmd=) or views (view=) split into one pair per command
// or view, and the route without view= counted as one more pair where it answers something
// of its own (a listing, a binary, a log). Two rows of the same method and path that the
// seed lists apart with other parameters (download_counter by limit and by group_by;
// /message/ by limit, by project, by project and package) stay apart, as the seed lists
// them. The source listings' own parameters (deleted, expand, rev, linkrev, emptylink, meta,
// extension, lastworking, withlinked, product, _meta's rev) and the diff commands' (view=xml,
// withissues, onlyissues) are pairs too: issue 37 found some of them ignored. Per section:
//
//	About, architectures, issue trackers, distributions   13
//	Users, tokens, groups (POST /group/<title>: 3 commands) 16
//	Projects (POST /source: 2 commands; POST /source/<project>: 15)   32
//	Packages and source files (GET /source/<project>: plain + 3 views + 2 parameters;
//	  GET /source/<project>/<package>: plain + 4 views + 11 parameters; POST …/<package>:
//	  27 commands + 3 diff parameters)   65
//	Requests (POST /request: create, create with addrevision; POST /request/<id>: diff + 7)   13
//	Attribute definitions and comments                    11
//	Build results and control (binary: plain + 2 views; POST _builddepinfo: plain + 3 views;
//	  _result: plain + 3 views; _log: plain + view=entry; POST /build/<project>: 4 commands)   37
//	Search                                                14
//	Published tree (the view=ymp row included)             6
//	Tags                                                  13
//	Legacy build results                                   3
//	Statistics                                            13
//	Status messages and messages                           7
//	                                                     ---
//	                                                     243
//
// The survey counted 276 by rules it did not write down; this table is the count that
// can be checked against the seed line by line.
const seedRouteCount = 243

// routeCase is one route/variant pair of the seed and the request that exercises it on the
// demo world. The method is route's first word. path may hold {name}s that an earlier case
// (or the setup) kept from its answer with keep: a regexp whose first group is the value.
type routeCase struct {
	route      string // the seed's method, path pattern and variant
	path, body string
	auth       map[string]string // nil: the Admin's Basic credentials
	keepAs     string
	keep       *regexp.Regexp
	// want and lacks check that a 2xx answer did what the variant asks (a listing filtered, a
	// document of the asked view), where a plain answer would look like success.
	want, lacks string
}

// rc is a case without a body, rcb one with a body.
func rc(route, path string) routeCase        { return routeCase{route: route, path: path} }
func rcb(route, path, body string) routeCase { return routeCase{route: route, path: path, body: body} }

// as sends c with the headers h instead of the Admin's credentials.
func (c routeCase) as(h map[string]string) routeCase { c.auth = h; return c }

// showing asks c's answer to hold want and not lacks ("": no check).
func (c routeCase) showing(want, lacks string) routeCase { c.want, c.lacks = want, lacks; return c }

// keeping keeps the first group of re in c's answer as {name}.
func (c routeCase) keeping(name, re string) routeCase {
	c.keepAs, c.keep = name, regexp.MustCompile(re)
	return c
}

// searchFor is a search route with its xpath match escaped.
func searchFor(route, match string) string { return route + "?match=" + url.QueryEscape(match) }

// TestSeedRouteCoverage (issue 37: "the route coverage of seed 001 reaches 276/276"; counted as
// seedRouteCount says, the seed names 243 route/variant pairs) sends one
// request for every route/variant pair that seed 001 names — every method and path of its
// tables, every cmd= of its POST routes and every view= of its GET routes — to the build API
// on a fresh copy of the demo world (the farm run until quiet, so builds, binaries, logs and
// the published tree exist), as Admin, and asserts each is implemented: not a 404 or 405
// for an unknown route, not a refusal saying a command or view is unknown, unsupported or
// needs the build farm, not a 5xx, and any other refusal an OBS <status> document (a 403,
// a 404 of an absent object and a 400 of a missing parameter are the domain's answers, not
// gaps). The requests are arranged to succeed where that is cheap. Every failing pair is
// reported, so one run lists every gap.
func TestSeedRouteCoverage(t *testing.T) {
	cases := seedRoutes(uploadRPM(t, rpmout.RPM{Name: "covtool", Version: "1.0", Release: "1", Arch: "x86_64",
		Summary: "Uploaded", Description: "An uploaded binary.", License: "MIT"}))
	if len(cases) != seedRouteCount {
		t.Errorf("the table holds %d route/variant pairs, the seed %d", len(cases), seedRouteCount)
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.route] {
			t.Errorf("%s is in the table twice", c.route)
		}
		seen[c.route] = true
	}
	e := newBuiltEnv(t)
	vars := map[string]string{}
	for _, c := range coverageSetup() {
		if path, got := e.do(t, c, vars); got.Status/100 != 2 {
			t.Fatalf("setup, %s: %s %s: %d %s", c.route, method(c.route), path, got.Status, got.Body)
		}
	}
	// A built binary for cmd=release to carry: the farm does not run after the setup.
	if err := e.db.Write(func(tx kv.Tx) error {
		return buildstore.PutBinary(tx, buildstore.Where{Project: "home:alice:rel", Repository: "standard", Arch: "x86_64"},
			buildstore.Binary{Package: "x", Filename: "x-1.0-1.1.x86_64.rpm", Name: "x", Version: "1.0", Release: "1.1",
				Arch: "x86_64", Size: 3}, []byte("rpm"))
	}); err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, c := range cases {
		path, got := e.do(t, c, vars)
		why := unimplemented(got)
		if why == "" && got.Status/100 == 2 && (!strings.Contains(got.Body, c.want) || c.lacks != "" && strings.Contains(got.Body, c.lacks)) {
			why = "answers without doing what the variant asks (wants " + c.want + ", lacks " + c.lacks + ")"
		}
		if unfilled.MatchString(path) {
			why = "an earlier case kept no value for " + unfilled.FindString(path)
		}
		if why != "" {
			failed = append(failed, c.route)
			t.Errorf("%s (%s %s): %s: %d %s", c.route, method(c.route), path, why, got.Status, excerpt(got.Body))
		} else if got.Status/100 != 2 {
			t.Logf("%s: a domain refusal, %d %s", c.route, got.Status, excerpt(got.Body))
		}
	}
	if len(failed) > 0 {
		t.Logf("%d/%d route/variant pairs implemented; missing:\n  %s", len(cases)-len(failed), len(cases), strings.Join(failed, "\n  "))
	}
}

// newBuiltEnv is newEnv with a farm, run by the fixed clock until it is quiet: the demo
// packages built and published.
func newBuiltEnv(t *testing.T) *env {
	t.Helper()
	const buildTime = 8 * time.Second
	var f *farm.Farm
	e := newEnvWith(t, func(d *Deps) {
		d.Build = domains.NewBuild(d.Store, d.Clock, d.Log, domains.BuildOptions{Farm: farm.Options{Workers: 4, BuildTime: buildTime}})
		f = d.Build.Farm
	})
	for range 400 {
		if err := f.FarmTick(); err != nil {
			t.Fatal(err)
		}
		quiet := false
		_ = e.db.View(func(tx kv.Tx) error { quiet = buildstore.FarmQuiet(tx); return nil })
		if quiet {
			return e
		}
		e.clk.Advance(buildTime)
	}
	t.Fatal("the demo farm is still busy after 400 build times")
	return nil
}

// do sends c with vars filled in, keeps what c asks to keep, and returns the path it sent.
func (e *env) do(t *testing.T, c routeCase, vars map[string]string) (string, apitest.Response) {
	t.Helper()
	fill := func(s string) string {
		for k, v := range vars {
			s = strings.ReplaceAll(s, "{"+k+"}", v)
		}
		return s
	}
	h := asAdmin
	if c.auth != nil {
		h = map[string]string{}
		for k, v := range c.auth {
			h[k] = fill(v)
		}
	}
	path := fill(c.path)
	got := apitest.Do(t, e.app, req(method(c.route), path, h, fill(c.body)))
	if c.keep != nil {
		if m := c.keep.FindStringSubmatch(got.Body); m != nil {
			vars[c.keepAs] = m[1]
		}
	}
	return path, got
}

// method is the route's method, its first word.
func method(route string) string { m, _, _ := strings.Cut(route, " "); return m }

// unfilled is a {name} no earlier case kept a value for.
var unfilled = regexp.MustCompile(`\{[a-z]+\}`)

// statusDoc reads an OBS <status code="…"><summary>…</summary> document.
var statusDoc = regexp.MustCompile(`(?s)^\s*(?:<\?xml[^>]*>\s*)?<status code="([^"]*)">\s*(?:<summary>(.*?)</summary>)?`)

// notServed are phrases of the build API's refusals that mean the route, command or view is
// not implemented: "unsupported POST command" (projects_cmds.go, sources_post.go,
// requests.go), "unknown command" (people_write.go, groups_write.go, tokens.go), the view
// switches' "unknown view" and "unsupported view" (sources_files.go, build_binaries.go,
// published.go, sources_diff.go), and the farm's "needs the build farm, which this appliance
// does not run yet" that cmd=move answered until it was served.
var notServed = []string{"unsupported post command", "needs the build farm", "does not run yet", "unknown command",
	"unknown view", "unsupported view", "not supported", "not implemented", "not served"}

// unimplemented says why got shows that its route is not implemented, or "" when it is.
func unimplemented(got apitest.Response) string {
	switch {
	case got.Status/100 == 2:
		return ""
	case got.Status >= 500:
		return "a server error"
	case got.Status == 401:
		return "the Admin's credentials were refused"
	case got.Status == 405:
		return "no route for this method"
	}
	m := statusDoc.FindStringSubmatch(got.Body)
	if m == nil {
		return "not an OBS <status> document"
	}
	code, summary := m[1], strings.ToLower(m[2])
	switch {
	case code == "not_found" && strings.HasPrefix(summary, "not found: /"):
		return "no route"
	case code == "unknown_command" || code == "invalid_view" || code == "not_implemented":
		return "refused as not implemented (code " + code + ")"
	}
	for _, p := range notServed {
		if strings.Contains(summary, p) {
			return "refused as not implemented (" + p + ")"
		}
	}
	return ""
}

// excerpt is the start of a body, for a message.
func excerpt(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// Documents the cases send.
const (
	covMaintMeta = `<project name="Maint" kind="maintenance"><title>Maintenance</title><description/>` +
		`<person userid="alice" role="maintainer"/><group groupid="pocket-reviewers" role="reviewer"/></project>`
	covUpdMeta = `<project name="home:alice:upd"><title>Updates</title><description/><build><disable/></build>` +
		`<repository name="update"><arch>x86_64</arch></repository></project>`
	covRelMeta = `<project name="home:alice:rel"><title>Rel</title><description/><repository name="standard">` +
		`<releasetarget project="home:alice:upd" repository="update" trigger="manual"/><arch>x86_64</arch></repository></project>`
	covChannel = `<channel><target project="home:alice:upd" repository="update"/>` +
		`<binaries project="devel:tools" repository="standard" arch="x86_64"><binary name="pocket-cli" package="pocket-cli" supportstatus="l3"/></binaries></channel>`
	covTracker = `<issue-tracker><name>%s</name><kind>other</kind><description>Coverage tracker</description>` +
		`<url>https://issues.pocketforge.test/</url><show-url>https://issues.pocketforge.test/@@@</show-url>` +
		`<regex>%s#(\d+)</regex><label>%s#@@@</label><enable-fetch>false</enable-fetch></issue-tracker>`
	covDistribution = `<distribution id="pocket-1.0" vendor="pocketforge" version="1.0"><name>Pocket 1.0</name>` +
		`<project>Pocket:1.0</project><reponame>Pocket_1.0</reponame><repository>standard</repository>` +
		`<architecture>x86_64</architecture><architecture>aarch64</architecture></distribution>`
	covSubmit = `<request><action type="submit"><source project="home:alice:branches:devel:tools" package="forge-utils"/>` +
		`<target project="devel:tools" package="forge-utils"/></action><description>%s</description></request>`
	covIncident = `<request><action type="maintenance_incident"><source project="home:bob:forks" package="libpocket"/>` +
		`<target project="Maint"/></action><description>an incident</description></request>`
	covRedirect = `<redirect_stats><project name="devel:tools"><package name="pocket-cli"><repository name="standard">` +
		`<arch name="x86_64"><count filename="pocket-cli" filetype="rpm" version="1.1.0" release="1.2">3</count></arch>` +
		`</repository></package></project></redirect_stats>`
	covMessage = `<message severity="1" send_mail="false" private="false">Route coverage.</message>`
)

// tracker is an issue tracker document named name.
func tracker(name string) string { return strings.ReplaceAll(covTracker, "%s", name) }

// pkgMetaOf is the meta of a package named name.
func pkgMetaOf(name string) string {
	return `<package name="` + name + `"><title>` + name + `</title><description/></package>`
}

// attrsOf is an attributes document setting ns:name to value.
func attrsOf(ns, name, value string) string {
	return `<attributes><attribute namespace="` + ns + `" name="` + name + `"><value>` + value + `</value></attribute></attributes>`
}

// coverageSetup makes the objects the cases change or delete, apart from the demo world's
// own (each must answer 2xx).
func coverageSetup() []routeCase {
	alice := basic("alice", "alice-password")
	return []routeCase{
		rcb("PUT registration allowed", "/configuration", `<configuration><registration>allow</registration></configuration>`),
		rcb("PUT a person to change", "/person/erin", `<person><login>erin</login><email>erin@pocketforge.test</email></person>`),
		rcb("PUT a maintenance project", "/source/Maint/_meta", covMaintMeta),
		rcb("POST its OBS:MaintenanceProject", "/source/Maint/_attribute", `<attributes><attribute namespace="OBS" name="MaintenanceProject"/></attributes>`),
		rc("POST incident Maint:0", "/source/Maint?cmd=createmaintenanceincident"),
		rcb("PUT a package in it", "/source/Maint:0/x/_meta", pkgMetaOf("x")),
		rcb("PUT its changes", "/source/Maint:0/x/x.changes", "- fix pocket#12\n"),
		rcb("PUT an update project", "/source/home:alice:upd/_meta", covUpdMeta),
		rcb("PUT a project with a release target", "/source/home:alice:rel/_meta", covRelMeta),
		rcb("PUT a package to release", "/source/home:alice:rel/x/_meta", pkgMetaOf("x")),
		rcb("PUT its spec", "/source/home:alice:rel/x/x.spec", "Name: x\nVersion: 1.0\n"),
		rcb("PUT a channel project", "/source/home:alice:chan/_meta", `<project name="home:alice:chan"><title/><description/></project>`),
		rcb("PUT a channel package", "/source/home:alice:chan/Pocket-Tools/_meta", pkgMetaOf("Pocket-Tools")),
		rcb("PUT a project linking devel:tools", "/source/home:alice:inst/_meta",
			`<project name="home:alice:inst"><title/><description/><link project="devel:tools"/></project>`),
		rcb("PUT a project to delete", "/source/home:alice:gone/_meta", `<project name="home:alice:gone"><title/><description/></project>`),
		rcb("PUT a project to move", "/source/home:alice:tomove/_meta", `<project name="home:alice:tomove"><title/><description/></project>`),
		rcb("PUT a project to lock", "/source/home:alice:locked/_meta", `<project name="home:alice:locked"><title/><description/></project>`),
		rcb("PUT a scratch package", "/source/home:alice/scratch/_meta", pkgMetaOf("scratch")),
		rcb("PUT a package to delete", "/source/home:alice/gonepkg/_meta", pkgMetaOf("gonepkg")),
		rcb("PUT its file", "/source/home:alice/gonepkg/a.txt", "a\n"),
		rcb("PUT a package to unlock", "/source/home:alice/locked/_meta", pkgMetaOf("locked")),
		rc("POST its lock", "/source/home:alice/locked?cmd=lock"),
		rcb("PUT a package to commit", "/source/home:alice/up/_meta", pkgMetaOf("up")),
		rcb("PUT an upload", "/source/home:alice/up/up.txt?rev=upload", "up\n"),
		rcb("PUT a package to discard", "/source/home:alice/up2/_meta", pkgMetaOf("up2")),
		rcb("PUT an upload", "/source/home:alice/up2/junk.txt?rev=upload", "junk\n"),
		rcb("PUT a package for commitfilelist", "/source/home:alice/cfl/_meta", pkgMetaOf("cfl")),
		rcb("PUT its file", "/source/home:alice/cfl/a.txt", "a\n"),
		rcb("PUT a link", "/source/home:alice/l/_meta", pkgMetaOf("l")),
		rcb("PUT its _link", "/source/home:alice/l/_link", `<link project="devel:tools" package="pocket-cli"/>`),
		rcb("PUT a package with a service", "/source/home:alice/svc/_meta", pkgMetaOf("svc")),
		rcb("PUT its _service", "/source/home:alice/svc/_service", `<services><service name="download_files"/></services>`),
		rcb("PUT a package for the trigger", "/source/home:alice/svc2/_meta", pkgMetaOf("svc2")),
		rcb("PUT its _service", "/source/home:alice/svc2/_service", `<services><service name="download_files"/></services>`),
		rc("POST alice's token for the trigger", "/person/alice/token?cmd=create&project=home:alice&package=svc2").as(alice).
			keeping("trigger", `<data name="token">([0-9a-f]+)</data>`),
	}
}

// seedRoutes is the seed's route/variant pairs in the seed's order, except where a case needs
// an earlier one (said where); rpm is the binary uploaded to a repository.
func seedRoutes(rpm string) []routeCase {
	const (
		cli  = "/source/devel:tools/pocket-cli"
		bld  = "/build/devel:tools/standard/x86_64"
		bcli = bld + "/pocket-cli"
	)
	spec := "Name: covtool\nVersion: 1.0\nRelease: 0\nSummary: S\nLicense: MIT\nBuildRequires: gcc\n\n%description\nD.\n\n%files\n"
	return []routeCase{
		// About, architectures, issue trackers, distributions.
		rc("GET /about", "/about"),
		rc("GET /architectures", "/architectures"),
		rc("GET /issue_trackers", "/issue_trackers"),
		rc("GET /issue_trackers/<name>", "/issue_trackers/pocket"),
		rcb("PUT /issue_tracker/<name>", "/issue_tracker/pocket", tracker("pocket")),
		rcb("POST /issue_tracker/<name>", "/issue_tracker/cov", tracker("cov")),
		rc("DELETE /issue_tracker/<name>", "/issue_tracker/cov"),
		rc("GET /issue_trackers/show_url_for", "/issue_trackers/show_url_for?issue=pocket%2312"),
		rc("GET /distributions", "/distributions"),
		rcb("PUT /distributions", "/distributions", "<distributions>"+covDistribution+"</distributions>"),
		rc("GET /distributions/<distribution_id>", "/distributions/pocket-1.0"),
		rcb("POST /distributions/<distribution_id>", "/distributions/pocket-1.0", covDistribution),
		rc("GET /distributions/include_remotes", "/distributions/include_remotes"),

		// Users, tokens, groups.
		rc("GET /person/<userid>", "/person/alice"),
		rcb("PUT /person/<userid>", "/person/carol", `<person><login>carol</login><email>carol@pocketforge.test</email><realname>Carol Reviewer</realname></person>`),
		rcb("POST /person?cmd=register", "/person?cmd=register",
			`<unregisteredperson><login>newbie</login><email>newbie@pocketforge.test</email><password>newbie-password</password></unregisteredperson>`),
		rcb("POST /person/<userid>?cmd=change_password", "/person/erin?cmd=change_password", "erin-new-password\n"),
		rc("POST /person/<userid>?cmd=lock", "/person/erin?cmd=lock"),
		rc("POST /person/<userid>?cmd=delete", "/person/erin?cmd=delete"),
		rc("GET /person/<userid>/token", "/person/Admin/token"),
		rc("POST /person/<userid>/token?cmd=create", "/person/Admin/token?cmd=create&project=devel:tools&package=pocket-cli").
			keeping("token", `<data name="id">(\d+)</data>`),
		rc("DELETE /person/<userid>/token/<id>", "/person/Admin/token/{token}"),
		rc("GET /group", "/group?login=alice"),
		rc("GET /group/<group title>", "/group/pocket-reviewers"),
		rcb("PUT /group/<group title>", "/group/cov-group", `<group><title>cov-group</title><maintainer userid="alice"/></group>`),
		rc("POST /group/<group title>?cmd=add_user", "/group/cov-group?cmd=add_user&userid=bob"),
		rc("POST /group/<group title>?cmd=remove_user", "/group/cov-group?cmd=remove_user&userid=bob"),
		rc("POST /group/<group title>?cmd=set_email", "/group/cov-group?cmd=set_email&email=cov@pocketforge.test"),
		rc("DELETE /group/<group title>", "/group/cov-group"),

		// Projects.
		rc("GET /source/", "/source/"),
		rc("POST /source?cmd=branch", "/source?cmd=branch"),
		rc("POST /source?cmd=createmaintenanceincident", "/source?cmd=createmaintenanceincident"),
		rc("GET /source/<project>/_meta", "/source/devel:tools/_meta"),
		rcb("PUT /source/<project>/_meta", "/source/home:alice:cov/_meta", `<project name="home:alice:cov"><title>Cov</title><description/>`+
			`<person userid="alice" role="maintainer"/><repository name="standard"><path project="Pocket:1.0" repository="standard"/><arch>x86_64</arch></repository></project>`),
		rc("DELETE /source/<project>", "/source/home:alice:gone?comment=bye"),
		rc("GET /source/<project>/_attribute/<attribute>", "/source/devel:tools/_attribute/OBS:QualityCategory"),
		rcb("POST /source/<project>/_attribute/<attribute>", "/source/devel:tools/_attribute/OBS:QualityCategory", attrsOf("OBS", "QualityCategory", "Stable")),
		rc("DELETE /source/<project>/_attribute/<attribute>", "/source/devel:tools/_attribute/OBS:QualityCategory"),
		rc("GET /source/<project>/_config", "/source/home:alice/_config"),
		rcb("PUT /source/<project>/_config", "/source/home:alice/_config", "Macros:\n%cov 1\n:Macros\n"),
		// The pattern is written first, so the list and the read find it.
		rcb("PUT /source/<project>/_pattern/<patternfile>", "/source/home:alice/_pattern/cov", `<pattern><name>cov</name></pattern>`),
		rc("GET /source/<project>/_pattern", "/source/home:alice/_pattern"),
		rc("GET /source/<project>/_pattern/<patternfile>", "/source/home:alice/_pattern/cov"),
		rc("DELETE /source/<project>/_pattern/<patternfile>", "/source/home:alice/_pattern/cov"),
		rc("GET /source/<project>/_pubkey", "/source/home:alice/_pubkey"),
		rc("DELETE /source/<project>/_pubkey", "/source/home:alice/_pubkey"),
		rc("POST /source/<project>?cmd=createkey", "/source/home:alice?cmd=createkey"),
		rc("POST /source/<project>?cmd=extendkey", "/source/home:alice?cmd=extendkey"),
		rc("POST /source/<project>?cmd=undelete", "/source/home:alice:gone?cmd=undelete"),
		rc("POST /source/<project>?cmd=showlinked", "/source/devel:tools?cmd=showlinked"),
		rc("POST /source/<project>?cmd=copy", "/source/home:alice:copy?cmd=copy&oproject=devel:libs"),
		rc("POST /source/<project>?cmd=move", "/source/home:alice:moved?cmd=move&oproject=home:alice:tomove"),
		rc("POST /source/<project>?cmd=createmaintenanceincident", "/source/Maint?cmd=createmaintenanceincident"),
		rc("POST /source/<project>?cmd=createpatchinfo", "/source/Maint:0?cmd=createpatchinfo&comment=Fix+x"),
		// addchannels and modifychannels are below, after importchannel and branch.
		rc("POST /source/<project>?cmd=set_flag", "/source/home:alice?cmd=set_flag&flag=publish&status=disable&repository=standard&arch=x86_64"),
		rc("POST /source/<project>?cmd=remove_flag", "/source/home:alice?cmd=remove_flag&flag=publish&repository=standard&arch=x86_64"),
		rc("POST /source/<project>?cmd=lock", "/source/home:alice:locked?cmd=lock"),
		rc("POST /source/<project>?cmd=unlock", "/source/home:alice:locked?cmd=unlock&comment=done"),
		rc("POST /source/<project>?cmd=release", "/source/home:alice:rel?cmd=release&repository=standard"),

		// Packages and source files.
		rc("GET /source/<project>", "/source/devel:tools"),
		rc("GET /source/<project>?view=issues", "/source/devel:libs?view=issues"),
		rc("GET /source/<project>?view=productlist", "/source/Pocket:1.0?view=productlist").showing(`<productlist count="1">`, ""),
		rc("GET /source/<project>?view=verboseproductlist", "/source/Pocket:1.0?view=verboseproductlist").showing(`cpe="cpe:/o:pocket:pocket:1.0"`, ""),
		rc("GET /source/<project>/<package>", cli),
		rc("GET /source/<project>/<package>?view=info", cli+"?view=info&parse=1&repository=standard&arch=x86_64"),
		rc("GET /source/<project>/<package>?view=issues", cli+"?view=issues"),
		rc("GET /source/<project>/<package>?view=products", "/source/Pocket:1.0/000productcompose?view=products").showing(`<product name="Pocket"`, ""),
		rc("GET /source/<project>/<package>?view=cpio", cli+"?view=cpio"),
		// The listing parameters the seed names (the issue's "answers that ignore what the
		// caller asked" were among them).
		rc("GET /source/<project>?deleted=1", "/source/home:alice?deleted=1"),
		rc("GET /source/<project>?expand=1", "/source/Pocket:1.0?expand=1"),
		rc("GET /source/<project>/<package>?rev=", cli+"?rev=1"),
		rc("GET /source/<project>/<package>?linkrev=", "/source/Pocket:1.0/pocket-cli?expand=1&linkrev=base"),
		rc("GET /source/<project>/<package>?emptylink=1", "/source/Pocket:1.0/pocket-cli?emptylink=1"),
		rc("GET /source/<project>/<package>?expand=1", "/source/Pocket:1.0/pocket-cli?expand=1"),
		rc("GET /source/<project>/<package>?meta=1", cli+"?meta=1").showing(`<entry name="_meta"`, "pocket-cli.spec"),
		rc("GET /source/<project>/<package>?extension=", cli+"?extension=spec").showing("pocket-cli.spec", "pocket-cli.changes"),
		rc("GET /source/<project>/<package>?lastworking=1", "/source/Pocket:1.0/pocket-cli?lastworking=1"),
		rc("GET /source/<project>/<package>?withlinked=1", cli+"?withlinked=1"),
		rc("GET /source/<project>/<package>?deleted=1", cli+"?deleted=1"),
		rc("GET /source/<project>/<package>?view=products&product=", "/source/Pocket:1.0/000productcompose?view=products&product=Pocket").showing(`<product name="Pocket"`, ""),
		rc("GET /source/<project>/<package>/_meta?rev=", cli+"/_meta?rev=1").showing(`<package name="pocket-cli" project="devel:tools">`, ""),
		rc("GET /source/<project>/<package>/_meta", cli+"/_meta"),
		rcb("PUT /source/<project>/<package>/_meta", "/source/home:alice/cov/_meta", pkgMetaOf("cov")),
		rc("DELETE /source/<project>/<package>", "/source/home:alice/gonepkg?comment=bye"),
		rc("GET /source/<project>/<package>/_attribute/<attribute>", cli+"/_attribute/OBS:Maintained"),
		rcb("POST /source/<project>/<package>/_attribute/<attribute>", cli+"/_attribute/OBS:QualityCategory", attrsOf("OBS", "QualityCategory", "Testing")),
		rc("DELETE /source/<project>/<package>/_attribute/<attribute>", cli+"/_attribute/OBS:QualityCategory"),
		rc("GET /source/<project>/<package>/<binary>/_attribute/<attribute>", cli+"/pocket-cli/_attribute/OBS:QualityCategory"),
		rcb("POST /source/<project>/<package>/<binary>/_attribute/<attribute>", cli+"/pocket-cli/_attribute/OBS:QualityCategory", attrsOf("OBS", "QualityCategory", "Private")),
		rc("DELETE /source/<project>/<package>/<binary>/_attribute/<attribute>", cli+"/pocket-cli/_attribute/OBS:QualityCategory"),
		rc("GET /source/<project>/<package>/_history", cli+"/_history"),
		rc("GET /source/<project>/<package>/<filename>", cli+"/pocket-cli.spec"),
		rcb("PUT /source/<project>/<package>/<filename>", "/source/home:alice/scratch/notes.txt?comment=notes", "notes\n"),
		rc("DELETE /source/<project>/<package>/<filename>", "/source/home:alice/scratch/notes.txt"),
		rc("POST /source/<project>/<package>?cmd=showlinked", cli+"?cmd=showlinked"),
		rc("POST /source/<project>/<package>?cmd=diff", cli+"?cmd=diff&orev=1&rev=3"),
		rc("POST /source/<project>/<package>?cmd=diff&view=xml", cli+"?cmd=diff&orev=1&rev=3&view=xml").showing("<sourcediff", ""),
		rc("POST /source/<project>/<package>?cmd=diff&withissues=1", cli+"?cmd=diff&orev=1&rev=3&withissues=1"),
		rc("POST /source/<project>/<package>?cmd=diff&onlyissues=1", cli+"?cmd=diff&orev=1&rev=3&view=xml&onlyissues=1").showing("<issues", "<files>"),
		rc("POST /source/<project>/<package>?cmd=linkdiff", "/source/Pocket:1.0/pocket-cli?cmd=linkdiff"),
		rc("POST /source/<project>/<package>?cmd=servicediff", "/source/home:alice/svc?cmd=servicediff"),
		rc("POST /source/<project>/<package>?cmd=instantiate", "/source/home:alice:inst/pocket-cli?cmd=instantiate&makeoriginolder=1"),
		rc("POST /source/<project>/<package>?cmd=release", "/source/home:alice:rel/x?cmd=release"),
		rc("POST /source/<project>/<package>?cmd=unlock", "/source/home:alice/locked?cmd=unlock&comment=done"),
		// The channel commands, in the order they need each other: a channel imported, a
		// project holding a branch of what it lists, its channels added, modified, enabled.
		rcb("POST /source/<project>/<package>?cmd=importchannel", "/source/home:alice:chan/Pocket-Tools?cmd=importchannel", covChannel),
		rc("POST /source/<project>/<package>?cmd=branch", cli+"?cmd=branch&target_project=home:alice:inc"),
		rc("POST /source/<project>?cmd=addchannels", "/source/home:alice:inc?cmd=addchannels"),
		rc("POST /source/<project>?cmd=modifychannels", "/source/home:alice:inc?cmd=modifychannels&mode=enable_all"),
		rc("POST /source/<project>/<package>?cmd=enablechannel", "/source/home:alice:inc/Pocket-Tools?cmd=enablechannel"),
		rc("POST /source/<project>/<package>?cmd=set_flag", "/source/devel:tools/forge-utils?cmd=set_flag&flag=debuginfo&status=enable"),
		rc("POST /source/<project>/<package>?cmd=remove_flag", "/source/devel:tools/forge-utils?cmd=remove_flag&flag=debuginfo"),
		rc("POST /source/<project>/<package>?cmd=createSpecFileTemplate", "/source/home:alice/scratch?cmd=createSpecFileTemplate"),
		rc("POST /source/<project>/<package>?cmd=commit", "/source/home:alice/up?cmd=commit&rev=upload&comment=uploaded"),
		rcb("POST /source/<project>/<package>?cmd=commitfilelist", "/source/home:alice/cfl?cmd=commitfilelist",
			`<directory><entry name="a.txt" md5="`+buildstore.MD5Hex([]byte("a\n"))+`"/></directory>`),
		rc("POST /source/<project>/<package>?cmd=collectbuildenv", "/source/home:alice/scratch?cmd=collectbuildenv&oproject=devel:tools&opackage=pocket-cli"),
		rc("POST /source/<project>/<package>?cmd=deleteuploadrev", "/source/home:alice/up2?cmd=deleteuploadrev"),
		rc("POST /source/<project>/<package>?cmd=copy", "/source/home:alice/cli-copy?cmd=copy&oproject=devel:tools&opackage=pocket-cli"),
		rc("POST /source/<project>/<package>?cmd=undelete", "/source/home:alice/gonepkg?cmd=undelete"),
		rc("POST /source/<project>/<package>?cmd=linktobranch", "/source/home:alice/l?cmd=linktobranch"),
		rc("POST /source/<project>/<package>?cmd=updatepatchinfo", "/source/Maint:0/patchinfo?cmd=updatepatchinfo"),
		rc("POST /source/<project>/<package>?cmd=rebuild", cli+"?cmd=rebuild&repository=standard&arch=x86_64"),
		rc("POST /source/<project>/<package>?cmd=wipe", "/source/devel:tools/forge-changelog?cmd=wipe"),
		rc("POST /source/<project>/<package>?cmd=getprojectservices", cli+"?cmd=getprojectservices"),
		rc("POST /source/<project>/<package>?cmd=runservice", "/source/home:alice/svc?cmd=runservice"),
		rc("POST /source/<project>/<package>?cmd=waitservice", "/source/home:alice/svc?cmd=waitservice"),
		rc("POST /source/<project>/<package>?cmd=mergeservice", "/source/home:alice/svc?cmd=mergeservice"),

		// Requests.
		rc("GET /request?view=collection", "/request?view=collection&user=bob&states=accepted,declined"),
		rc("GET /request/<id>", "/request/1?withhistory=1"),
		rcb("POST /request?cmd=create", "/request?cmd=create", strings.ReplaceAll(covSubmit, "%s", "forge-utils from alice's branch")).
			keeping("rid", `<request id="(\d+)"`),
		rcb("POST /request?cmd=create&addrevision", "/request?cmd=create&addrevision=1", covIncident).keeping("incident", `<request id="(\d+)"`),
		rcb("PUT /request/<id>", "/request/{rid}", strings.ReplaceAll(covSubmit, "%s", "forge-utils, described again")),
		rc("POST /request/<id>?cmd=diff", "/request/{rid}?cmd=diff"),
		rc("POST /request/<id>?cmd=addreview", "/request/{rid}?cmd=addreview&by_group=pocket-reviewers"),
		rc("POST /request/<id>?cmd=assignreview", "/request/{rid}?cmd=assignreview&by_group=pocket-reviewers&reviewer=carol"),
		rc("POST /request/<id>?cmd=changereviewstate", "/request/{rid}?cmd=changereviewstate&by_user=carol&newstate=accepted"),
		rc("POST /request/<id>?cmd=setpriority", "/request/{rid}?cmd=setpriority&priority=important"),
		rc("POST /request/<id>?cmd=setincident", "/request/{incident}?cmd=setincident&incident=0"),
		rc("POST /request/<id>?cmd=setacceptat", "/request/{rid}?cmd=setacceptat"),
		rc("POST /request/<id>?cmd=changestate", "/request/{rid}?cmd=changestate&newstate=revoked&comment=covered"),

		// Attribute definitions and comments; the namespace and definition made before they
		// are deleted, the comment posted before it is listed (its id kept) and deleted.
		rc("GET /attribute/", "/attribute/"),
		rc("GET /attribute/<namespace>/", "/attribute/OBS/"),
		rc("GET /attribute/<namespace>/_meta", "/attribute/OBS/_meta"),
		rcb("PUT /attribute/<namespace>/_meta", "/attribute/Cov/_meta", `<namespace name="Cov"/>`),
		rc("GET /attribute/<namespace>/<name>/_meta", "/attribute/OBS/Maintained/_meta"),
		rcb("PUT /attribute/<namespace>/<name>/_meta", "/attribute/Cov/Thing/_meta", `<definition namespace="Cov" name="Thing"/>`),
		rc("DELETE /attribute/<namespace>/<name>/_meta", "/attribute/Cov/Thing/_meta"),
		rc("DELETE /attribute/<namespace>/_meta", "/attribute/Cov/_meta"),
		rcb("POST /comments/package/<project>/<package>", "/comments/package/devel:tools/pocket-cli", "Route coverage note."),
		rc("GET /comments/package/<project>/<package>", "/comments/package/devel:tools/pocket-cli").
			keeping("comment", `id="(\d+)"[^>]*>Route coverage note.`),
		rc("DELETE /comment/<id>", "/comment/{comment}"),

		// Build results and control; the binary's and the published binary's names kept from
		// their listings.
		rc("GET /build/", "/build/"),
		rc("GET /build/_workerstatus", "/build/_workerstatus"),
		rc("GET /build/<project>", "/build/devel:tools"),
		rc("GET /build/<project>/<repository>", "/build/devel:tools/standard"),
		rc("GET /build/<project>/<repository>/<arch>", bld),
		rc("GET /build/<project>/<repository>/<arch>/<package>", bcli).keeping("rpm", `filename="(pocket-cli-[^"]*\.x86_64\.rpm)"`),
		rc("GET /build/<project>/<repository>/<arch>/<package>/<binaryname>", bcli+"/{rpm}"),
		rc("GET /build/<project>/<repository>/<arch>/<package>/<binaryname>?view=fileinfo", bcli+"/{rpm}?view=fileinfo"),
		rc("GET /build/<project>/<repository>/<arch>/<package>/<binaryname>?view=fileinfo_ext", bcli+"/{rpm}?view=fileinfo_ext"),
		rc("POST /build/<project>/<repository>/<arch>/_builddepinfo", bld+"/_builddepinfo?package=pocket-cli"),
		rc("POST /build/<project>/<repository>/<arch>/_builddepinfo?view=pkgnames", bld+"/_builddepinfo?package=pocket-cli&view=pkgnames"),
		rc("POST /build/<project>/<repository>/<arch>/_builddepinfo?view=revpkgnames", bld+"/_builddepinfo?package=pocket-cli&view=revpkgnames"),
		rc("POST /build/<project>/<repository>/<arch>/_builddepinfo?view=order", bld+"/_builddepinfo?view=order"),
		rc("GET /build/<project>/<repository>/<arch>/_builddepinfo", bld+"/_builddepinfo"),
		rc("GET /build/<project>/<repository>/<arch>/_jobhistory", bld+"/_jobhistory?package=pocket-cli&limit=5"),
		rc("GET /build/<project>/<repository>/<arch>/_repository", "/build/Pocket:1.0/standard/x86_64/_repository"),
		rc("POST /build/<project>/<repository>/<arch>/_repository", "/build/Pocket:1.0/standard/x86_64/_repository?match="+url.QueryEscape("starts-with(name,'bash')")),
		rcb("PUT /build/<project>/<repository>/<arch>/_repository/<file>", "/build/home:alice/standard/x86_64/_repository/covtool.rpm", rpm),
		rc("GET /build/<project>/<repository>/<arch>/_repository/<binaryname>", "/build/Pocket:1.0/standard/x86_64/_repository/bash.rpm"),
		rc("GET /build/<project>/_result", "/build/devel:tools/_result"),
		rc("GET /build/<project>/_result?view=summary", "/build/devel:tools/_result?view=summary"),
		rc("GET /build/<project>/_result?view=status", "/build/devel:tools/_result?view=status&package=pocket-cli"),
		rc("GET /build/<project>/_result?view=binarylist", "/build/devel:tools/_result?view=binarylist&repository=standard&arch=x86_64"),
		rc("GET /build/<project>/<repository>/<arch>/<package>/_history", bcli+"/_history"),
		rc("GET /build/<project>/<repository>/<arch>/<package>/_reason", bcli+"/_reason"),
		rc("GET /build/<project>/<repository>/<arch>/<package>/_jobstatus", bcli+"/_jobstatus"),
		rc("GET /build/<project>/<repository>/<arch>/<package>/_status", bcli+"/_status"),
		rc("GET /build/<project>/<repository>/<arch>/<package>/_log", bcli+"/_log?nostream=1"),
		rc("GET /build/<project>/<repository>/<arch>/<package>/_log?view=entry", bcli+"/_log?view=entry"),
		rc("POST /build/<project>?cmd=rebuild", "/build/devel:tools?cmd=rebuild&package=pocket-cli&repository=standard&arch=x86_64"),
		rc("POST /build/<project>?cmd=abortbuild", "/build/devel:tools?cmd=abortbuild&package=pocket-cli"),
		rc("POST /build/<project>?cmd=restartbuild", "/build/devel:tools?cmd=restartbuild&package=pocket-cli"),
		rc("POST /build/<project>?cmd=wipe", "/build/devel:tools?cmd=wipe&package=pocket-lint"),
		rc("GET /build/<project>/<repository>/<arch>/<package>/_buildinfo", bcli+"/_buildinfo"),
		rcb("POST /build/<project>/<repository>/<arch>/<package>/_buildinfo", bld+"/_repository/_buildinfo", spec),
		rc("GET /build/<project>/<repository>/_buildconfig", "/build/devel:tools/standard/_buildconfig"),
		rc("POST /trigger/runservice", "/trigger/runservice?project=home:alice&package=svc2").as(map[string]string{"Authorization": "Token {trigger}"}),

		// Search.
		rc("GET /search/project", searchFor("/search/project", "@name='devel:tools'")),
		rc("GET /search/project/id", searchFor("/search/project/id", "starts-with(@name,'devel:')")),
		rc("GET /search/package", searchFor("/search/package", "@project='devel:tools'")),
		rc("GET /search/package/id", searchFor("/search/package/id", "@name='pocket-cli'")),
		rc("GET /search/published/binary/id", searchFor("/search/published/binary/id", "@name='pocket-cli'")),
		rc("GET /search/published/pattern/id", searchFor("/search/published/pattern/id", "@project='Pocket:1.0'")),
		rc("GET /search/channel/binary", searchFor("/search/channel/binary", "@name='pocket-cli'")),
		rc("GET /search/channel/binary/id", searchFor("/search/channel/binary/id", "@name='pocket-cli'")),
		rc("GET /search/released/binary", searchFor("/search/released/binary", "@name='x'")),
		rc("GET /search/released/binary/id", searchFor("/search/released/binary/id", "@name='x'")),
		rc("GET /search/request", searchFor("/search/request", "state/@name='declined'")),
		rc("GET /search/issue", searchFor("/search/issue", "@tracker='pocket'")),
		rc("GET /search/owner", "/search/owner?binary=pocket-cli"),
		rc("GET /search/missing_owner", "/search/missing_owner?project=devel:tools"),

		// Published tree; the binary's name kept from the listing.
		rc("GET /published", "/published"),
		rc("GET /published/<project>", "/published/devel:tools"),
		rc("GET /published/<project>/<repository>", "/published/devel:tools/standard"),
		rc("GET /published/<project>/<repository>/<arch>", "/published/devel:tools/standard/x86_64").
			keeping("published", `name="(pocket-cli-[^"]*\.x86_64\.rpm)"`),
		rc("GET /published/<project>/<repository>/<arch>/<binary>", "/published/devel:tools/standard/x86_64/{published}"),
		rc("GET /published/<project>/<repository>/<arch>/<binary>?view=ymp", "/published/devel:tools/standard/x86_64/{published}?view=ymp"),

		// Tags.
		rc("GET /source/<project>/_tags", "/source/devel:tools/_tags"),
		rc("GET /source/<project>/<package>/_tags", cli+"/_tags"),
		rc("GET /tag/<tag>/_projects", "/tag/pocket::devtools/_projects"),
		rc("GET /tag/<tag>/_packages", "/tag/cli/_packages"),
		rc("GET /tag/<tag>/_all", "/tag/pocket/_all"),
		rc("GET /user/<user>/tags/_projects", "/user/alice/tags/_projects"),
		rc("GET /user/<user>/tags/_packages", "/user/alice/tags/_packages"),
		rc("GET /user/<user>/tags/_tagcloud", "/user/alice/tags/_tagcloud?distribution=raw"),
		rc("GET /tag/_tagcloud", "/tag/_tagcloud?distribution=linear&steps=10&limit=0"),
		rc("GET /user/<user>/tags/<project>", "/user/alice/tags/devel:tools"),
		rcb("PUT /user/<user>/tags/<project>", "/user/Admin/tags/devel:tools", `<tags><tag name="covered"/></tags>`),
		rc("GET /user/<user>/tags/<project>/<package>", "/user/bob/tags/devel:tools/pocket-cli"),
		rcb("PUT /user/<user>/tags/<project>/<package>", "/user/Admin/tags/devel:tools/pocket-cli", `<tags><tag name="covered"/></tags>`),

		// Legacy build results.
		rc("GET /result/<project>/<platform>/result", "/result/devel:tools/standard/result"),
		rc("GET /result/<project>/<platform>/<package>/result", "/result/devel:tools/standard/pocket-cli/result"),
		rc("GET /result/<project>/<platform>/<package>/<arch>/log", "/result/devel:tools/standard/pocket-cli/x86_64/log"),

		// Statistics.
		rc("GET /statistics/latest_added", "/statistics/latest_added?limit=5"),
		rc("GET /statistics/added_timestamp/<project>/<package>", "/statistics/added_timestamp/devel:tools/pocket-cli"),
		rc("GET /statistics/latest_updated", "/statistics/latest_updated?limit=5"),
		rc("GET /statistics/updated_timestamp/<project>/<package>", "/statistics/updated_timestamp/devel:tools/pocket-cli"),
		rc("GET /statistics/activity/<project>/<package>", "/statistics/activity/devel:tools/pocket-cli"),
		rc("GET /statistics/most_active", "/statistics/most_active?type=packages&limit=5"),
		rc("GET /statistics/highest_rated", "/statistics/highest_rated?limit=5"),
		rc("GET /statistics/rating/<project>/<package>", "/statistics/rating/devel:tools/pocket-cli"),
		rcb("PUT /statistics/rating/<project>/<package>", "/statistics/rating/devel:tools/pocket-cli", "<rating>5</rating>"),
		rc("GET /statistics/download_counter (limit)", "/statistics/download_counter?limit=5"),
		rc("GET /statistics/download_counter (group_by)", "/statistics/download_counter?group_by=project&limit=5"),
		rcb("PUT /statistics/redirect_stats", "/statistics/redirect_stats", covRedirect),
		rc("GET /statistics/newest_stats", "/statistics/newest_stats"),

		// Status messages and messages.
		rc("GET /status_message/", "/status_message/?limit=5"),
		rcb("PUT /status_message/", "/status_message/", `<message severity="1">Route coverage.</message>`),
		rc("GET /message/<id>", "/message/1"),
		rc("GET /message/ (limit)", "/message/?limit=5"),
		rc("GET /message/ (project)", "/message/?project=devel:tools"),
		rc("GET /message/ (project, package)", "/message/?project=devel:tools&package=pocket-cli"),
		rcb("PUT /message/", "/message/?project=devel:tools&package=pocket-cli", covMessage),
	}
}

// TestRouteCoverageVerdicts: what TestSeedRouteCoverage counts as not implemented, and what as
// the domain's own answer.
func TestRouteCoverageVerdicts(t *testing.T) {
	st := func(status int, code, summary string) apitest.Response {
		return apitest.Response{Status: status, Body: string(renderStatus(code, summary))}
	}
	for _, c := range []struct {
		name string
		got  apitest.Response
		gap  bool
	}{
		{"200", apitest.Response{Status: 200, Body: "<directory/>"}, false},
		{"an unknown project command", st(400, "illegal_request", "unsupported POST command frob to /source/P"), true},
		{"a command that needs the farm", st(400, "illegal_request",
			"cmd=move moves a project: it needs the build farm, which this appliance does not run yet"), true},
		{"an unknown person command", st(400, "unknown_command", "unknown command 'fly' for a person (change_password, lock, delete)"), true},
		{"an unknown view", st(400, "400", "unknown view 'nope' (info, cpio, issues or products)"), true},
		{"an unsupported view", st(400, "400", "unsupported view 'cpio'"), true},
		{"no route", st(404, "not_found", "Not found: /statistics/nope"), true},
		{"no route for the method", st(405, "method_not_allowed", "Method Not Allowed"), true},
		{"a server error", st(500, "internal_error", "Internal Server Error"), true},
		{"credentials refused", st(401, "authentication_required", "Authentication required"), true},
		{"a 404 that is no status document", apitest.Response{Status: 404, Body: "Cannot GET /x"}, true},
		{"an absent object", st(404, "unknown_package", "Package not found: devel:tools/nope"), false},
		{"an absent message", st(404, "not_found", "Couldn't find Message with 'id'=17"), false},
		{"a permission", st(403, "cmd_execution_no_permission", "no permission"), false},
		{"a missing parameter", st(400, "missing_parameter", "changestate needs the parameter newstate"), false},
	} {
		if gap := unimplemented(c.got) != ""; gap != c.gap {
			t.Errorf("%s: counted as a gap %v, want %v", c.name, gap, c.gap)
		}
	}
}
