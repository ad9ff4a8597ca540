// Package search is the build service's searches: the xpath searches (/search/request, /search/package, /search/project and their /id
// forms): the `match` predicate compiled by search/xpath as OBS takes it, evaluated on each
// record's document as the service renders it — a request with its full history (so
// `history/@who` finds who changed it), a package or project meta as GET …/_meta shows it.
//
// A search reads its candidates from the indexes its plan allows, else streams every record of
// its root with one cursor (plan.go); each candidate is tested on its key or stored
// bytes before it is decoded, and evaluated with antchfx on its document only if that test
// passes: the answer is always what evaluating the predicate on every record gives. What who
// may not see is skipped before it is counted: requests RequestVisible refuses, projects hidden
// from who and their packages. Simplified: OBS orders requests by priority and age; here they
// come in id order.
//
// The owner, binary, people, issue and repository searches live here too (owner*.go,
// binaries*.go, people.go, issues.go, repositories.go). The package runs on the build
// service's core (package buildsvc), whose read protection it applies; the core never imports
// it.
package search

import (
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// maxDecodedPackages bounds the decoded packages kept (about 800 bytes each with their stored
// bytes: at most some 26 MB), enough for the largest project's listing to come from the cache.
const maxDecodedPackages = 32768

// Service runs the searches over the build service's core, whose methods it promotes.
type Service struct {
	*buildsvc.Service
	db *store.DB
	// requests and packages keep recently decoded records for the searches.
	requests *buildsvc.Decoded[uint64, buildstore.Request]
	packages *buildsvc.Decoded[string, buildstore.Package]
	// scanPublished makes the published binary search walk every published tree even when the
	// published name index could answer: tests compare the two.
	scanPublished bool
}

// New returns the searches over core, which reads db.
func New(core *buildsvc.Service, db *store.DB) *Service {
	return &Service{Service: core, db: db,
		requests: buildsvc.NewDecoded[uint64](maxDecodedRequests, buildstore.DecodeRequest),
		packages: buildsvc.NewDecoded[string](maxDecodedPackages, buildstore.DecodePackage)}
}
