package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// Scenarios of the instance documents: configuration, distributions, issue trackers. Writes
// are Admin's; a packager reads.

// has200 is a 200 whose body contains every string.
func has200(contains ...string) apitest.Expect {
	return apitest.Expect{Status: 200, Contains: contains}
}

func TestConfiguration(t *testing.T) {
	e := newEnv(t)
	admin, alice := basic("Admin", adminPassword), basic("alice", "alice-password")
	doc := `<configuration><title>Forge</title><description>Mine</description><name>other</name><schedulers><arch>x86_64</arch><arch>riscv64</arch></schedulers></configuration>`
	e.run(t, []scenario{
		{"default: the demo architectures", areq("GET", "/configuration", "", alice), has200("<configuration>",
			"<title>pocketforge build service</title>", "<name>pocketforge</name>", "<schedulers>\n    <arch>x86_64</arch>\n    <arch>aarch64</arch>\n  </schedulers>")},
		{"anonymous", areq("GET", "/configuration", "", nil), noAuth},
		{"packager may not write", areq("PUT", "/configuration", doc, alice), forbid},
		{"anonymous write", areq("PUT", "/configuration", doc, nil), noAuth},
		{"empty", areq("PUT", "/configuration", "", admin), apitest.Expect{Status: 400, Contains: []string{`code="validation_failed"`}}},
		{"not XML", areq("PUT", "/configuration", "<configuration>", admin), bad},
		{"wrong root", areq("PUT", "/configuration", "<about/>", admin), bad},
		{"unknown arch", areq("PUT", "/configuration", `<configuration><schedulers><arch>z80</arch></schedulers></configuration>`, admin),
			apitest.Expect{Status: 400, Contains: []string{`code="validation_failed"`, "z80"}}},
		{"repeated arch", areq("PUT", "/configuration", `<configuration><schedulers><arch>x86_64</arch><arch>x86_64</arch></schedulers></configuration>`, admin), bad},
		{"Admin writes", areq("PUT", "/configuration", doc, admin), has200(`<status code="ok">`)},
		{"written; the name stays", areq("GET", "/configuration", "", alice), has200("<title>Forge</title>", "<description>Mine</description>",
			"<name>pocketforge</name>", "<arch>riscv64</arch>")},
		{"without schedulers keeps them", areq("PUT", "/configuration", `<configuration><title>T</title></configuration>`, admin), has200()},
		{"kept", areq("GET", "/configuration", "", alice), has200("<title>T</title>", "<arch>riscv64</arch>")},
	})
}

func TestDistributions(t *testing.T) {
	e := newEnv(t)
	admin, alice := basic("Admin", adminPassword), basic("alice", "alice-password")
	pocket := `<distribution id="pocket-1.0" vendor="pocketforge" version="1.0"><name>Pocket 1.0 LTS</name><project>Pocket:1.0</project><reponame>Pocket_1.0</reponame><repository>standard</repository><architecture>x86_64</architecture></distribution>`
	elsewhere := `<distribution id="pocket-1.0"><name>P</name><project>Nowhere:1</project><repository>standard</repository></distribution>`
	list := `<distributions><distribution id="a"><name>A</name><project>Pocket:1.0</project><repository>standard</repository></distribution>` +
		`<distribution id="remote"><name>R</name><project>Remote:1</project><repository>standard</repository><icon url="https://x.test/r.png"/></distribution></distributions>`
	e.run(t, []scenario{
		{"list", areq("GET", "/distributions", "", alice), has200(`<distribution id="pocket-1.0" vendor="pocketforge" version="1.0">`,
			"<name>Pocket 1.0</name>", "<project>Pocket:1.0</project>", "<repository>standard</repository>", "<reponame>Pocket_1.0</reponame>",
			`<icon url="https://pocketforge.test/static/pocket16.png" width="16" height="16"></icon>`,
			"<architecture>x86_64</architecture>\n    <architecture>aarch64</architecture>")},
		{"include_remotes: the same list", areq("GET", "/distributions/include_remotes", "", alice), has200(`<distribution id="pocket-1.0"`)},
		{"one", areq("GET", "/distributions/pocket-1.0", "", alice), has200(`<distribution id="pocket-1.0"`, "<link>https://pocketforge.test/</link>")},
		{"unknown", areq("GET", "/distributions/nope", "", alice), missing},
		{"anonymous", areq("GET", "/distributions", "", nil), noAuth},
		{"packager may not modify", areq("POST", "/distributions/pocket-1.0", pocket, alice), forbid},
		{"packager may not replace", areq("PUT", "/distributions", list, alice), forbid},
		{"modify unknown", areq("POST", "/distributions/nope", `<distribution><name>N</name><project>Pocket:1.0</project><repository>standard</repository></distribution>`, admin), missing},
		{"not hosted here", areq("POST", "/distributions/pocket-1.0", elsewhere, admin), apitest.Expect{Status: 400, Contains: []string{"not hosted on this instance"}}},
		{"id mismatch", areq("POST", "/distributions/pocket-1.0", `<distribution id="x"><name>N</name><project>Pocket:1.0</project><repository>standard</repository></distribution>`, admin), bad},
		{"missing fields", areq("POST", "/distributions/pocket-1.0", `<distribution id="pocket-1.0"/>`, admin), bad},
		{"unknown arch", areq("POST", "/distributions/pocket-1.0", `<distribution><name>N</name><project>Pocket:1.0</project><repository>standard</repository><architecture>z80</architecture></distribution>`, admin), bad},
		{"broken body", areq("POST", "/distributions/pocket-1.0", "<distribution", admin), bad},
		{"Admin modifies", areq("POST", "/distributions/pocket-1.0", pocket, admin), has200(`<status code="ok">`)},
		{"modified", areq("GET", "/distributions/pocket-1.0", "", alice), has200("<name>Pocket 1.0 LTS</name>")},
		{"repeated ids", areq("PUT", "/distributions", `<distributions><distribution id="a"><name>A</name><project>P</project><repository>r</repository></distribution><distribution id="a"><name>A</name><project>P</project><repository>r</repository></distribution></distributions>`, admin), bad},
		{"wrong root", areq("PUT", "/distributions", pocket, admin), bad},
		{"Admin replaces", areq("PUT", "/distributions", list, admin), has200()},
		{"replaced", areq("GET", "/distributions", "", alice), apitest.Expect{Status: 200, Contains: []string{`<distribution id="a"`, `<distribution id="remote"`}, Excludes: []string{"pocket-1.0"}}},
		{"emptied", areq("PUT", "/distributions", "<distributions/>", admin), has200()},
		{"empty list", areq("GET", "/distributions", "", alice), apitest.Expect{Status: 200, Exact: "<distributions></distributions>\n"}},
	})
}

