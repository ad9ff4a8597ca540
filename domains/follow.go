package domains

import (
	"log/slog"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// follow keeps this node's derived state in step with the other nodes' commits on a shared
// store (store.DB.OnFollow): the memos and caches keyed by the store's version need nothing
// (following moves it); the build domain's sign-in memory forgets persons and verified
// credentials when person records changed; the explorer's search index is rebuilt when the
// products changed (in the background, one rebuild at a time, the last change always seen).
func (s *Set) follow(db *store.DB, log *slog.Logger) {
	kick, stop := make(chan struct{}, 1), make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-kick:
			}
			if err := s.Explorer.FollowIndex(); err != nil && log != nil {
				log.Error("following the explorer's search index failed", "err", err)
			}
		}
	}()
	s.stopFollow = func() { close(stop) }
	db.OnFollow(func(buckets []string) {
		for _, b := range buckets {
			if b == "" || b == store.BuildPersons {
				buildstore.PersonsReplaced()
			}
			if b == "" || strings.HasPrefix(b, "explorer/") {
				select {
				case kick <- struct{}{}:
				default: // a rebuild is due already
				}
			}
		}
	})
}
