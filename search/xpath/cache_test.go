package xpath

import (
	"testing"
	"unsafe"
)

// TestCacheOwnsItsKeys: fiber hands a handler its query string as a view of a buffer the next
// request overwrites. A match compiled and cached from such a view must not change its key
// when the buffer does — the flaky 200 that answered "@label='x'" with "@name='31'"'s issue.
func TestCacheOwnsItsKeys(t *testing.T) {
	buf := []byte("@name='31'")
	view := unsafe.String(&buf[0], len(buf))
	if _, err := Compile("issue", view); err != nil {
		t.Fatalf("compile %q: %v", view, err)
	}
	copy(buf, "@label='x'") // the next request, of the same length, in the same buffer
	// Whether a lookup would then find the changed key depends on the map's hashing, so the
	// test reads the kept keys themselves.
	queryCache.Lock()
	for k := range queryCache.byKey {
		if k.root == "issue" && k.match == "@label='x'" {
			t.Error("the cache's key changed with the request's buffer: @label='x' would be answered with @name='31''s query")
		}
	}
	queryCache.Unlock()
	if _, err := Compile("issue", "@label='x'"); err == nil {
		t.Fatal("@label='x' compiled: the cache answered it with the query kept for @name='31'")
	}
	if _, err := Compile("issue", "@name='31'"); err != nil {
		t.Fatalf("@name='31' after the buffer changed: %v", err)
	}

	// The compiled query keeps the match's literals: they must not change either.
	buf = []byte("@name='77'")
	q, err := Compile("issue", unsafe.String(&buf[0], len(buf)))
	if err != nil {
		t.Fatal(err)
	}
	copy(buf, "@name='78'")
	if plan := q.Plan(); len(plan) != 1 || len(plan[0]) != 1 || plan[0][0].Value != "77" {
		t.Fatalf("the plan after the buffer changed: %+v", plan)
	}
}
