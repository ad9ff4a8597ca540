package xpath

import (
	"reflect"
	"testing"
)

// TestPlan: the terms osc's queries imply, which the request and package indexes answer.
func TestPlan(t *testing.T) {
	cases := []struct {
		name, root, match string
		want              [][]Eq
	}{
		{"co/ci/up", "request", `(state/@name='new' or state/@name='review') and (action/target/@project='P' or action/source/@project='P') and (action/target/@package='K' or action/source/@package='K')`,
			[][]Eq{{{"state/@name", "new", false}, {"state/@name", "review", false}},
				{{"action/target/@project", "P", true}, {"action/source/@project", "P", true}},
				{{"action/target/@package", "K", true}, {"action/source/@package", "K", true}}}},
		{"sr", "request", `(state/@name='new' or state/@name='review' or state/@name='declined') and action[source/@project='A' and source/@package='B' and target/@project='C' and target/@package='D'] and action/@type='submit'`,
			[][]Eq{{{"state/@name", "new", false}, {"state/@name", "review", false}, {"state/@name", "declined", false}},
				{{"action/source/@project", "A", true}}, {{"action/source/@package", "B", true}}, {{"action/target/@project", "C", true}}, {{"action/target/@package", "D", true}},
				{{"action/@type", "submit", false}}}},
		{"review list", "request", `((state/@name='review') and review/@state='new') and review[@by_user='u' and @state='new']`,
			[][]Eq{{{"state/@name", "review", false}}, {{"review/@state", "new", false}}, {{"review/@by_user", "u", true}}, {{"review/@state", "new", false}}}},
		{"rq list -U", "request", `(state/@who='u' or history/@who='u')`, [][]Eq{{{"state/@who", "u", true}, {"history/@who", "u", false}}}},
		{"alias", "request", `'x' = target/@project`, [][]Eq{{{"action/target/@project", "x", true}}}},
		{"devel", "package", `([devel/[@project='P' and @package='K']])`, [][]Eq{{{"devel/@project", "P", false}}, {{"devel/@package", "K", false}}}},
		{"or with a side that implies nothing", "package", `@name='a' or contains(title, 'a')`, nil},
		{"not implies nothing", "package", `not(@name='a')`, nil},
		{"a state in another case: its values are in lower case", "request", `state/@name='NEW' and @creator='Bob'`,
			[][]Eq{{{"state/@name", "new", false}}, {{"@creator", "Bob", true}}}},
		{"a name heeds case", "package", `@name='Foo' and title='Foo'`, [][]Eq{{{"@name", "Foo", false}}, {{"title", "Foo", true}}}},
		{"numbers are not taken", "request", `@id=5`, nil},
		{"star", "package", `*`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := Compile(c.root, c.match)
			if err != nil {
				t.Fatal(err)
			}
			if got := q.Plan(); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Plan = %v\nwant %v", got, c.want)
			}
		})
	}
}

// TestPrefix: the prefix of a root attribute an `and` operand demands (names compare exactly).
func TestPrefix(t *testing.T) {
	for _, c := range []struct {
		match, key, want string
		ok               bool
	}{
		{`starts-with(@project, 'Home:')`, "@project", "Home:", true},
		{`contains(@name, 'x') and starts-with(@project, 'home:')`, "@project", "home:", true},
		{`@project='devel:Tools' and @name='x'`, "@project", "devel:Tools", true},
		{`starts-with(@project, 'a') or @name='b'`, "@project", "", false},
		{`not(starts-with(@project, 'a'))`, "@project", "", false},
		{`starts-with(@project, '')`, "@project", "", false},
		{`starts-with(devel/@project, 'a')`, "@project", "", false},
		{`starts-with(@name, 'a')`, "@project", "", false},
		{`starts-with(title, 'a')`, "title", "", false}, // ignores case: no exact prefix
	} {
		q, err := Compile("package", c.match)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := q.Prefix(c.key); got != c.want || ok != c.ok {
			t.Errorf("%s: Prefix = %q %v, want %q %v", c.match, got, ok, c.want, c.ok)
		}
	}
}
