package xpath

import (
	"errors"
	"strings"
	"testing"
)

// FuzzCompile: no input makes Compile, Match, Plan or Keys panic, and every refusal is
// ErrEmptyMatch or an *Error (the 400s the service answers), never another error. The planner
// that uses Plan and Keys on a store is fuzzed in buildsvc (FuzzSearchPlan).
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		`(state/@name='new' or state/@name='review') and (action/target/@project='devel:test' or action/source/@project='devel:test') and (action/target/@package='hello' or action/source/@package='hello')`,
		`(state/@name='new' or state/@name='review' or state/@name='declined') and action[source/@project='a' and source/@package='b' and target/@project='c' and target/@package='d'] and action/@type='submit'`,
		`((state/@name='review') and review/@state='new') and review[@by_user='tester' and @state='new']`,
		`(state/@who='u' or history/@who='u')`, `([devel/[@project='devel:test' and @package='hello']])`,
		`contains(@name, 'ell')`, `@name = 'x' or title = 'x' or description = 'x'`, `person/@userid = 'u'`,
		`not(devel)`, `boolean(devel/@package)`, `child::person[attribute::userid='carol']`, `*`, `[]`,
		`position() = 1`, `a | b`, `@id + 1`, `//x`, `$x`, `"'`, `(((`, `]]`, `devel/[`, `@id > 1.5.3`,
		strings.Repeat("(", 70) + "@id=1" + strings.Repeat(")", 70), strings.Repeat("@id=1 or ", 300) + "@id=2",
		strings.Repeat("not(", 70) + "@id" + strings.Repeat(")", 70), `person[@userid='u']/@role='r' and 'a'='a'`,
	} {
		f.Add(s)
	}
	docs := []string{submitRequest, helloPackage}
	roots := []string{"request", "package"}
	f.Fuzz(func(t *testing.T, match string) {
		for i, root := range roots {
			q, err := Compile(root, match)
			var e *Error
			if err != nil {
				if !errors.Is(err, ErrEmptyMatch) && !errors.As(err, &e) {
					t.Fatalf("Compile(%q, %q) = %T %v", root, match, err, err)
				}
				continue
			}
			q.Match(doc(t, docs[i]))
			for _, term := range q.Plan() {
				if len(term) == 0 || len(term) > maxTermEqs {
					t.Fatalf("Plan(%q) has a term of %d equalities", match, len(term))
				}
			}
			if q.ReadsOnly(q.Keys()...) != true {
				t.Fatalf("%q does not read only its own keys", match)
			}
		}
	})
}
