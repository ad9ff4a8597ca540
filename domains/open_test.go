package domains

import (
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/config"
	remotebackend "github.com/pocketforge/pocketforge/explorersvc/remote"
	"github.com/pocketforge/pocketforge/store"
)

// TestDomainsChooseTheExplorerBackend: without --explorer-backend the explorer reads the
// appliance's own build service; with it, the remote — results, fork builds and configuration
// alike — through the client serve hands the proxy.
func TestDomainsChooseTheExplorerBackend(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	for _, ephemeral := range []bool{false, true} {
		for _, remote := range []string{"", down} {
			args := []string{"--data", filepath.Join(t.TempDir(), "d.db"), "--explorer-backend", remote}
			if ephemeral {
				args = append(args, "--ephemeral")
			}
			cfg, err := config.Load(args, nil)
			if err != nil {
				t.Fatal(err)
			}
			db, err := store.Open(cfg.Data, store.Options{Durability: store.NoSync})
			if err != nil {
				t.Fatal(err)
			}
			d, err := Open(cfg, db, clock.NewSettable(0), slog.New(slog.NewTextHandler(io.Discard, nil)), func() string { return "http://localhost" })
			if err != nil {
				t.Fatal(err)
			}
			_, confErr := d.Explorer.BackendConfiguration(context.Background())
			_, isRemote := d.Explorer.Builds.(*remotebackend.Backend)
			switch {
			case remote == "" && (d.Remote != nil || confErr != nil || isRemote):
				t.Errorf("in process (ephemeral %v): remote %v, configuration %v, builds %T", ephemeral, d.Remote, confErr, d.Explorer.Builds)
			case remote != "" && (d.Remote == nil || confErr == nil || !strings.Contains(confErr.Error(), "could not be reached") || !isRemote):
				t.Errorf("remote (ephemeral %v): remote %v, configuration %v, builds %T", ephemeral, d.Remote, confErr, d.Explorer.Builds)
			}
			d.Close()
			db.Close()
		}
	}
}
