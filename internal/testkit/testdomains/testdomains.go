// Package testdomains opens the domains for a test the way serve does (domains.Open, the one
// constructor), with what a test that runs in parallel with others needs instead of serve's
// settings: the explorer's search index in memory and the cloud's sqldb instances as simulated
// records (no listener on the shared port range), all closed when the test ends.
package testdomains

import (
	"log/slog"
	"testing"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/store"
)

// Open opens the domains over db for t from a copy of cfg; url is the external URL (nil: "").
func Open(t testing.TB, cfg *config.Config, db *store.DB, clk clock.Clock, log *slog.Logger, url func() string, opts ...domains.Option) *domains.Set {
	t.Helper()
	c := *cfg
	c.Ephemeral, c.SQLDBListen = true, "off"
	if url == nil {
		url = func() string { return "" }
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d, err := domains.Open(&c, db, clk, log, url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}
