package api

import (
	"bytes"
	"encoding/base64"
	"log/slog"
	"testing"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
)

// BenchmarkSourceProjectApp (issue 31): GET /source/devel:tools — the demo's small project — with
// Basic auth (a remembered credential, as a client without a cookie jar sends it on every
// request), through the whole stack: the front middleware (request id, readiness gate, access
// log, journal, metrics), then the build API's sign-in, project guard and listing; against a
// bare fiber handler serving the same bytes, both on loopback with 8 keep-alive clients. info is
// the default log level, warn leaves out the access log's line: the gap is the access log's
// share. Budget: ≥ 0.50 of the bare handler (x-raw ≤ 2).
func BenchmarkSourceProjectApp(b *testing.B) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelWarn} {
		b.Run(level.String(), func(b *testing.B) {
			e := newEnv(b, func(c *config.Config) { c.LogLevel = level })
			auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:alice-password"))
			const path = "/source/devel:tools"
			appURL := listenAt(b, e.app, path)
			get := func(url string) []byte { return bench.Get(b, url, auth) }
			body := get(appURL) // warm-up: bcrypt once, then the remembered credential
			if !bytes.Contains(body, []byte(`<directory count="`)) {
				b.Fatalf("listing: %s", body)
			}
			rawURL := bench.ServeBare(b, path, "application/xml; charset=utf-8", body) + path
			bench.Compare(b, 8, func(int) { get(appURL) }, func(int) { get(rawURL) })
		})
	}
}
