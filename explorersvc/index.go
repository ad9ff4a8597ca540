package explorersvc

import (
	"time"

	"github.com/pocketforge/pocketforge/search/textindex"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// EnsureIndex rebuilds the index when it does not reflect the store's generation (a new or
// damaged index, a crash between an import's steps, a restored snapshot); otherwise it does
// nothing. force rebuilds anyway (after reset, reseed or restore replaced the data). Records
// an import staged and did not move into place before a crash are dropped first.
func (s *Service) EnsureIndex(force bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var gen uint64
	var staged bool
	_ = s.Store.View(func(tx kv.Tx) error {
		gen, staged = explorerstore.Generation(tx), explorerstore.HasStaged(tx)
		return nil
	})
	if staged {
		if err := s.Store.Write(explorerstore.DropStaged); err != nil {
			return err
		}
	}
	return s.rebuildIndex(gen, force)
}

// FollowIndex rebuilds the search index when the store's explorer generation moved past it —
// another node of a shared store imported or removed products — without EnsureIndex's sweep of
// a half-written import (which on this node would be another node's import in progress).
func (s *Service) FollowIndex() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var gen uint64
	_ = s.Store.View(func(tx kv.Tx) error { gen = explorerstore.Generation(tx); return nil })
	return s.rebuildIndex(gen, false)
}

// rebuildIndex rebuilds the index from the store unless it is at gen already; s.mu is held.
func (s *Service) rebuildIndex(gen uint64, force bool) error {
	if !force && gen == s.Index.Generation() {
		return nil
	}
	started := time.Now()
	n := 0
	err := s.Index.Rebuild(func(yield func(textindex.Doc) error) error {
		return s.Store.View(func(tx kv.Tx) error {
			gen = explorerstore.Generation(tx)
			if err := explorerstore.EachKey(tx, store.ExplorerByName, func(k string) error { n++; return yield(textindex.NameDoc(k)) }); err != nil {
				return err
			}
			return explorerstore.EachKey(tx, store.ExplorerByVCS, func(k string) error {
				n++
				org, repo, branch, commit := explorerstore.SplitVCSKey(k)
				return yield(textindex.VCSDoc(k, org, repo, branch, commit))
			})
		})
	}, gen)
	s.answers.clear() // answers found with the old index may differ from the new one's
	if err == nil && s.Log != nil {
		s.Log.Info("explorer search index rebuilt", "keys", n, "generation", gen, "ms", time.Since(started).Milliseconds())
	}
	return err
}

// IndexStats are the search index's size and generation, with the store's generation beside
// it (the two differ while the index is behind), for the metrics.
func (s *Service) IndexStats() (ix textindex.Stats, storeGeneration uint64) {
	_ = s.Store.View(func(tx kv.Tx) error { storeGeneration = explorerstore.Generation(tx); return nil })
	return s.Index.Stats(), storeGeneration
}
