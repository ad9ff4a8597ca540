package xpath

import (
	"errors"
	"strings"
	"testing"

	"github.com/antchfx/xmlquery"
)

// Documents shaped as the build service renders them (request with full history; package
// meta).
const (
	submitRequest = `<request id="1" creator="Admin">
  <action type="submit">
    <source project="home:Admin:branches:devel:test" package="hello" rev="3"/>
    <target project="devel:test" package="hello"/>
    <options><sourceupdate>cleanup</sourceupdate></options>
  </action>
  <state name="review" who="Admin" when="2026-11-25T10:00:00" created="2026-11-25T10:00:00"><comment/></state>
  <review state="new" by_user="tester"><comment>please review</comment></review>
  <review state="accepted" by_group="pocket-reviewers" who="carol" when="2026-11-25T10:05:00"><comment/>
    <history who="carol" when="2026-11-25T10:05:00"><description>Review got accepted</description></history>
  </review>
  <history who="Admin" when="2026-11-25T10:00:00"><description>Request created</description><comment>please merge</comment></history>
  <history who="bob" when="2026-11-25T10:01:00"><description>Request got a new review request</description></history>
  <description>please merge</description>
</request>`
	deleteRequest = `<request id="2" creator="alice">
  <action type="delete"><target project="home:alice" package="Old_Stuff"/></action>
  <state name="declined" who="bob" when="2026-11-25T11:00:00" created="2026-11-25T10:30:00"><comment>no</comment></state>
  <history who="alice" when="2026-11-25T10:30:00"><description>Request created</description></history>
</request>`
	helloPackage = `<package name="hello" project="devel:test">
  <title>Hello World</title>
  <description>The GNU Hello program</description>
  <devel project="devel:test" package="hello"/>
  <person userid="alice" role="maintainer"/>
  <person userid="Bob" role="bugowner"/>
  <group groupid="pocket-reviewers" role="reviewer"/>
</package>`
	zlibPackage = `<package name="zlib" project="openSUSE:Factory">
  <title>zlib</title>
  <description/>
  <person userid="carol" role="maintainer"/>
</package>`
)

