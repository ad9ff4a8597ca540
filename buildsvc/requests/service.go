// Package requests is the build service's requests and reviews: change proposals with actions
// on target projects and packages, reviews that must pass first, and a state machine
// (state.go) whose accept applies the actions (accept.go). The rules follow OBS 2.7
// (build-notes §5): who may create, review, accept, decline, revoke and reopen, with its error
// codes and messages.
//
// Read protection is the core's: a request is readable by every signed-in person, as in OBS,
// unless every project it names is hidden from them (buildsvc.RequestVisible; then it answers
// 404 like a missing one), so a hidden project's requests do not leak its name.
//
// It runs on the build service's core (package buildsvc), whose operations — commits,
// branches, releases, incidents — an accepted request applies; the core never imports it.
package requests

import (
	"log/slog"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/store"
)

// Service runs the requests and reviews over the build service's core, whose methods it
// promotes.
type Service struct {
	*buildsvc.Service
	db  *store.DB
	clk clock.Clock
	log *slog.Logger
}

// New returns the requests over core, which reads and writes db by clk.
func New(core *buildsvc.Service, db *store.DB, clk clock.Clock, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{Service: core, db: db, clk: clk, log: log}
}

// RegisterJobs adds the requests' clock job to r: the requests accepted at the time set for
// them.
func (s *Service) RegisterJobs(r *jobs.Runner) {
	r.Add("build-request-accept-at", s.AcceptDue)
}
