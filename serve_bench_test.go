package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/config"
)

// BenchmarkStartToReady: from serve() on a new data file (open, credentials, listener, demo
// fixtures) until /_appliance/readyz answers 200, then an orderly stop. Budget: 1 s.
func BenchmarkStartToReady(b *testing.B) {
	for i := 0; i < b.N; i++ {
		cfg, err := config.Load([]string{"--addr", "127.0.0.1:0", "--data", filepath.Join(b.TempDir(), "d.db"),
			"--bootstrap-token", "bench-token-0001", "--log-level", "warn"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		urls := make(chan string, 1)
		done := make(chan error, 1)
		begin := time.Now()
		go func() { done <- serve(ctx, cfg, io.Discard, io.Discard, func(u string) { urls <- u }) }()
		url := <-urls
		for {
			resp, err := http.Get(url + "/_appliance/readyz")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					break
				}
			}
			time.Sleep(time.Millisecond)
		}
		b.ReportMetric(float64(time.Since(begin).Microseconds())/1000, "ms-to-ready")
		cancel()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
	}
}
