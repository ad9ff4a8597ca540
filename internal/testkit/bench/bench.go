// Package bench holds the one helper every hot-path benchmark uses to time pocketforge against the
// raw layer beneath it (bbolt, fiber, bleve, xpath) in the same run and print the ratio, so a
// regression or an unexpected ceiling shows as a number next to its limit.
package bench

import (
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// rounds is how many alternating slices Compare cuts b.N into: app and raw take turns, so a
// burst of load on a shared 2-core machine, or the garbage one side leaves behind, falls on both
// sides alike instead of skewing the ratio.
const rounds = 10

// Compare times b.N calls of app and b.N calls of raw, in alternating slices, each slice spread
// over conc goroutines (1: sequential). ns/op is app's; it reports raw's as "raw-ns/op" and app's
// time divided by raw's as "x-raw" (1.0 = no overhead; 2.0 = twice as slow as the raw layer),
// and returns x-raw (a benchmark that states its budget as a share of the raw layer's
// requests/s reports 1/x-raw as "of-bare": OfBare).
func Compare(b *testing.B, conc int, app, raw func(i int)) float64 {
	b.Helper()
	b.ResetTimer()
	b.StopTimer()
	var appD, rawD time.Duration
	per := (b.N + rounds - 1) / rounds
	for done := 0; done < b.N; done += per {
		n, base := min(per, b.N-done), done
		b.StartTimer()
		appD += Run(n, conc, func(i int) { app(base + i) })
		b.StopTimer()
		rawD += Run(n, conc, func(i int) { raw(base + i) })
	}
	b.ReportMetric(float64(rawD.Nanoseconds())/float64(b.N), "raw-ns/op")
	x := float64(appD) / float64(rawD)
	b.ReportMetric(x, "x-raw")
	return x
}

// OfBare times app against raw as Compare does and also reports our requests/s over raw's as
// "of-bare" (0.70 = we answer 70 % as many requests as the bare handler), the form the request
// budgets of issue 31 are stated in.
func OfBare(b *testing.B, conc int, app, raw func(i int)) {
	b.Helper()
	b.ReportMetric(1/Compare(b, conc, app, raw), "of-bare")
}

// Run calls op(i) for i in [0, n) on conc goroutines and returns the wall time taken.
func Run(n, conc int, op func(i int)) time.Duration {
	if conc < 1 {
		conc = 1
	}
	start := time.Now()
	if conc == 1 {
		for i := 0; i < n; i++ {
			op(i)
		}
		return time.Since(start)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < conc; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				op(int(i))
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// OfBareCPU times b.N calls of app against b.N of raw, one at a time in alternating slices as
// Compare does, by the CPU time the process spends (user and system, all threads: the garbage
// collector's share included) instead of the wall clock: on a machine other work keeps busy, a
// slice that waits for a core costs no CPU time, so the ratio holds still where a wall-clock one
// swings. It reports "cpu-ns/op" (app's) and "raw-cpu-ns/op", and "of-bare" = raw's CPU time
// over app's (0.70: app does the same request with 1/0.70 of raw's CPU). For handlers called
// in process (no sockets), nothing else may run in the process meanwhile.
func OfBareCPU(b *testing.B, app, raw func(i int)) {
	b.Helper()
	b.ResetTimer()
	var appD, rawD time.Duration
	per := (b.N + rounds - 1) / rounds
	for done := 0; done < b.N; done += per {
		n, base := min(per, b.N-done), done
		appD += cpuTime(func() {
			for i := 0; i < n; i++ {
				app(base + i)
			}
		})
		rawD += cpuTime(func() {
			for i := 0; i < n; i++ {
				raw(base + i)
			}
		})
	}
	b.ReportMetric(float64(appD.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(rawD.Nanoseconds())/float64(b.N), "raw-cpu-ns/op")
	b.ReportMetric(float64(rawD)/float64(appD), "of-bare")
}

// cpuTime is the CPU time (user + system) the process spent while fn ran.
func cpuTime(fn func()) time.Duration {
	before := processCPU()
	fn()
	return processCPU() - before
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
