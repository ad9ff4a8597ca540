package xpath

import (
	"errors"
	"testing"
)

// FuzzCompile: no input makes Compile, Match or Plan panic, and every refusal is ErrEmptyMatch or
// an *Error (the 400s the service answers), never another error.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		`(state/@name='new' or state/@name='review') and (action/target/@project='devel:test' or action/source/@project='devel:test') and (action/target/@package='hello' or action/source/@package='hello')`,
		`(state/@name='new' or state/@name='review' or state/@name='declined') and action[source/@project='a' and source/@package='b' and target/@project='c' and target/@package='d'] and action/@type='submit'`,
		`((state/@name='review') and review/@state='new') and review[@by_user='tester' and @state='new']`,
		`(state/@who='u' or history/@who='u')`, `([devel/[@project='devel:test' and @package='hello']])`,
		`contains(@name, 'ell')`, `@name = 'x' or title = 'x' or description = 'x'`, `person/@userid = 'u'`,
		`not(devel)`, `boolean(devel/@package)`, `child::person[attribute::userid='carol']`, `*`, `[]`,
		`position() = 1`, `a | b`, `@id + 1`, `//x`, `$x`, `"'`, `(((`, `]]`, `devel/[`, `@id > 1.5.3`,
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
			q.Plan()
		}
	})
}
