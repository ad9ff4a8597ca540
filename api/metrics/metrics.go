// Package metrics exports the appliance's figures in the Prometheus format: requests by API,
// route pattern and status with their latency, the data file (size, commits, commit time), the
// explorer's search index, the build farm's queues and job states, rate-limit refusals and
// failed sign-ins. It owns one registry of its own (never the process-wide default, so two apps
// in one test binary do not share counters) and reads the domains through the plain stats
// methods they expose: the domains and the store know nothing of Prometheus, and this package
// nothing of HTTP routing — the api package tells it about each request and serves Handler.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// namespace prefixes every metric of the appliance's own.
const namespace = "pocketforge"

// Unmatched is the route label of a request no route handled: a 404, a 405, a refusal by a
// middleware in front of the routes. Raw paths never become labels (one series per URL would
// let any client grow the registry without bound).
const Unmatched = "unmatched"

// Metrics is the appliance's registry with the metrics it records as things happen; Watch adds
// the ones read at scrape time. Safe for concurrent use.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	commits  prometheus.Histogram
	errors   *prometheus.CounterVec // scrape-time sources that failed, by source
}

// latencyBuckets span the appliance's answers: a cached read takes well under a millisecond, a
// snapshot of a large file seconds.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// commitBuckets span a bbolt commit: tens of microseconds without fsync (--ephemeral), a few
// milliseconds with one, seconds for a restore of a large snapshot.
var commitBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10}

// New returns a registry holding the request and commit metrics and the Go runtime's and the
// process's own (memory, goroutines, open files: what a soak test watches).
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Subsystem: "http", Name: "requests_total",
			Help: "Requests answered, by API area, method, route pattern (\"unmatched\" when no route handled it) and status.",
		}, []string{"api", "method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Subsystem: "http", Name: "request_duration_seconds",
			Help:    "Time from a request's arrival to its answer (a streamed body not included), by API area and route pattern.",
			Buckets: latencyBuckets,
		}, []string{"api", "route"}),
		commits: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace, Subsystem: "bbolt", Name: "commit_duration_seconds",
			Help:    "Time of one committed read-write transaction of the data file, from its begin to its commit on disk; a group commit counts once.",
			Buckets: commitBuckets,
		}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Subsystem: "metrics", Name: "source_errors_total",
			Help: "Scrapes in which a source could not be read (its metrics were left out of that scrape), by source.",
		}, []string{"source"}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.commits, m.errors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// statusText holds the status labels of every valid code, so counting a request allocates no
// string.
var statusText = func() (t [600]string) {
	for i := 100; i < len(t); i++ {
		t[i] = strconv.Itoa(i)
	}
	return
}()

// methods are the label values of the methods counted by name; any other is "other", so a
// client cannot grow the label set.
var methods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"}

// methodLabel is method's label as a string of the package's own: the registry keeps its
// label values for good, and fiber's method views a buffer the next request overwrites (a
// GET series could have turned into PUT).
func methodLabel(method string) string {
	for _, m := range methods {
		if m == method {
			return m
		}
	}
	return "other"
}

// Request counts one answered request of api (the area that owns its path) to route (the
// pattern that matched, or Unmatched) with its final status and how long it took.
func (m *Metrics) Request(api, method, route string, status int, took time.Duration) {
	m.Series(api, method, route, status).Observe(took)
}

// Series is the pair of metrics one kind of request counts into (requests_total of its api,
// method, route and status; request_duration_seconds of its api and route), looked up once:
// resolving label values per request (hashing and checking each value, under the vector's lock)
// cost more than the counting. The api package keeps one per route it has seen.
type Series struct {
	count   prometheus.Counter
	latency prometheus.Observer
}

// Series returns the series of requests of api, method, route and status (the labels Request
// gives them).
func (m *Metrics) Series(api, method, route string, status int) *Series {
	s := "other"
	if status >= 100 && status < len(statusText) {
		s = statusText[status]
	}
	return &Series{count: m.requests.WithLabelValues(api, methodLabel(method), route, s),
		latency: m.latency.WithLabelValues(api, route)}
}

// Observe counts one request that took took.
func (s *Series) Observe(took time.Duration) {
	s.count.Inc()
	s.latency.Observe(took.Seconds())
}

// MethodLabel is method's label (see methodLabel): a string of the package's own, safe to keep.
func MethodLabel(method string) string { return methodLabel(method) }

// ObserveCommit records one commit's duration; it is what the api package hands to
// store.DB.ObserveCommits.
func (m *Metrics) ObserveCommit(took time.Duration) { m.commits.Observe(took.Seconds()) }

// Gatherer is the registry, for tests that read values without the text format.
func (m *Metrics) Gatherer() prometheus.Gatherer { return m.reg }

// Handler serves the registry in the format the scraper asks for (Prometheus text or
// OpenMetrics, gzipped when accepted). A source that fails leaves its metrics out of the answer
// rather than failing the scrape: a scrape during a restore gets what could be read.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorHandling:     promhttp.ContinueOnError,
		Registry:          m.reg, // promhttp_metric_handler_errors_total
		EnableOpenMetrics: true,
	})
}
