// Package farm is the build service's simulated build farm: the scheduler (planner.go,
// schedule.go), the workers that run a job by the clock and finish it (workers.go, job.go,
// finish.go), publishing with signed packages and metadata (publish.go), the product builds
// that compose a productcompose definition into an SPDX SBOM and rpm-md (product*.go), the
// release and copy of built binaries (release_*.go), the download tree (download.go), and the
// reads of results, statuses, logs and binaries the /build routes answer (read_*.go,
// results.go).
//
// It runs on the build service's core (package buildsvc): every read here checks read
// protection through the core's ReadableProject and ReadableWhere, and every write commits
// through the core's store. The core never imports this package: a project deleted in the core
// leaves statuses the next pass of the scheduler sweeps. Methods of the core are promoted
// through Farm's embedded *buildsvc.Service, so the farm's code reads as the core's does.
package farm

import (
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// maxDecodedStatuses bounds the build statuses the scheduler keeps decoded (a few hundred bytes
// each).
const maxDecodedStatuses = 16384

// Farm runs the build farm over the build service's core.
type Farm struct {
	*buildsvc.Service
	db   *store.DB
	clk  clock.Clock
	log  *slog.Logger
	opts Options
	// specs keeps the scheduler's parsed specs across passes (speccache.go).
	specs specCache
	// statuses keeps the scheduler's decoded build statuses across passes (planner.go).
	statuses *buildsvc.Decoded[string, buildstore.BuildStatus]
	// farmCounts keeps the last FarmCounts until the next commit (counts.go).
	farmCounts *farmCountsMemo
	// downloadable and downloadFiles remember, until the next commit, whether a repository is
	// in the download tree (project + "\x00" + repository) and its small files (DownloadFile),
	// by project, repository and path.
	downloadable  *store.Memo[string, bool]
	downloadFiles *store.Memo[string, []byte]
	// farmIdle is 1 + the store version at which FarmTick last found the farm idle, 0 when it
	// did not (workers.go).
	farmIdle atomic.Uint64
	// keyReady is set once the instance's global signing key is known to exist (FarmTick makes
	// it before the farm's first pass: the core's signing.go).
	keyReady atomic.Bool
}

// New returns the farm over core, which reads and writes db by clk.
func New(core *buildsvc.Service, db *store.DB, clk clock.Clock, log *slog.Logger, opts Options) *Farm {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Farm{Service: core, db: db, clk: clk, log: log, opts: opts,
		farmCounts:    store.NewMemo[struct{}, FarmCounts](db),
		downloadable:  store.NewMemo[string, bool](db),
		downloadFiles: store.NewMemo[string, []byte](db),
		statuses:      buildsvc.NewDecoded[string](maxDecodedStatuses, buildstore.DecodeStatus)}
}

// RegisterJobs adds the farm's clock job to r. The farm catches up in the background after a
// start: its builds are watched by polling, and its first pass after a restart costs 50-600 ms
// (issue 31). On a shared store every node's workers take jobs; the node that leads also
// schedules and publishes (FarmTick), the others only work (WorkerTick).
func (s *Farm) RegisterJobs(r *jobs.Runner) {
	r.AddWorkers("build-farm", func(_ time.Time, leads bool) error {
		if leads {
			return s.FarmTick()
		}
		return s.WorkerTick()
	})
}
