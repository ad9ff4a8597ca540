package explorersvc

import (
	"container/list"
	"sync"

	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The answer cache. A search asks the index, reads hundreds of records and sorts them; the
// same question asked again of the same products has the same answer, so the service keeps
// recent answers by question and content version and gives a repeated search its answer for
// the price of one read transaction (issue 13: ?q=bash answered at 0.04 of a bare handler).
// Each answer carries a Memo where the API keeps its encoded body, so encoding too happens
// once per answer, not per request. Answers are shared between requests: read-only.

// version names the explorer's content a search answered from: the store's stamp (which
// every import and removal changes, and which a restored snapshot brings with its content),
// or, before the first stamped import, the transaction id — which any write of the whole store
// moves, so unstamped data is cached only until the next write.
type version struct{ stamp, txid uint64 }

// contentVersion is the version tx sees.
func contentVersion(tx kv.Tx) version {
	if st := explorerstore.Stamp(tx); st != 0 {
		return version{stamp: st}
	}
	return version{txid: uint64(tx.ID())}
}

// currentVersion is the version a read transaction begun now sees.
func (s *Service) currentVersion() version {
	var v version
	_ = s.Store.View(func(tx kv.Tx) error { v = contentVersion(tx); return nil })
	return v
}

// Memo keeps one value derived from a cached answer — the API's encoded body — made by the
// first caller that asks and shared by the later ones for as long as the answer stays cached.
// A nil Memo (an answer too large to cache) keeps nothing: Get makes the value every time.
type Memo struct {
	once sync.Once
	v    any
}

// Get returns the value make made for this answer, calling make only the first time.
func (m *Memo) Get(make func() any) any {
	if m == nil {
		return make()
	}
	m.once.Do(func() { m.v = make() })
	return m.v
}

// The cache's bounds, in entries (packages listed; a file result counts its packages and
// itself): an answer larger than maxAnswerEntries is not kept (every package, or "lib", is
// tens of thousands: it would push out hundreds of useful answers), and the answers kept hold
// at most maxCachedEntries together — about 20 MB with their encoded bodies.
const (
	maxAnswerEntries = 5_000
	maxCachedEntries = 20_000
)

// question is what a cached answer answers: the search (packages, files, vcs), whether a term
// was given at all, and the term as cleaned.
type question struct {
	kind  byte
	given bool
	term  string
}

// answerCache is a least-recently-used cache of answers of one content version: an answer
// of another version replaces them all (after an import the old ones can never be asked for
// again).
type answerCache struct {
	mu      sync.Mutex
	version version
	size    int
	lru     list.List // of *cachedAnswer, most recently used first
	byQ     map[question]*list.Element
}

type cachedAnswer struct {
	q      question
	answer any // Found, FilesFound or VCSFound
	size   int
}

// get returns the answer to q at version v, if kept.
func (c *answerCache) get(q question, v version) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != v || c.byQ == nil {
		return nil, false
	}
	el, ok := c.byQ[q]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cachedAnswer).answer, true
}

// put keeps answer (of size entries) to q at version v.
func (c *answerCache) put(q question, v version, answer any, size int) {
	if size > maxAnswerEntries {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != v || c.byQ == nil {
		c.clearLocked()
		c.version = v
	}
	if el, ok := c.byQ[q]; ok { // two requests raced to answer it: keep the first
		c.lru.MoveToFront(el)
		return
	}
	c.byQ[q] = c.lru.PushFront(&cachedAnswer{q: q, answer: answer, size: size})
	c.size += size
	for c.size > maxCachedEntries {
		old := c.lru.Back()
		a := old.Value.(*cachedAnswer)
		c.lru.Remove(old)
		delete(c.byQ, a.q)
		c.size -= a.size
	}
}

// clear drops every answer (the index was rebuilt: answers found with the old one may differ).
func (c *answerCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clearLocked()
}

func (c *answerCache) clearLocked() {
	c.byQ = map[question]*list.Element{}
	c.lru.Init()
	c.size = 0
	c.version = version{}
}

// cached answers q from the cache when it holds the answer at the current version; otherwise
// it runs find, which answers at the version it returns, and keeps that answer when exact
// (resolved consistently, see keysThenView). size counts an answer's entries.
func cached[T any](s *Service, q question, find func() (T, version, bool, error), size func(T) int) (T, error) {
	if a, ok := s.answers.get(q, s.currentVersion()); ok {
		return a.(T), nil
	}
	a, v, exact, err := find()
	if err != nil {
		var none T
		return none, err
	}
	if !exact {
		return a, nil
	}
	s.answers.put(q, v, a, size(a))
	return a, nil
}
