package cloudapi

import (
	"slices"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// timedGets sends authenticated GETs of one URL (with an X-Filter when given) and keeps each
// request's duration, so a benchmark can report p50 and p99 beside its ns/op.
type timedGets struct {
	b      *testing.B
	client *fasthttp.Client
	url    string
	filter string
	took   []time.Duration
}

func newTimedGets(b *testing.B, url, filter string) *timedGets {
	return &timedGets{b: b, client: &fasthttp.Client{MaxConnsPerHost: 8, ReadTimeout: 10 * time.Second}, url: url, filter: filter}
}

// get sends one request (i is bench.Compare's index, unused) and fails the benchmark on a non-200.
func (t *timedGets) get(int) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(t.url)
	req.Header.Set("Authorization", "Bearer "+demoToken)
	if t.filter != "" {
		req.Header.Set("X-Filter", t.filter)
	}
	t0 := time.Now()
	if err := t.client.Do(req, resp); err != nil || resp.StatusCode() != 200 {
		t.b.Fatalf("GET %s: %v %d %s", t.url, err, resp.StatusCode(), resp.Body())
	}
	t.took = append(t.took, time.Since(t0))
}

// forget drops the durations so far (a warm-up request).
func (t *timedGets) forget() { t.took = t.took[:0] }

// report adds the p50 and p99 of the kept durations, in milliseconds.
func (t *timedGets) report() {
	slices.Sort(t.took)
	t.b.ReportMetric(float64(t.took[len(t.took)/2].Microseconds())/1000, "p50-ms")
	t.b.ReportMetric(float64(t.took[len(t.took)*99/100].Microseconds())/1000, "p99-ms")
}
