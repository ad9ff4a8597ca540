package explorersvc

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/jobs"
)

// slowBackend is a detached backend whose project list waits until released.
type slowBackend struct {
	*fakeBackend
	release chan struct{}
}

func (b *slowBackend) Detached() bool { return true }

func (b *slowBackend) Projects(ctx context.Context) ([]string, error) {
	<-b.release
	return b.fakeBackend.Projects(ctx)
}

// TestDetachedBackendNeverHoldsTheRunner: a slow (remote) backend's refresh runs beside the
// job runner — a tick returns at once, the next tick starts no second refresh, and the
// results arrive when the backend answers.
func TestDetachedBackendNeverHoldsTheRunner(t *testing.T) {
	f := &fakeBackend{projects: map[string]ProjectResults{}, failing: map[string]bool{}}
	f.set("a", "succeeded", 1)
	b := &slowBackend{fakeBackend: f, release: make(chan struct{})}
	s := &Service{Now: time.Now, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if err := s.UseBackend(b, nil); err != nil {
		t.Fatal(err)
	}
	r := &jobs.Runner{}
	s.registerResults(r)
	for range 3 {
		start := time.Now()
		r.RunOnce(time.Now(), s.Log)
		if took := time.Since(start); took > time.Second {
			t.Fatalf("a tick waited %s for the backend", took)
		}
	}
	close(b.release)
	deadline := time.Now().Add(5 * time.Second)
	for codeOf(t, s, "a") != "succeeded" {
		if time.Now().After(deadline) {
			t.Fatal("the refresh never finished")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
