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
}

type job struct {
	name string
	run  func(now time.Time) error
}

// Add registers a job.
func (j *Runner) Add(name string, run func(now time.Time) error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.list = append(j.list, job{name, run})
}

// RunOnce runs every job once at now. A failing or panicking job is logged and does not stop the
// others.
func (j *Runner) RunOnce(now time.Time, log *slog.Logger) {
	j.mu.Lock()
	list := append([]job(nil), j.list...)
	j.mu.Unlock()
	for _, jb := range list {
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

// Start runs Run in a goroutine and returns the function that stops it: stop waits until the
// job running at that moment has finished, so the store is never closed under a job.
func (j *Runner) Start(interval time.Duration, now func() time.Time, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		j.Run(ctx, interval, now, log)
	}()
	return func() {
		cancel()
		<-done
	}
}
