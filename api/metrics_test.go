package api

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// families is one scrape, parsed by the Prometheus text parser.
type families map[string]*dto.MetricFamily

// scrape reads /_appliance/metrics with the bootstrap token.
func (e *env) scrape(t *testing.T) families {
	t.Helper()
	got := apitest.Do(t, e.app, apitest.Request{Path: "/_appliance/metrics", Bearer: token})
	if got.Status != 200 {
		t.Fatalf("scrape: %d %s", got.Status, got.Body)
	}
	return parseMetrics(t, got.Body)
}

func parseMetrics(t *testing.T, text string) families {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("parsing the scrape: %v\n%s", err, text)
	}
	return fams
}

// value is the value of the series of name with exactly labels (a counter, gauge or a
// histogram's sample count); 0 when absent.
func (f families) value(name string, labels ...string) float64 {
	fam := f[name]
	if fam == nil {
		return 0
	}
	want := map[string]string{}
	for i := 0; i+1 < len(labels); i += 2 {
		want[labels[i]] = labels[i+1]
	}
	for _, m := range fam.Metric {
		if len(m.Label) != len(want) {
			continue
		}
		match := true
		for _, l := range m.Label {
			if want[l.GetName()] != l.GetValue() {
				match = false
			}
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	return 0
}

// TestMetricsCountTraffic sends known traffic and checks that the scrape moved by exactly it:
// requests by API, route pattern (never the raw path) and status, their latency, a failed
// sign-in of each kind, a rate-limit refusal; and that the data file's and the farm's figures
// are there.
func TestMetricsCountTraffic(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.ExplorerRate = config.Rate{Max: 3, Window: time.Hour} })
	before := e.scrape(t)

	// Three GETs of one explorer route with different packages: one series, the pattern's.
	const branches = "/api/packages/:package/branches"
	var statuses []int
	for _, pkg := range []string{"alpha", "beta", "gamma"} {
		got := apitest.Do(t, e.app, apitest.Request{Path: "/api/packages/" + pkg + "/branches"})
		statuses = append(statuses, got.Status)
	}
	// The fourth is over the explorer's limit of 3: refused by the /api group's middleware.
	if got := apitest.Do(t, e.app, apitest.Request{Path: "/api/packages/delta/branches"}); got.Status != 429 {
		t.Fatalf("4th explorer call: %d, want 429", got.Status)
	}
	if got := apitest.Do(t, e.app, apitest.Request{Path: "/no/such/page"}); got.Status != 404 {
		t.Fatalf("unknown page: %d", got.Status)
	}
	if got := apitest.Do(t, e.app, apitest.Request{Path: "/about", Header: map[string]string{
		"Authorization": "Basic QWRtaW46d3Jvbmc="}}); got.Status != 401 { // Admin:wrong
		t.Fatalf("build sign-in with a wrong password: %d", got.Status)
	}
	if got := apitest.Do(t, e.app, apitest.Request{Path: "/_appliance/clock", Bearer: "not-the-token"}); got.Status != 401 {
		t.Fatalf("wrong bootstrap token: %d", got.Status)
	}
	if err := e.db.Write(func(tx kv.Tx) error { return tx.Bucket([]byte(store.BucketOutbox)).Put([]byte("m"), []byte(`{}`)) }); err != nil {
		t.Fatal(err)
	}
	after := e.scrape(t)

	delta := func(name string, labels ...string) float64 {
		return after.value(name, labels...) - before.value(name, labels...)
	}
	want := map[int]float64{}
	for _, s := range statuses {
		want[s]++
	}
	for status, n := range want {
		if d := delta("pocketforge_http_requests_total", "api", "explorer", "method", "GET", "route", branches, "status", fmt.Sprint(status)); d != n {
			t.Errorf("requests of %s with %d moved by %v, want %v", branches, status, d, n)
		}
	}
	checks := []struct {
		what   string
		name   string
		labels []string
		want   float64
	}{
		{"latency observations of the route", "pocketforge_http_request_duration_seconds", []string{"api", "explorer", "route", branches}, 3},
		{"the 429 under /api", "pocketforge_http_requests_total", []string{"api", "explorer", "method", "GET", "route", "/api/*", "status", "429"}, 1},
		{"the unknown page's 404", "pocketforge_http_requests_total", []string{"api", "web", "method", "GET", "route", "unmatched", "status", "404"}, 1},
		{"the build API's 401", "pocketforge_http_requests_total", []string{"api", "build", "method", "GET", "route", "/about", "status", "401"}, 1},
		{"the wrong token's 401", "pocketforge_http_requests_total", []string{"api", "appliance", "method", "GET", "route", "/_appliance/*", "status", "401"}, 1},
		{"the first scrape", "pocketforge_http_requests_total", []string{"api", "appliance", "method", "GET", "route", "/_appliance/metrics", "status", "200"}, 1},
		{"the explorer's refusal", "pocketforge_ratelimit_refusals_total", []string{"api", "explorer", "limit", "explorer"}, 1},
		{"the failed build sign-in", "pocketforge_signin_failures_total", []string{"api", "build"}, 1},
		{"the wrong bootstrap token", "pocketforge_signin_failures_total", []string{"api", "appliance"}, 1},
		{"no cloud sign-in", "pocketforge_signin_failures_total", []string{"api", "cloud"}, 0},
	}
	for _, c := range checks {
		if d := delta(c.name, c.labels...); d != c.want {
			t.Errorf("%s: %s%v moved by %v, want %v", c.what, c.name, c.labels, d, c.want)
		}
	}
	for _, raw := range []string{"/api/packages/alpha/branches", "/no/such/page"} {
		for _, m := range after["pocketforge_http_requests_total"].Metric {
			for _, l := range m.Label {
				if l.GetValue() == raw {
					t.Errorf("a raw path became a label: %s", raw)
				}
			}
		}
	}
	// Every commit since New is timed: the one written above at least.
	if c, d := delta("pocketforge_bbolt_commits_total"), delta("pocketforge_bbolt_commit_duration_seconds"); c < 1 || d != c {
		t.Errorf("commits moved by %v, their durations by %v: want equal and >= 1", c, d)
	}
	for _, name := range []string{"pocketforge_bbolt_file_size_bytes", "pocketforge_bbolt_commits_total", "pocketforge_buildfarm_workers"} {
		if after.value(name) <= 0 {
			t.Errorf("%s is %v, want > 0", name, after.value(name))
		}
	}
	for _, name := range []string{"pocketforge_search_index_documents", "pocketforge_search_index_generation",
		"pocketforge_search_store_generation", "go_goroutines", "process_resident_memory_bytes"} {
		if after[name] == nil {
			t.Errorf("%s missing", name)
		}
	}
	if after["pocketforge_buildfarm_jobs"] == nil || len(after["pocketforge_buildfarm_jobs"].Metric) < len(farmStatesWanted) {
		t.Errorf("build farm states missing: %v", after["pocketforge_buildfarm_jobs"])
	}
	for _, q := range []string{"scheduler", "workers"} {
		if !hasSeries(after, "pocketforge_buildfarm_queue_length", "queue", q) {
			t.Errorf("queue %s missing", q)
		}
	}
}

