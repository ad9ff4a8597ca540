package xpath

import (
	"testing"

	"github.com/antchfx/xmlquery"
	axpath "github.com/antchfx/xpath"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
)

// BenchmarkMatch: a compiled osc query (the one after every co/ci/up, and review list) against
// antchfx evaluating the same predicate as written, on the same parsed document; x-raw is
// Match's cost over antchfx's own.
func BenchmarkMatch(b *testing.B) {
	for _, c := range []struct{ name, root, match, doc string }{
		{"co", "request", `(state/@name='new' or state/@name='review') and (action/target/@project='devel:test' or action/source/@project='devel:test') and (action/target/@package='hello' or action/source/@package='hello')`, submitRequest},
		{"review-list", "request", `((state/@name='review') and review/@state='new') and review[@by_user='tester' and @state='new']`, submitRequest},
		{"contains", "package", `contains(@name, 'ell')`, helloPackage},
	} {
		b.Run(c.name, func(b *testing.B) {
			q, err := Compile(c.root, c.match)
			if err != nil {
				b.Fatal(err)
			}
			raw := axpath.MustCompile("/" + c.root + "[" + c.match + "]")
			d := doc(b, c.doc)
			nav := func() *xmlquery.NodeNavigator { return xmlquery.CreateXPathNavigator(d) }
			if !q.Match(d) || !raw.Select(nav()).MoveNext() {
				b.Fatal("no match")
			}
			bench.Compare(b, 1, func(int) { q.Match(d) }, func(int) { raw.Select(nav()).MoveNext() })
		})
	}
}
