package xpath

import (
	"container/list"
	"strings"
	"sync"
)

// The compiled-query cache: osc sends the same few predicates over and over (the lookup after
// every co, ci and up differs only in its project and package), and compiling one (parsing,
// checking, rendering and antchfx's own parse) costs more than evaluating it on a handful of
// candidates. A small LRU of compiled queries by root and match; a Query is immutable, so one
// may serve any number of searches at once. Refusals are not kept (they are cheap and a
// hostile client could fill the cache with them), nor matches longer than cacheMaxMatch.
const (
	cacheSize     = 256
	cacheMaxMatch = 4 << 10
)

type cacheKey struct{ root, match string }

type cacheEntry struct {
	key cacheKey
	q   *Query
}

var queryCache = struct {
	sync.Mutex
	order *list.List // front: the most recently used
	byKey map[cacheKey]*list.Element
}{order: list.New(), byKey: map[cacheKey]*list.Element{}}

// cached is the compiled query for root and match, or nil.
func cached(root, match string) *Query {
	if len(match) > cacheMaxMatch {
		return nil
	}
	c := &queryCache
	c.Lock()
	defer c.Unlock()
	e, ok := c.byKey[cacheKey{root, match}]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(cacheEntry).q
}

// remember keeps q as root and match's compiled query, dropping the least recently used.
func remember(root, match string, q *Query) {
	if len(match) > cacheMaxMatch {
		return
	}
	c := &queryCache
	c.Lock()
	defer c.Unlock()
	if e, ok := c.byKey[cacheKey{root, match}]; ok {
		c.order.MoveToFront(e)
		return
	}
	// The cache outlives the request: a key viewing a request's buffer would change with the
	// next request (an uncopied "@name='31'" once became "@label='x'" and answered for it).
	// Compile hands a match of its own; root is cloned here as cheaply.
	k := cacheKey{strings.Clone(root), match}
	c.byKey[k] = c.order.PushFront(cacheEntry{k, q})
	for c.order.Len() > cacheSize {
		last := c.order.Back()
		delete(c.byKey, last.Value.(cacheEntry).key)
		c.order.Remove(last)
	}
}
