// Package jobs runs the appliance's clock-driven background work. serve builds one Runner, each
// domain registers its jobs on it, and serve runs them until it stops.
package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Runner runs the appliance's clock-driven background work (transfer expiry and completion,
// monthly invoices, database provisioning…). Each job reads its state from the store and acts
// on what is due at now, so a restart — or a jump of the dev clock — simply resumes: nothing is
// kept in memory between runs.
type Runner struct {
	mu   sync.Mutex
	list []job
	// Gate, when set, says whether this process runs the jobs now: on a shared store only the
	// node holding the singletons' lease does (store.Leader.Held); the others skip every pass.
	Gate func() bool
}

type job struct {
	name string
	run  func(now time.Time) error
	// background: the job's first pass after a start need not come before readiness
	// (CatchUp skips it; Start runs it at once).
	background bool
	// everyNode: the job keeps this process's own state (a cache, counters held in memory), so
	// it runs whatever Gate says.
	everyNode bool
}

// Add registers a job.
func (j *Runner) Add(name string, run func(now time.Time) error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list = append(j.list, job{name: name, run: run})
}

// AddBackground registers a job whose catching up after a start may run while the appliance
// already serves: work clients watch progress by, as the build farm's simulated builds, where
// a start that waited for it would wait for work proportional to what was queued when it
// stopped (tens to hundreds of ms).
func (j *Runner) AddBackground(name string, run func(now time.Time) error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list = append(j.list, job{name: name, run: run, background: true})
}

// AddEveryNode registers a job that keeps this process's own state — a cache of what the store
// holds, counters kept in memory until flushed — and so runs on every node of a shared store,
// leading or not.
func (j *Runner) AddEveryNode(name string, run func(now time.Time) error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list = append(j.list, job{name: name, run: run, everyNode: true})
}

// AddWorkers registers a background job that runs on every node of a shared store and is told
// whether this node leads: the build farm's workers, which every node runs, while only the
// leading node schedules and publishes.
func (j *Runner) AddWorkers(name string, run func(now time.Time, leads bool) error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list = append(j.list, job{name: name, run: func(now time.Time) error { return run(now, j.Leads()) }, background: true, everyNode: true})
}

// Leads reports whether this process runs the singleton jobs now (see Gate).
func (j *Runner) Leads() bool { return j.Gate == nil || j.Gate() }

// CatchUp runs once, at now, every job but the background ones: what came due while the
// appliance was stopped (expiries, invoices, database listeners) is done before it reports
// ready.
func (j *Runner) CatchUp(now time.Time, log *slog.Logger) {
	j.run(now, log, false)
}

// RunOnce runs every job once at now. A failing or panicking job is logged and does not stop the
// others.
func (j *Runner) RunOnce(now time.Time, log *slog.Logger) {
	j.run(now, log, true)
}

func (j *Runner) run(now time.Time, log *slog.Logger, background bool) {
	leads := j.Leads()
	j.mu.Lock()
	list := append([]job(nil), j.list...)
	j.mu.Unlock()
	for _, jb := range list {
		if jb.background && !background || !leads && !jb.everyNode {
			continue
		}
		if err := safeRun(jb, now); err != nil {
			log.Error("background job failed", "job", jb.name, "err", err)
		}
	}
}

func safeRun(jb job, now time.Time) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return jb.run(now)
}

// Run calls RunOnce every interval until ctx ends, reading the time from now (the appliance
// clock).
func (j *Runner) Run(ctx context.Context, interval time.Duration, now func() time.Time, log *slog.Logger) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			j.RunOnce(now(), log)
		}
	}
}

// Start runs every job once at once (the background jobs' catching up after CatchUp), then Run,
// in a goroutine, and returns the function that stops it: stop waits until the job running at
// that moment has finished, so the store is never closed under a job.
func (j *Runner) Start(interval time.Duration, now func() time.Time, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		j.RunOnce(now(), log)
		j.Run(ctx, interval, now, log)
	}()
	return func() {
		cancel()
		<-done
	}
}
