// Package explorersvc is the repository explorer's domain: importing product SBOMs into the
// store while keeping the search index in step (Service.Import, Remove, EnsureIndex), following
// a directory of them and the product media the build service publishes (RegisterJobs), and
// the product searches that never show a product half
// imported (SearchPackages, SearchFiles, SearchVCS), with the rules that decide which search
// terms are valid. The HTTP API (api/explorerapi), the offline import-spdx command and serve all
// call it; it knows nothing of HTTP and returns *fault.Error when a rule says no.
package explorersvc

import (
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pocketforge/pocketforge/search/textindex"
	"github.com/pocketforge/pocketforge/store"
)

// Service brings products into the store and keeps the search index in step. An import runs
// in three steps, so a search never sees half a product: the new product's search keys are
// added to the index first (a key that finds nothing yet is harmless), then the store replaces
// the product in one transaction (the switch every search sees whole), then the keys no
// package has any more leave the index. A crash between the steps leaves the index behind the
// store's generation, and EnsureIndex rebuilds it at the next start.
type Service struct {
	// Store holds the products, the data of record.
	Store *store.DB
	// Index is the search index derived from Store; the caller opens and closes it.
	Index *textindex.Index
	// Now stamps imports (the appliance clock).
	Now func() time.Time
	// Log receives the rebuild and the directory watcher's lines (nil: none for the rebuild).
	Log *slog.Logger
	// Builds reads the build results the fork-builds answer shows (git.go); nil: forks are
	// listed without results.
	Builds BuildResults
	// GitOrg is the organization fork-builds reads when a request names none ("": pool).
	GitOrg string
	// BinaryTimeout bounds a binary search (SearchBinaries); 0 is DefaultBinaryTimeout, the
	// seed's 60 seconds. Tests set a tiny one to see the 504.
	BinaryTimeout time.Duration
	mu            sync.Mutex // one import at a time: the steps above must not interleave
	// answers keeps recent search answers by question and content version (search_cache.go).
	answers answerCache
	// backend is the build service the explorer follows and results caches its projects' build
	// results (results_cache.go); both nil until UseBackend.
	backend Backend
	results *resultsCache
	// follower imports the product media the backend published (products_follow.go); nil
	// until UseBackend.
	follower *productFollower
	// instanceName caches the build service's own name (entry_builds.go): it is the service's
	// identity, never changed once set, so it is read from the backend once.
	instanceName atomic.Pointer[string]
}

// NewMemory is a service whose index lives in memory, filled from the store now: for callers
// that keep no index on disk (tests, ephemeral appliances).
func NewMemory(db *store.DB, now func() time.Time, log *slog.Logger) *Service {
	ix, _, err := textindex.Open("")
	if err != nil {
		panic(fmt.Sprintf("an in-memory search index: %v", err)) // cannot fail but for a broken mapping
	}
	s := &Service{Store: db, Index: ix, Now: now, Log: log}
	if err := s.EnsureIndex(false); err != nil && log != nil {
		log.Error("explorer search index", "err", err)
	}
	return s
}
