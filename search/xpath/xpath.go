// Package xpath is the build service's search predicate: the `match` parameter of
// /search/<root> compiled as OBS 2.7's search takes it, then evaluated on a root's XML document
// (a request, a package or project meta …) with antchfx/xpath.
//
// OBS does not run XPath: it parses the predicate and maps each path to a database column,
// refusing paths it has no column for and every function but contains, starts-with,
// ends-with, not and boolean. Compile refuses the same, with OBS's words, and rewrites what it
// takes into an XPath expression that behaves like OBS's SQL on the document:
//
//   - the match's outer `([…])` or `[…]` is taken off, and `devel/[…]` (osc's `rq accept`
//     sends it) reads as `devel[…]`;
//   - contains ignores case (OBS lower-cases both sides); `=`, `!=`, starts-with and ends-with
//     ignore case where OBS's column does (its MySQL collation: titles, descriptions, roles,
//     group names, a request's creator, states, projects and packages, …) and heed it where
//     the column is utf8_bin (project, package and repository names, logins, action types):
//     keys.go says which. Each holds when any of the nodes a path names holds it (a SQL join
//     has a row per node), where XPath would look at the first node only;
//   - the request aliases `target/…` and `source/…` read as `action/target/…`,
//     `action/source/…`;
//   - conditions joined by and on one repeated element (`person/@userid='u' and
//     person/@role='r'`) read one entry, as OBS's join does, where XPath would take any two
//     (rows.go).
//
// Simplified: ignoring case is lower-casing (MySQL's *_ci collations also equate accented
// letters with plain ones).
// `<`, `>`, `<=` and `>=` compare numbers, as XPath 1.0 does, so they order ids but not times
// (OBS compares its time columns).
//
// The package imports nothing of pocketforge's; the build domain hands it its records'
// documents (Document builds their trees), asks Plan which equalities its indexes may answer,
// and asks Match.
package xpath

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/antchfx/xmlquery"
	axpath "github.com/antchfx/xpath"
)

// ErrEmptyMatch is a blank match: the full search routes answer it 400 empty_match (the /id
// routes search for `*` instead).
var ErrEmptyMatch = errors.New("No predicate found in match argument")

// Error is a predicate the search refuses; the build service answers it 400
// illegal_xpath_error with Error() as the summary.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func illegal(format string, args ...any) error { return &Error{fmt.Sprintf(format, args...)} }

// MaxLength bounds a match: far above anything osc sends, it keeps a hostile predicate cheap
// to parse and evaluate.
const MaxLength = 16 << 10

// maxDepth bounds how deeply parentheses, predicates and calls nest; maxConditions how many
// conditions and/or join (osc joins a dozen at most; OBS has no such bound, but evaluates
// its SQL no faster for a longer chain).
const (
	maxDepth      = 64
	maxConditions = 256
)

// Query is a compiled search predicate for one root.
type Query struct {
	tree expr // nil for the match-all `*`
	expr *axpath.Expr
	keys []string // the document paths the predicate reads, sorted
	t    table
}

// Compile compiles match, the `match` parameter of /search/<root>, for documents whose root
// element is root (request, package, project, person, repository, issue, channel,
// channel_binary, released_binary). An empty match is ErrEmptyMatch; a predicate OBS refuses is
// an *Error. The bare predicate `*`, and an empty one in brackets (`[]`), match every document,
// as in OBS.
func Compile(root, match string) (*Query, error) {
	if q := cached(root, match); q != nil {
		return q, nil
	}
	// A compiled query keeps pieces of its match (literals, plan values) and may be cached for
	// later requests, while a match read from a fiber query string views a buffer the next
	// request overwrites: compile a copy of its own.
	match = strings.Clone(match)
	q, err := compile(root, match)
	if err == nil {
		remember(root, match, q)
	}
	return q, err
}

func compile(root, match string) (*Query, error) {
	t, ok := tables[root]
	if !ok {
		return nil, illegal("unknown table %s", root)
	}
	if strings.TrimSpace(match) == "" {
		return nil, ErrEmptyMatch
	}
	pred := strings.TrimSpace(Unwrap(match))
	if pred == "" {
		pred = "*"
	}
	if len(pred) > MaxLength {
		return nil, illegal("failed to parse: the predicate is longer than %d bytes", MaxLength)
	}
	q := &Query{}
	if pred == "*" {
		q.expr = axpath.MustCompile("/" + root)
		return q, nil
	}
	tree, err := parse(pred)
	if err != nil {
		return nil, err
	}
	c := checker{t: t, keys: map[string]bool{}}
	if err := c.boolean(tree, nil); err != nil {
		return nil, err
	}
	for k := range c.keys {
		q.keys = append(q.keys, k)
	}
	slices.Sort(q.keys)
	tree = pairRows(tree)
	var b strings.Builder
	b.WriteString("/" + root + "[")
	renderer{b: &b, fold: t.fold, lower: t.lower}.expr(tree, nil)
	b.WriteString("]")
	x, err := axpath.Compile(b.String())
	if err != nil {
		return nil, illegal("failed to parse: %v", err)
	}
	q.tree, q.expr, q.t = tree, x, t
	return q, nil
}

// Unwrap takes off the outer `([…])` or `[…]` of a match, as OBS does before reading it.
func Unwrap(match string) string {
	switch {
	case strings.HasPrefix(match, "([") && strings.HasSuffix(match, "])") && len(match) >= 4:
		return match[2 : len(match)-2]
	case strings.HasPrefix(match, "[") && strings.HasSuffix(match, "]") && len(match) >= 2:
		return match[1 : len(match)-1]
	}
	return match
}

// XPath is the expression Match evaluates: `/<root>[<rewritten predicate>]`.
func (q *Query) XPath() string { return q.expr.String() }

// Match reports whether doc, a document as xmlquery.Parse returns it (its root element a
// child of the document node), matches. It is safe for concurrent use.
func (q *Query) Match(doc *xmlquery.Node) bool {
	return q.expr.Select(xmlquery.CreateXPathNavigator(doc)).MoveNext()
}

// Keys are the paths of the document the predicate reads, as the document has them (a
// request's `target/@project` is `action/target/@project`; a path nested in a predicate is
// joined to the steps it is nested in; a path tested for existence is there as written), sorted;
// none for `*`. A store that can give a candidate's values for every one of them may evaluate
// Match on a document holding only those (ReadsOnly).
func (q *Query) Keys() []string { return slices.Clone(q.keys) } // a Query is shared (the cache)

// ReadsOnly reports whether every key the predicate reads is one of keys: then Match answers
// the same on any two documents of the root that agree on those keys, and a document built
// from them alone stands for the record.
func (q *Query) ReadsOnly(keys ...string) bool {
	for _, k := range q.keys {
		if !slices.Contains(keys, k) {
			return false
		}
	}
	return true
}