func doc(t testing.TB, s string) *xmlquery.Node {
	t.Helper()
	d, err := xmlquery.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestMatch: every query osc 0.169.1 sends (build-notes §6 and §8, the http trace) and the
// OBS rules around them, on the documents above.
func TestMatch(t *testing.T) {
	type want struct {
		doc   string
		match bool
	}
	cases := []struct {
		name, root, match string
		want              []want
	}{
		// osc after co/ci/up/branch (check_for_request_on_action)
		{"co/ci/up", "request", `(state/@name='new' or state/@name='review') and (action/target/@project='devel:test' or action/source/@project='devel:test') and (action/target/@package='hello' or action/source/@package='hello')`,
			[]want{{submitRequest, true}, {deleteRequest, false}}},
		{"co in the branch", "request", `(state/@name='new' or state/@name='review') and (action/target/@project='home:Admin:branches:devel:test' or action/source/@project='home:Admin:branches:devel:test') and (action/target/@package='hello' or action/source/@package='hello')`,
			[]want{{submitRequest, true}, {deleteRequest, false}}},
		{"rdelete", "request", `(state/@name='new' or state/@name='review' or state/@name='declined') and (action/target/@project='home:alice' or action/source/@project='home:alice') and (action/target/@package='Old_Stuff' or action/source/@package='Old_Stuff')`,
			[]want{{submitRequest, false}, {deleteRequest, true}}},
		// osc sr, before creating
		{"sr", "request", `(state/@name='new' or state/@name='review' or state/@name='declined') and action[source/@project='home:Admin:branches:devel:test' and source/@package='hello' and target/@project='devel:test' and target/@package='hello'] and action/@type='submit'`,
			[]want{{submitRequest, true}, {deleteRequest, false}}},
		{"sr, other target", "request", `(state/@name='new' or state/@name='review' or state/@name='declined') and action[source/@project='home:Admin:branches:devel:test' and source/@package='hello' and target/@project='other' and target/@package='hello'] and action/@type='submit'`,
			[]want{{submitRequest, false}}},
		{"rq list P", "request", `(state/@name='declined' or state/@name='new' or state/@name='review') and (action/target/@project='devel:test' or action/source/@project='devel:test')`,
			[]want{{submitRequest, true}, {deleteRequest, false}}},
		{"rq list -U (history)", "request", `(state/@who='bob' or history/@who='bob')`,
			[]want{{submitRequest, true}, {deleteRequest, true}}},
		{"rq list -U (nobody)", "request", `(state/@who='dave' or history/@who='dave')`,
			[]want{{submitRequest, false}, {deleteRequest, false}}},
		{"review list", "request", `((state/@name='review') and review/@state='new') and review[@by_user='tester' and @state='new']`,
			[]want{{submitRequest, true}, {deleteRequest, false}}},
		{"review list, accepted review", "request", `((state/@name='review') and review/@state='new') and review[@by_group='pocket-reviewers' and @state='new']`,
			[]want{{submitRequest, false}}},
		{"review history", "request", `boolean(review/history/@when)`, []want{{submitRequest, true}, {deleteRequest, false}}},
		{"target alias", "request", `target/@project='devel:test' and source/@package='hello'`,
			[]want{{submitRequest, true}, {deleteRequest, false}}},
		{"submit keys are taken, match nothing", "request", `submit/target/@project='devel:test'`, []want{{submitRequest, false}}},
		{"nested state, double quotes (openSUSE's bots)", "request", `(state[@name="new"] or state[@name="review"]) and review[starts-with(@by_group, "POCKET-") and @state="new"]`,
			[]want{{submitRequest, false}, {deleteRequest, false}}},
		{"nested state, a pending review", "request", `(state[@name="new"] or state[@name="review"]) and review[starts-with(@by_user, "TEST") and @state="new"]`,
			[]want{{submitRequest, true}, {deleteRequest, false}}},
		{"id", "request", `@id > 1`, []want{{submitRequest, false}, {deleteRequest, true}}},
		{"creator", "request", `@creator='alice'`, []want{{submitRequest, false}, {deleteRequest, true}}},
		// osc rq accept: the devel search OBS tolerates
		{"rq accept devel", "package", `([devel/[@project='devel:test' and @package='hello']])`,
			[]want{{helloPackage, true}, {zlibPackage, false}}},
		{"devel, other package", "package", `([devel/[@project='devel:test' and @package='zlib']])`, []want{{helloPackage, false}}},
		// osc search
		{"search --package", "package", `@name = 'hello'`, []want{{helloPackage, true}, {zlibPackage, false}}},
		{"search -s --package", "package", `contains(@name, 'ell')`, []want{{helloPackage, true}, {zlibPackage, false}}},
		{"contains ignores case", "package", `contains(@name, 'ELL')`, []want{{helloPackage, true}}},
		{"contains on any person", "package", `contains(person/@userid, 'bo')`, []want{{helloPackage, true}, {zlibPackage, false}}},
		{"starts-with", "package", `starts-with(@project, 'openSUSE')`, []want{{helloPackage, false}, {zlibPackage, true}}},
		// OBS's names are utf8_bin columns: =, starts-with and ends-with on them heed case
		{"starts-with on a name heeds case", "package", `starts-with(@project, 'OPENSUSE')`, []want{{zlibPackage, false}}},
		{"= on a name heeds case", "package", `@name = 'ZLIB' or @project = 'OPENSUSE:Factory'`, []want{{zlibPackage, false}}},
		{"= on a login heeds case", "package", `person/@userid = 'bob'`, []want{{helloPackage, false}}},
		// … and its titles, roles, request states and request projects are *_ci columns
		{"= on a title ignores case", "package", `title = 'HELLO world'`, []want{{helloPackage, true}, {zlibPackage, false}}},
		{"!= on a title ignores case", "package", `title != 'ZLIB'`, []want{{helloPackage, true}, {zlibPackage, false}}},
		{"= on a role ignores case", "package", `person[@userid = 'Bob' and @role = 'BugOwner']`, []want{{helloPackage, true}}},
		{"starts-with on a title ignores case", "package", `starts-with(title, 'hELLO')`, []want{{helloPackage, true}}},
		{"= on a request state ignores case", "request", `state/@name = 'DECLINED'`, []want{{submitRequest, false}, {deleteRequest, true}}},
		{"= on a request creator ignores case", "request", `@creator = 'ALICE'`, []want{{deleteRequest, true}}},
		{"= on a target package ignores case", "request", `target/@package = 'old_stuff'`, []want{{deleteRequest, true}}},
		{"= on an action type heeds case", "request", `action/@type = 'Delete'`, []want{{deleteRequest, false}}},
		{"ends-with", "package", `ends-with(title, 'WORLD')`, []want{{helloPackage, true}, {zlibPackage, false}}},
		{"search name or title or description", "package", `@name = 'zlib' or title = 'zlib' or description = 'zlib'`,
			[]want{{helloPackage, false}, {zlibPackage, true}}},
		{"search -i", "package", `person/@userid = 'carol'`, []want{{helloPackage, false}, {zlibPackage, true}}},
		{"search -m (person and role)", "package", `person/@userid = 'alice' and person/@role = 'maintainer'`, []want{{helloPackage, true}}},
		{"one person with both", "package", `person[@userid = 'Bob' and @role = 'maintainer']`, []want{{helloPackage, false}}},
		{"not", "package", `not(devel/@project='devel:test')`, []want{{helloPackage, false}, {zlibPackage, true}}},
		{"not of a path", "package", `not(devel)`, []want{{helloPackage, false}, {zlibPackage, true}}},
		{"boolean", "package", `boolean(devel/@package)`, []want{{helloPackage, true}, {zlibPackage, false}}},
		{"!=", "package", `@name != 'hello'`, []want{{helloPackage, false}, {zlibPackage, true}}},
		{"bracketed", "package", `[@name='zlib']`, []want{{zlibPackage, true}}},
		{"star", "package", `*`, []want{{helloPackage, true}, {zlibPackage, true}}},
		{"empty brackets are the star", "package", `[]`, []want{{helloPackage, true}}},
		{"child:: and attribute::", "package", `child::person[attribute::userid='carol']`, []want{{zlibPackage, true}, {helloPackage, false}}},
		{"double quotes", "package", `title="Hello World"`, []want{{helloPackage, true}}},
		{"quote in a literal", "package", `contains(description, "gnu's")`, []want{{helloPackage, false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := Compile(c.root, c.match)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			for i, w := range c.want {
				if got := q.Match(doc(t, w.doc)); got != w.match {
					t.Errorf("document %d: Match = %v, want %v (xpath %s)", i, got, w.match, q.XPath())
				}
			}
		})
	}
}

// TestCompileRefuses: what OBS's engine refuses, with its words.
func TestCompileRefuses(t *testing.T) {
	cases := []struct{ name, root, match, msg string }{
		{"position", "package", `position() = 1`, "unknown xpath function 'position'"},
		{"count", "request", `count(review) > 1`, "unknown xpath function 'count'"},
		{"lower-case (ours, not OBS's)", "package", `lower-case(@name) = 'x'`, "unknown xpath function 'lower-case'"},
		{"union", "package", `@name='a' | @name='b'`, "illegal token X ':union'"},
		{"union of paths", "package", `person|group`, "illegal token X ':union'"},
		{"arithmetic", "request", `@id + 1 = 2`, "illegal token X ':plus'"},
		{"unknown key", "package", `@foo='x'`, "unable to evaluate '@foo' for 'packages'"},
		{"unknown nested key", "request", `action[@foo='x']`, "unable to evaluate 'action/@foo' for 'requests'"},
		{"unknown existence", "project", `foo`, "unable to evaluate 'foo' for 'projects'"},
		{"positional predicate", "request", `review[1]`, "illegal token X ':literal'"},
		{"literal alone", "package", `'x'`, "illegal token X ':literal'"},
		{"absolute path", "package", `/package/@name='x'`, "illegal token X ':document'"},
		{"descendant", "package", `//person`, "illegal token X ':descendant_or_self'"},
		{"parent axis", "package", `parent::x`, "illegal token X ':parent'"},
		{"self", "package", `.='x'`, "illegal token X ':self'"},
		{"variable", "package", `@name=$x`, "illegal token X ':variable'"},
		{"function as value", "package", `contains(@name,'a') = @name`, "illegal token: ':function'"},
		{"wrong arity", "package", `contains(@name)`, "wrong number of arguments for 'contains'"},
		{"unknown table", "nope", `@name='x'`, "unknown table nope"},
		{"unbalanced", "package", `(@name='x'`, "failed to parse"},
		{"unterminated", "package", `@name='x`, "failed to parse"},
		{"too deep", "package", strings.Repeat("(", 100) + "@name='x'" + strings.Repeat(")", 100), "nested deeper than 64 levels"},
		{"bad character", "package", `@name ~ 'x'`, "failed to parse"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile(c.root, c.match)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, c.msg) {
				t.Fatalf("Compile(%q) = %v, want an *Error with %q", c.match, err, c.msg)
			}
		})
	}
	for _, m := range []string{"", "  "} {
		if _, err := Compile("request", m); !errors.Is(err, ErrEmptyMatch) {
			t.Errorf("Compile(%q) = %v, want ErrEmptyMatch", m, err)
		}
	}
}