// farmStatesWanted are build states every scrape shows, zeros included.
var farmStatesWanted = []string{"scheduled", "building", "blocked", "succeeded", "failed"}

func hasSeries(f families, name, label, value string) bool {
	if f[name] == nil {
		return false
	}
	for _, m := range f[name].Metric {
		for _, l := range m.Label {
			if l.GetName() == label && l.GetValue() == value {
				return true
			}
		}
	}
	return false
}

// TestMetricsAccess: /_appliance/metrics needs the bootstrap token; /metrics is open and the
// same registry, and --public-metrics=false takes it away.
func TestMetricsAccess(t *testing.T) {
	e := newEnv(t, nil)
	e.run(t, []call{
		{name: "no token", path: "/_appliance/metrics", wantStatus: 401, wantBody: []string{"Authorization: Bearer"}},
		{name: "wrong token", path: "/_appliance/metrics", auth: "Bearer nope-nope-nope", wantStatus: 401},
		{name: "token", path: "/_appliance/metrics", auth: "token", wantStatus: 200, wantBody: []string{"pocketforge_bbolt_file_size_bytes "}},
		{name: "open /metrics", path: "/metrics", wantStatus: 200,
			wantBody: []string{`pocketforge_http_requests_total{api="appliance",method="GET",route="/_appliance/metrics",status="200"} 1`}},
	})
	off := newEnv(t, func(c *config.Config) { c.PublicMetrics = false })
	off.run(t, []call{
		{name: "/metrics off", path: "/metrics", wantStatus: 404},
		{name: "appliance metrics still served", path: "/_appliance/metrics", auth: "token", wantStatus: 200},
	})
}

// TestMetricsDuringRestore scrapes without pause while snapshots are restored: every scrape
// answers 200 with the store's figures (the bad input: metrics scraped during a restore).
func TestMetricsDuringRestore(t *testing.T) {
	e := newEnv(t, nil)
	_, snap := e.do(t, call{path: "/_appliance/snapshot", auth: "token"})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	scrapes := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			req := httptest.NewRequest("GET", "/_appliance/metrics", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := e.app.Test(req, -1)
			mu.Lock()
			scrapes++
			switch {
			case err != nil:
				failures = append(failures, err.Error())
			case resp.StatusCode != 200:
				failures = append(failures, fmt.Sprintf("status %d", resp.StatusCode))
			default:
				body, _ := io.ReadAll(resp.Body)
				if !strings.Contains(string(body), "pocketforge_bbolt_file_size_bytes ") ||
					!strings.Contains(string(body), "pocketforge_buildfarm_jobs{") {
					failures = append(failures, "figures missing:\n"+string(body))
				}
			}
			mu.Unlock()
		}
	}()
	for range 3 {
		e.run(t, []call{{name: "restore", method: "POST", path: "/_appliance/restore", body: snap, auth: "token", wantStatus: 200}})
	}
	close(stop)
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d of %d scrapes during restores failed; first: %s", len(failures), scrapes, failures[0])
	}
	if scrapes == 0 {
		t.Fatal("no scrape ran")
	}
	t.Logf("%d scrapes during 3 restores", scrapes)
	if f := e.scrape(t); f.value("pocketforge_metrics_source_errors_total", "source", "buildfarm") != 0 {
		t.Fatal("the build farm could not be read during a restore")
	}
}
