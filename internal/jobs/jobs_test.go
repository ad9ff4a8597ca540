package jobs

import (
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunOnceIsolatesFailures: a failing or panicking job is logged and the others still run.
func TestRunOnceIsolatesFailures(t *testing.T) {
	var r Runner
	var ran atomic.Int32
	r.Add("fails", func(time.Time) error { return errors.New("boom") })
	r.Add("panics", func(time.Time) error { panic("boom") })
	r.Add("works", func(time.Time) error { ran.Add(1); return nil })
	r.RunOnce(time.Now(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if ran.Load() != 1 {
		t.Fatalf("the working job ran %d times", ran.Load())
	}
}

// TestStopWaitsForTheRunningJob: stop returns only after the job running at that moment has
// finished, so serve can close the store right after it.
func TestStopWaitsForTheRunningJob(t *testing.T) {
	var r Runner
	started, finished := make(chan struct{}), atomic.Bool{}
	var once atomic.Bool
	r.Add("slow", func(time.Time) error {
		if once.CompareAndSwap(false, true) {
			close(started)
			time.Sleep(100 * time.Millisecond)
			finished.Store(true)
		}
		return nil
	})
	stop := r.Start(time.Millisecond, time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	<-started
	stop()
	if !finished.Load() {
		t.Fatal("stop returned while the job was still running")
	}
}

// TestCatchUpLeavesBackgroundJobsToStart: CatchUp runs the jobs readiness waits for and not the
// background ones; Start runs those at once, not a tick later.
func TestCatchUpLeavesBackgroundJobsToStart(t *testing.T) {
	var r Runner
	var due, farm atomic.Int32
	r.Add("due", func(time.Time) error { due.Add(1); return nil })
	r.AddBackground("farm", func(time.Time) error { farm.Add(1); return nil })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	r.CatchUp(time.Now(), log)
	if due.Load() != 1 || farm.Load() != 0 {
		t.Fatalf("after CatchUp: due ran %d times, farm %d", due.Load(), farm.Load())
	}
	stop := r.Start(time.Hour, time.Now, log)
	for deadline := time.Now().Add(10 * time.Second); farm.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	stop()
	if farm.Load() != 1 {
		t.Fatalf("Start ran the background job %d times before its first tick, want 1", farm.Load())
	}
}
