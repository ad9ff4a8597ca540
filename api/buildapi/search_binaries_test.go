package buildapi

import (
	"fmt"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// withForm is the headers of h for a POST whose body is a form.
func withForm(h map[string]string) map[string]string {
	return map[string]string{"Authorization": h["Authorization"], "Content-Type": "application/x-www-form-urlencoded"}
}

var sprintf = fmt.Sprintf

// TestSearchPublishedBinary: /search/published/binary/id over what the farm built and
// published in the bin world: the queries osc 0.169.1 sends for `search --binary` (exact,
// -s, --binaryversion, --baseproject), OBS's other keys, paging, GET and POST, read
// protection and the refusals.
func TestSearchPublishedBinary(t *testing.T) {
	w := newBinWorld(t)
	r := "/search/published/binary/id"
	helloX86 := `<binary name="hello" project="binworld" package="hello" repository="standard" version="1.0" release="1.1" arch="x86_64" ` +
		`filename="hello-1.0-1.1.x86_64.rpm" filepath="binworld/standard/x86_64/hello-1.0-1.1.x86_64.rpm" baseproject="binworld" type="rpm"></binary>`
	helloSrc := `<binary name="hello" project="binworld" package="hello" repository="standard" version="1.0" release="1.1" arch="src" ` +
		`filename="hello-1.0-1.1.src.rpm" filepath="binworld/standard/src/hello-1.0-1.1.src.rpm" baseproject="binworld" type="rpm"></binary>`
	both := apitest.Expect{Status: 200, Exact: `<collection matches="2">` + "\n  " + helloSrc + "\n  " + helloX86 + "\n</collection>\n"}
	none := apitest.Expect{Status: 200, Exact: "<collection matches=\"0\"></collection>\n"}
	w.run(t, []scenario{
		{"osc search --binary hello", req("GET", searchURL(r, `@name = 'hello'`, ""), asBob, ""), both},
		{"osc bse -s ELL", req("GET", searchURL(r, `contains(@name, 'ELL') and @project='binworld'`, ""), asBob, ""), both},
		{"--binaryversion 1.0-1.1", req("GET", searchURL(r, `@name = 'hello' and @versrel='1.0-1.1'`, ""), asBob, ""), both},
		{"--binaryversion 1.0", req("GET", searchURL(r, `@name = 'hello' and @version='1.0'`, ""), asBob, ""), both},
		{"--baseproject", req("GET", searchURL(r, `@name = 'hello' and path/@project='binworld'`, ""), asBob, ""), both},
		{"another base project", req("GET", searchURL(r, `@name = 'hello' and path/@project='Pocket:1.0'`, ""), asBob, ""), none},
		{"one arch", req("GET", searchURL(r, `@name='hello' and @arch='x86_64'`, ""), asBob, ""),
			apitest.Expect{Status: 200, Exact: `<collection matches="1">` + "\n  " + helloX86 + "\n</collection>\n"}},
		{"by package and repository", req("GET", searchURL(r, `@package='libfoo' and @repository='standard' and @project='binworld'`, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="2">`, `filename="libfoo-1.0-1.1.x86_64.rpm"`, `filename="libfoo-1.0-1.1.src.rpm"`}}},
		{"by file name", req("GET", searchURL(r, `@filename='hello-1.0-1.1.src.rpm'`, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="1">`, `arch="src"`}}},
		{"a version not built", req("GET", searchURL(r, `@name='hello' and @version='2.0'`, ""), asBob, ""), none},
		{"not published: unresolvable", req("GET", searchURL(r, `@name='lost'`, ""), asBob, ""), none},
		{"POST with a form", apitest.Request{Method: "POST", Path: r, Header: withForm(asBob), Body: "match=" + `%40name%3D%27hello%27`}, both},
		{"paged", req("GET", searchURL(r, `@name='hello'`, "limit=1&offset=1"), asBob, ""),
			apitest.Expect{Status: 200, Exact: `<collection matches="2">` + "\n  " + helloX86 + "\n</collection>\n"}},
		{"a hidden project's binaries are left out", req("GET", searchURL(r, `@name='secret'`, ""), asBob, ""), none},
		{"and found by its maintainer", req("GET", searchURL(r, `@name='secret'`, ""), asAlice, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="2">`, `project="binworld:hidden"`, `filepath="binworld:/hidden/standard/x86_64/secret-1.0-1.1.x86_64.rpm"`}}},
		{"an empty match is every binary", req("GET", r+"?match=", asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{helloX86, helloSrc}, Excludes: []string{"secret"}}},
		{"an unknown key", req("GET", searchURL(r, `@foo='x'`, ""), asBob, ""),
			code(400, "illegal_xpath_error", "unable to evaluate '@foo' for 'published_binaries'")},
		{"a syntax error", req("GET", searchURL(r, `@name='hello`, ""), asBob, ""), code(400, "illegal_xpath_error")},
		{"no full route", req("GET", searchURL("/search/published/binary", `@name='hello'`, ""), asBob, ""), apitest.Expect{Status: 404}},
		{"without credentials", req("GET", searchURL(r, `@name='hello'`, ""), nil, ""), apitest.Expect{Status: 401}},
	})
}

// TestSearchPublishedPattern: a project's patterns, per published repository.
func TestSearchPublishedPattern(t *testing.T) {
	w := newBinWorld(t)
	r := "/search/published/pattern/id"
	pattern := `<pattern xmlns="http://novell.com/package/metadata/suse/pattern"><name>devtools</name><summary>Developer tools</summary><description>Compilers</description></pattern>`
	w.run(t, []scenario{
		{"a pattern", req("PUT", "/source/binworld/_pattern/devtools.xml", asAlice, pattern), ok},
		{"a hidden project's", req("PUT", "/source/binworld:hidden/_pattern/secrets.xml", asAlice, `<pattern><name>secrets</name></pattern>`), ok},
		{"by name", req("GET", searchURL(r, `@name='devtools'`, ""), asBob, ""), apitest.Expect{Status: 200, Exact: `<collection matches="1">` + "\n  " +
			`<pattern name="devtools" project="binworld" repository="standard" filename="devtools.xml" baseproject="binworld"></pattern>` + "\n</collection>\n"}},
		{"by summary", req("GET", searchURL(r, `contains(summary, 'DEVELOPER')`, ""), asBob, ""), want(200, `<collection matches="1">`, `name="devtools"`)},
		{"hidden", req("GET", searchURL(r, `@name='secrets'`, ""), asBob, ""), want(200, `<collection matches="0">`)},
		{"hidden, for alice", req("GET", searchURL(r, `@name='secrets'`, ""), asAlice, ""), want(200, `<collection matches="1">`, `project="binworld:hidden"`)},
		{"everything", req("GET", r, asBob, ""), apitest.Expect{Status: 200, Contains: []string{`name="devtools"`}, Excludes: []string{"secrets"}}},
		{"an unknown key", req("GET", searchURL(r, `@version='1'`, ""), asBob, ""),
			code(400, "illegal_xpath_error", "unable to evaluate '@version' for 'published_patterns'")},
	})
}

// testChannelFile is a channel listing two binaries of binworld, with a disabled target.
const testChannelFile = `<channel>
  <target project="binworld" repository="standard"><disabled/></target>
  <binaries project="binworld" repository="standard" arch="x86_64">
    <binary name="hello" package="hello" supportstatus="l3"/>
    <binary name="libfoo" package="libfoo" binaryarch="x86_64"/>
  </binaries>
</channel>`

// TestSearchChannelBinary: /search/channel/binary[/id] over the channels of visible projects.
func TestSearchChannelBinary(t *testing.T) {
	w := newBinWorld(t)
	r := "/search/channel/binary"
	w.run(t, []scenario{
		{"a channel package", req("PUT", "/source/binworld/chan/_meta", asAlice, `<package name="chan" project="binworld"><title/><description/></package>`), ok},
		{"its channel", req("PUT", "/source/binworld/chan/_channel", asAlice, testChannelFile), ok200},
		{"a hidden channel", req("PUT", "/source/binworld:hidden/hchan/_meta", asAlice, `<package name="hchan" project="binworld:hidden"><title/><description/></package>`), ok},
		{"its channel", req("PUT", "/source/binworld:hidden/hchan/_channel", asAlice,
			`<channel><binaries project="binworld:hidden"><binary name="secret" package="secret"/></binaries></channel>`), ok200},
		{"by name", req("GET", searchURL(r, `@name='hello'`, ""), asBob, ""), apitest.Expect{Status: 200, Exact: `<collection matches="1">` + "\n" +
			`  <channel project="binworld" package="chan">` + "\n" +
			`    <binary package="hello" name="hello" supportstatus="l3"></binary>` + "\n" +
			`    <target project="binworld" repository="standard">` + "\n" + `      <disabled></disabled>` + "\n" + `    </target>` + "\n" +
			"  </channel>\n</collection>\n"}},
		{"the /id form", req("GET", searchURL(r+"/id", `@name='hello'`, ""), asBob, ""), apitest.Expect{Status: 200, Exact: `<collection matches="1">` + "\n" +
			`  <channel project="binworld" package="chan">` + "\n" + `    <binary package="hello" name="hello" supportstatus="l3"></binary>` + "\n" +
			"  </channel>\n</collection>\n"}},
		{"by the channel's project and binaryarch", req("GET", searchURL(r+"/id", `@project='binworld' and @binaryarch='x86_64'`, ""), asBob, ""),
			want(200, `<collection matches="1">`, `name="libfoo"`)},
		{"by the binary's package", req("GET", searchURL(r+"/id", `@package='libfoo'`, ""), asBob, ""), want(200, `<collection matches="1">`)},
		{"by support status", req("GET", searchURL(r+"/id", `starts-with(@supportstatus, 'L')`, ""), asBob, ""), want(200, `<collection matches="1">`, `name="hello"`)},
		{"disabled targets", req("GET", searchURL(r+"/id", `target/disabled`, ""), asBob, ""), want(200, `<collection matches="2">`)},
		{"enabled targets", req("GET", searchURL(r+"/id", `not(target/disabled)`, ""), asBob, ""), want(200, `<collection matches="0">`)},
		{"no products here", req("GET", searchURL(r+"/id", `updatefor/@project='binworld'`, ""), asBob, ""), want(200, `<collection matches="0">`)},
		{"a hidden channel is left out", req("GET", searchURL(r+"/id", `@name='secret'`, ""), asBob, ""), want(200, `<collection matches="0">`)},
		{"and found by its maintainer", req("GET", searchURL(r+"/id", `@name='secret'`, ""), asAlice, ""), want(200, `<collection matches="1">`, `package="hchan"`)},
		{"every binary on /id", req("GET", r+"/id", asBob, ""), want(200, `name="hello"`, `name="libfoo"`)},
		{"paged", req("GET", searchURL(r+"/id", `@project='binworld'`, "limit=1&offset=1"), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="2">`, `name="libfoo"`}, Excludes: []string{`name="hello"`}}},
		{"empty match on the full route", req("GET", r, asBob, ""), code(400, "empty_match", "No predicate found in match argument")},
		{"POST", apitest.Request{Method: "POST", Path: r + "/id", Header: withForm(asBob), Body: "match=" + `%40name%3D%27libfoo%27`}, want(200, `<collection matches="1">`)},
		{"an unknown key", req("GET", searchURL(r, `@arch='x86_64'`, ""), asBob, ""),
			code(400, "illegal_xpath_error", "unable to evaluate '@arch' for 'channel_binaries'")},
	})
}

// TestSearchReleasedBinary: /search/released/binary[/id] over what cmd=release put into
// release targets: OBS's own test queries (by name, exact, by repository, without obsolete
// ones), the disturl, read protection and the refusals.
func TestSearchReleasedBinary(t *testing.T) {
	w := newBinWorld(t)
	meta := `<project name="%s"><title/><description/><person userid="alice" role="maintainer"/>%s<repository name="%s">%s<arch>x86_64</arch></repository></project>`
	target := func(project string) string {
		return `<releasetarget project="` + project + `" repository="update" trigger="manual"/>`
	}
	r := "/search/released/binary"
	w.run(t, []scenario{
		{"the target", req("PUT", "/source/binworld:upd/_meta", asAdmin, sprintf(meta, "binworld:upd", "<build><disable/></build>", "update", "")), ok},
		{"the release target", req("PUT", "/source/binworld/_meta", asAdmin, sprintf(meta, "binworld", "", "standard", target("binworld:upd"))), ok},
		{"release hello", req("POST", "/source/binworld/hello?cmd=release", asAlice, ""), ok},
		{"a hidden target", req("PUT", "/source/binworld:hidden:upd/_meta", asAdmin,
			sprintf(meta, "binworld:hidden:upd", "<build><disable/></build><access><disable/></access>", "update", "")), ok},
		{"its release target", req("PUT", "/source/binworld:hidden/_meta", asAdmin,
			sprintf(meta, "binworld:hidden", "<access><disable/></access>", "standard", target("binworld:hidden:upd"))), ok},
		{"release secret", req("POST", "/source/binworld:hidden/secret?cmd=release", asAlice, ""), ok},
		{"by name, /id", req("GET", searchURL(r+"/id", `@name = 'hello'`, ""), asBob, ""), apitest.Expect{Status: 200, Exact: `<collection matches="2">` + "\n" +
			`  <binary project="binworld:upd" repository="update" name="hello" version="1.0" release="1.1" arch="src"></binary>` + "\n" +
			`  <binary project="binworld:upd" repository="update" name="hello" version="1.0" release="1.1" arch="x86_64"></binary>` + "\n</collection>\n"}},
		{"full", req("GET", searchURL(r, `@name = 'hello' and @arch='x86_64'`, ""), asBob, ""), want(200, `<collection matches="1">`,
			`<binary project="binworld:upd" repository="update" name="hello" version="1.0" release="1.1" arch="x86_64">`,
			`<publish package="hello"></publish>`, `<disturl>obs://pocketforge/binworld/standard/`)},
		{"exact", req("GET", searchURL(r+"/id", `@name = 'hello' and @version = '1.0' and @release = '1.1' and @arch = 'x86_64'`, ""), asBob, ""), want(200, `<collection matches="1">`)},
		{"not matching", req("GET", searchURL(r+"/id", `@name = 'hello' and @version = '1.1'`, ""), asBob, ""), want(200, `<collection matches="0">`)},
		{"by repository", req("GET", searchURL(r+"/id", `repository/[@project = 'binworld:upd' and @name = 'update']`, ""), asBob, ""), want(200, `<collection matches="2">`)},
		{"without obsolete ones", req("GET", searchURL(r+"/id", `repository/[@project = 'binworld:upd' and @name = 'update'] and obsolete[not(@time)]`, ""), asBob, ""),
			want(200, `<collection matches="2">`)},
		{"by disturl", req("GET", searchURL(r+"/id", `starts-with(disturl, 'obs://pocketforge/binworld/standard/') and @arch='src'`, ""), asBob, ""),
			want(200, `<collection matches="1">`, `name="hello"`)},
		{"by package", req("GET", searchURL(r+"/id", `@name='hello' and publish/@package='hello'`, ""), asBob, ""), want(200, `<collection matches="2">`)},
		{"without a name or disturl: the seed asks for one", req("GET", searchURL(r+"/id", `@arch='x86_64'`, ""), asBob, ""),
			code(400, "illegal_xpath_error", "needs @name or @disturl")},
		{"a package alone is not a name", req("GET", searchURL(r+"/id", `publish/@package='hello'`, ""), asBob, ""), code(400, "illegal_xpath_error")},
		{"no support status kept", req("GET", searchURL(r+"/id", `@name='hello' and supportstatus='l3'`, ""), asBob, ""), want(200, `<collection matches="0">`)},
		{"a hidden target is left out", req("GET", searchURL(r+"/id", `@name='secret'`, ""), asBob, ""), want(200, `<collection matches="0">`)},
		{"and found by its maintainer", req("GET", searchURL(r+"/id", `@name='secret'`, ""), asAlice, ""), want(200, `<collection matches="2">`, `project="binworld:hidden:upd"`)},
		{"empty match on the full route", req("GET", r+"?match=", asBob, ""), code(400, "empty_match")},
		{"an empty match on /id names no binary", req("GET", r+"/id", asBob, ""), code(400, "illegal_xpath_error", "needs @name or @disturl")},
		{"an unknown key", req("GET", searchURL(r, `@name='hello' and @package='hello'`, ""), asBob, ""),
			code(400, "illegal_xpath_error", "unable to evaluate '@package' for 'released_binaries'")},
	})
}
