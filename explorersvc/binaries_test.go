package explorersvc

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/fault"
)

// SearchBinaries over a backend that is not the build service: a remote one's scmsync URL
// gives the git fields, a slow one answers ErrTimedOut at the deadline instead of hanging the
// caller, a failing one is a 500-kind error, not a refusal.

// binariesBackend answers Binaries from its fields, after delay.
type binariesBackend struct {
	*fakeBackend
	bins  []Binary
	err   error
	delay time.Duration
}

func (b *binariesBackend) Binaries(ctx context.Context, name string) ([]Binary, error) {
	time.Sleep(b.delay)
	return b.bins, b.err
}

func (b *binariesBackend) Configuration(context.Context) (BackendConfig, error) {
	return BackendConfig{Settings: []Setting{{Name: "download_url", Value: "https://dl.test/repositories/"}}}, nil
}

func newBinariesService(t *testing.T, b *binariesBackend) *Service {
	t.Helper()
	b.fakeBackend = &fakeBackend{projects: map[string]ProjectResults{}, failing: map[string]bool{}}
	s := &Service{Now: time.Now}
	if err := s.UseBackend(b, nil); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSearchBinariesRemoteSource(t *testing.T) {
	s := newBinariesService(t, &binariesBackend{bins: []Binary{{Name: "bash", Filename: "bash-5.2-1.1.x86_64.rpm",
		Project: "openSUSE:Factory", Package: "bash", Repository: "standard", Arch: "x86_64", Version: "5.2",
		Path: "openSUSE:/Factory/standard/x86_64/bash-5.2-1.1.x86_64.rpm", SourceURL: "https://src.opensuse.org/pool/bash.git"}}})
	found, err := s.SearchBinaries(context.Background(), "bash")
	if err != nil {
		t.Fatal(err)
	}
	if len(found.WithSCM) != 1 || len(found.WithoutSCM) != 0 {
		t.Fatalf("found %+v", found)
	}
	r := found.WithSCM[0]
	if r.GitOrg != "pool" || r.GitRepo != "bash" || r.DownloadURL != "https://dl.test/repositories/openSUSE:/Factory/standard/x86_64/bash-5.2-1.1.x86_64.rpm" {
		t.Errorf("result %+v", r)
	}
}

func TestSearchBinariesSlowBackend(t *testing.T) {
	s := newBinariesService(t, &binariesBackend{delay: 2 * time.Second})
	s.BinaryTimeout = 50 * time.Millisecond
	start := time.Now()
	_, err := s.SearchBinaries(context.Background(), "bash")
	if !errors.Is(err, ErrTimedOut) {
		t.Fatalf("err %v, want ErrTimedOut", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the search waited %v for a backend past its deadline", took)
	}
}

func TestSearchBinariesFailingBackend(t *testing.T) {
	s := newBinariesService(t, &binariesBackend{err: errors.New("connection refused")})
	_, err := s.SearchBinaries(context.Background(), "bash")
	if err == nil || errors.Is(err, ErrTimedOut) || errors.As(err, new(*fault.Error)) {
		t.Errorf("err %v, want an error of no fault kind (a 500)", err)
	}
}
