// Package buildsvc is the build service's domain: every rule of the build API lives here — who
// may read and write what (roles, read protection, locks), which source tree a request sees
// (revisions, uploads, link expansion), and the operations on projects, packages, sources,
// people and attributes. The HTTP handlers in api/buildapi parse a request, call one function
// here and render the answer; fixtures, CLI commands and background jobs call the same
// functions, so no rule exists twice.
//
// Link expansion is here (links_expand.go: a _link's target and revision, its patches, the
// branch's 3-way merge, the target tree keeplink commits against), and so is the issue scan of
// a tree (issues_scan.go: .changes files, a patchinfo, a link against its target). The store
// (store/buildstore) keeps their records only — the expansions by xsrcmd5, the issue records
// and index — and a commit is made here: CommitTree and CommitRevision append the revision
// record, then index the issues its tree names, in the commit's transaction.
//
// Errors are *fault.Error values carrying the build service's wire code (unknown_project,
// source_access_no_permission, …) and the store sentinel that decides the HTTP status in
// api/kit's one table. This package imports neither fiber nor api/*.
//
// Functions that need an open transaction take the *bbolt.Tx first (fixtures load the demo
// world inside their own transaction); Service methods open their own.
package buildsvc

import (
	"io"
	"log/slog"
	"time"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
)

// Options are the build service's settings from the configuration.
type Options struct {
	// FileLimit is the largest source file a write stores (--source-file-limit); 0: no limit
	// beyond the HTTP body limit.
	FileLimit int64
	// KeyRand is what the instance's global signing key is made from (nil: crypto/rand). The
	// fixtures' scratch build of the Pocket 0.9 medium gives a fixed stream, so the medium it
	// embeds — signed packages, signed metadata — is the same bytes every time.
	KeyRand io.Reader
}

// Service runs the build service's operations on the store.
type Service struct {
	db   *store.DB
	clk  clock.Clock
	log  *slog.Logger
	opts Options
	// signIns throttles failed password sign-ins (people_auth.go's policy).
	signIns *ratelimit.SignIns
	// memory remembers persons and verified credentials for sign-ins (people_memory.go).
	memory *signInMemory
	// mayHide and packageNames remember, until the next commit, whether a project may hide
	// from anyone (GuardProject) and its live packages' names (Packages).
	mayHide      *store.Memo[string, bool]
	hiddenFrom   *store.Memo[string, bool] // project + "\x00" + login: whether it hides from them
	packageNames *store.Memo[string, []string]
	// downloads holds the /published downloads not yet counted (download_queue.go).
	downloads downloadQueue
}

// New returns the build service over db.
func New(db *store.DB, clk clock.Clock, log *slog.Logger, opts Options) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, clk: clk, log: log, opts: opts,
		signIns:      ratelimit.NewSignIns(clk.Now, loginLockPolicy, ipLockPolicy),
		memory:       newSignInMemory(),
		mayHide:      store.NewMemo[string, bool](db),
		hiddenFrom:   store.NewMemo[string, bool](db),
		packageNames: store.NewMemo[string, []string](db)}
}

// Now is the appliance clock's time.
func (s *Service) Now() time.Time { return s.clk.Now() }

// FileLimit is the largest source file a write stores; 0: no limit.
func (s *Service) FileLimit() int64 { return s.opts.FileLimit }

// RegisterJobs adds the build service's clock jobs to r: the sweep of uploads never committed,
// and the download counters.
func (s *Service) RegisterJobs(r *jobs.Runner) {
	r.Add("build-blob-sweep", s.SweepBlobs)
	r.AddEveryNode("build-download-counts", func(time.Time) error { return s.FlushDownloads() }) // counted in this process's memory
}