func TestIssueTrackers(t *testing.T) {
	e := newEnv(t)
	admin, alice := basic("Admin", adminPassword), basic("alice", "alice-password")
	tracker := `<issue-tracker><name>bnc</name><kind>bugzilla</kind><description>Novell Bugzilla</description><url>https://bugzilla.novell.com/</url>` +
		`<show-url>https://bugzilla.novell.com/show_bug.cgi?id=@@@</show-url><regex>bnc#(\d+)</regex><label>bnc#@@@</label><enable-fetch>true</enable-fetch></issue-tracker>`
	url := func(issue string) apitest.Request {
		return areq("GET", "/issue_trackers/show_url_for?issue="+issue, "", alice)
	}
	e.run(t, []scenario{
		{"list", areq("GET", "/issue_trackers", "", alice), has200("<issue-trackers>", "<name>gh</name>", "<name>pocket</name>", "<kind>other</kind>",
			"<show-url>https://issues.pocketforge.test/@@@</show-url>", `<regex>pocket#(\d+)</regex>`, "<label>pocket#@@@</label>", "<enable-fetch>false</enable-fetch>")},
		{"one", areq("GET", "/issue_trackers/pocket", "", alice), has200("<issue-tracker>", "<url>https://issues.pocketforge.test/</url>")},
		{"unknown", areq("GET", "/issue_trackers/nope", "", alice), missing},
		{"anonymous", areq("GET", "/issue_trackers", "", nil), noAuth},
		{"show_url_for", url("pocket%23123"), apitest.Expect{Status: 200, Exact: "https://issues.pocketforge.test/123",
			Header: map[string]string{"Content-Type": "text/plain; charset=utf-8"}}},
		{"GitHub-style", url("gh%23pocketforge/pocketforge%2312"), apitest.Expect{Status: 200, Exact: "https://github.com/pocketforge/pocketforge/issues/12"}},
		{"no tracker matches", url("zzz%231"), apitest.Expect{Status: 404, Contains: []string{`code="issue_tracker_not_found"`}}},
		{"only a prefix matches", url("pocket%23123x"), missing},
		{"no issue", url(""), bad},
		{"packager may not create", areq("POST", "/issue_tracker/bnc", tracker, alice), forbid},
		{"packager may not delete", areq("DELETE", "/issue_tracker/pocket", "", alice), forbid},
		{"anonymous delete", areq("DELETE", "/issue_tracker/pocket", "", nil), noAuth},
		{"name mismatch", areq("PUT", "/issue_tracker/other", tracker, admin), bad},
		{"bad kind", areq("PUT", "/issue_tracker/x", `<issue-tracker><kind>paper</kind><url>u</url><show-url>@@@</show-url><regex>x</regex></issue-tracker>`, admin), bad},
		{"bad regex", areq("PUT", "/issue_tracker/x", `<issue-tracker><kind>other</kind><url>u</url><show-url>@@@</show-url><regex>(</regex></issue-tracker>`, admin), bad},
		{"show-url without @@@", areq("PUT", "/issue_tracker/x", `<issue-tracker><kind>other</kind><url>u</url><show-url>u</show-url><regex>x</regex></issue-tracker>`, admin), bad},
		{"empty", areq("PUT", "/issue_tracker/x", "", admin), bad},
		{"Admin creates", areq("POST", "/issue_tracker/bnc", tracker, admin), has200(`<status code="ok">`)},
		{"created", areq("GET", "/issue_trackers/bnc", "", alice), has200("<kind>bugzilla</kind>", "<enable-fetch>true</enable-fetch>")},
		{"its issues resolve", url("bnc%2342"), apitest.Expect{Status: 200, Exact: "https://bugzilla.novell.com/show_bug.cgi?id=42"}},
		{"Admin updates", areq("PUT", "/issue_tracker/bnc", tracker[:len(tracker)-len("</issue-tracker>")]+"</issue-tracker>", admin), has200()},
		{"Admin deletes", areq("DELETE", "/issue_tracker/bnc", "", admin), has200()},
		{"deleted", areq("GET", "/issue_trackers/bnc", "", alice), missing},
		{"delete again", areq("DELETE", "/issue_tracker/bnc", "", admin), missing},
		{"no longer resolves", url("bnc%2342"), missing},
	})
}