// TestUnwrap: OBS's outer brackets.
func TestUnwrap(t *testing.T) {
	for in, want := range map[string]string{
		"([a])": "a", "[a]": "a", "a": "a", "([])": "", "[]": "", "(a)": "(a)", "([a]": "([a]", "[": "[",
	} {
		if got := Unwrap(in); got != want {
			t.Errorf("Unwrap(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConcurrentMatch: one Query serves many goroutines (run with -race).
func TestConcurrentMatch(t *testing.T) {
	q, err := Compile("request", `review[@by_user='tester' and @state='new']`)
	if err != nil {
		t.Fatal(err)
	}
	d := doc(t, submitRequest)
	done := make(chan bool)
	for range 4 {
		go func() {
			ok := true
			for range 200 {
				ok = ok && q.Match(d)
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Fatal("a concurrent Match missed")
		}
	}
}

// TestPairRows: and-ed conditions on one repeated element are read inside one entry, as OBS's
// join reads them; or, not() and different elements are left as they are.
func TestPairRows(t *testing.T) {
	cases := []struct{ root, match, xpath string }{
		{"package", `person/@userid='u' and person/@role='maintainer'`, `/package[person[((@userid = 'u') and (@role = 'maintainer'))]]`},
		{"package", `person/@userid='u' and not(person/@role='bugowner')`, `/package[((person/@userid = 'u') and not((person/@role = 'bugowner')))]`},
		{"package", `person/@userid='u' or person/@role='maintainer'`, `/package[((person/@userid = 'u') or (person/@role = 'maintainer'))]`},
		{"request", `review/@state='New' and review[@by_user='u']`, `/request[review[((@state = 'new') and @by_user[lower-case(.) = 'u'])]]`},
	}
	for _, c := range cases {
		q, err := Compile(c.root, c.match)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.ReplaceAll(q.XPath(), " ", ""); got != strings.ReplaceAll(c.xpath, " ", "") {
			t.Errorf("%s:\n%s\nwant\n%s", c.match, q.XPath(), c.xpath)
		}
	}
}
