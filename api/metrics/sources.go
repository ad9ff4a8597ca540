package metrics

import (
	"sort"

	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/search/textindex"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/prometheus/client_golang/prometheus"
)

// Sources are what Watch reads at scrape time: each a cheap read a domain or the store
// exposes (a nil one is left out).
type Sources struct {
	// Store is the data file (store.DB.Stats) and, with --store, the database.
	Store *store.DB
	// Leader is the singletons' election (nil: none).
	Leader *store.Leader
	// Farm is the build farm (buildsvc.Service.FarmCounts).
	Farm interface {
		FarmCounts() (farm.FarmCounts, error)
	}
	// Index is the explorer's search index (explorersvc.Service.IndexStats).
	Index interface {
		IndexStats() (textindex.Stats, uint64)
	}
	// SignIns are the sign-in throttles by API: cloud (the login server and the console),
	// build (Basic auth), appliance (the bootstrap token).
	SignIns map[string]func() ratelimit.Counts
	// Limiters are the rate limiters by API (cloud, explorer).
	Limiters map[string]*ratelimit.Limiter
}

// farmStates are the build states always exported, zeros included, so that a dashboard tells
// "none building" from "no data".
var farmStates = []string{buildstore.CodeScheduled, buildstore.CodeBuilding, buildstore.CodeBlocked,
	buildstore.CodeSucceeded, buildstore.CodeFailed, buildstore.CodeUnresolvable, buildstore.CodeBroken,
	buildstore.CodeDisabled, buildstore.CodeExcluded, buildstore.CodeLocked}

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(namespace+"_"+name, help, labels, nil)
}

var (
	descFileBytes  = desc("bbolt_file_size_bytes", "Size of the data file on disk.")
	descCommits    = desc("bbolt_commits_total", "Read-write transactions committed to the data file since start (the store's change mark).")
	descFreeBytes  = desc("bbolt_free_bytes", "Space inside the data file bbolt holds free or pending release: what a compact would give back.")
	descOpenReads  = desc("bbolt_open_read_transactions", "Read transactions open now; a long one keeps freed pages from reuse.")
	descIndexDocs  = desc("search_index_documents", "Documents in the explorer's search index.")
	descIndexDisk  = desc("search_index_disk_bytes", "Size of the explorer's search index on disk (0 when it lives in memory).")
	descIndexMem   = desc("search_index_memory_bytes", "bleve's estimate of the memory the explorer's search index holds.")
	descIndexGen   = desc("search_index_generation", "The store generation the explorer's search index reflects.")
	descStoreGen   = desc("search_store_generation", "The explorer data's generation in the store; the index is behind while it is larger than pocketforge_search_index_generation.")
	descFarmJobs   = desc("buildfarm_jobs", "Package builds by state (scheduled: waiting for a worker, building: running, blocked: waiting for other packages).", "state")
	descFarmQueue  = desc("buildfarm_queue_length", "Work waiting: projects for the scheduler (queue=\"scheduler\"), jobs for a free worker (queue=\"workers\").", "queue")
	descFarmWorker = desc("buildfarm_workers", "Build jobs that run at once (--build-workers).")
	descSignFail   = desc("signin_failures_total", "Sign-ins with a wrong password or token, by API (cloud: login server and console; build: Basic auth; appliance: the bootstrap token).", "api")
	descSignRefuse = desc("signin_refused_total", "Sign-ins refused unchecked because the user or client IP was locked after failures, by API.", "api")
	descDBUp       = desc("store_database_up", "1 while the shared database (--store) answers this node's polls, 0 when it does not (absent for a bbolt file).")
	descDBLag      = desc("store_lag_commits", "Commits of the shared database this node's replica has not applied yet.")
	descDBAnswer   = desc("store_last_answer_seconds", "Seconds since the shared database last answered this node's poll.")
	descLeading    = desc("singletons_leading", "1 on the node that runs the singletons (clock jobs, farm scheduler, explorer follower, sqldb listeners), 0 on the others.")
	descLeader     = desc("singletons_leader", "The node holding the singletons' lease, as this node last saw it (value 1).", "node")
	descRateRefuse = desc("ratelimit_refusals_total", "Requests refused with 429 by a rate limit, by API and limit name.", "api", "limit")
)

// sourceCollector reads Sources at scrape time.
type sourceCollector struct {
	s      Sources
	errors *prometheus.CounterVec
}

// Watch registers the scrape-time metrics read from s.
func (m *Metrics) Watch(s Sources) {
	m.reg.MustRegister(&sourceCollector{s: s, errors: m.errors})
}

// Describe sends every metric's description.
func (c *sourceCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descFileBytes, descCommits, descFreeBytes, descOpenReads,
		descIndexDocs, descIndexDisk, descIndexMem, descIndexGen, descStoreGen,
		descFarmJobs, descFarmQueue, descFarmWorker, descSignFail, descSignRefuse, descRateRefuse,
		descDBUp, descDBLag, descDBAnswer, descLeading, descLeader} {
		ch <- d
	}
}

// Collect reads every source. None of the reads waits for a writer: a scrape during a restore
// answers with the figures of the moment.
func (c *sourceCollector) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	if db := c.s.Store; db != nil {
		st := db.Stats()
		gauge(descFileBytes, float64(st.FileBytes))
		counter(descCommits, float64(st.Commits))
		gauge(descFreeBytes, float64(st.FreePages*st.PageSize))
		gauge(descOpenReads, float64(st.OpenReads))
		if ds, ok := db.DatabaseStatus(); ok {
			up := 0.0
			if ds.Reachable {
				up = 1
			}
			gauge(descDBUp, up)
			gauge(descDBLag, float64(ds.Lag))
			gauge(descDBAnswer, float64(ds.LastAnswerMS)/1000)
		}
	}
	if l := c.s.Leader; l != nil {
		leading := 0.0
		if l.Held() {
			leading = 1
		}
		gauge(descLeading, leading)
		if h := l.Holder(); h.Node != "" && h.Live {
			gauge(descLeader, 1, h.Node)
		}
	}
	if c.s.Index != nil {
		ix, gen := c.s.Index.IndexStats()
		gauge(descIndexDocs, float64(ix.Docs))
		gauge(descIndexDisk, float64(ix.DiskBytes))
		gauge(descIndexMem, float64(ix.MemoryBytes))
		gauge(descIndexGen, float64(ix.Generation))
		gauge(descStoreGen, float64(gen))
	}
	if c.s.Farm != nil {
		c.collectFarm(gauge)
	}
	for _, api := range sortedKeys(c.s.SignIns) {
		n := c.s.SignIns[api]()
		counter(descSignFail, float64(n.Failed), api)
		counter(descSignRefuse, float64(n.Refused), api)
	}
	for _, api := range sortedKeys(c.s.Limiters) {
		for limit, n := range c.s.Limiters[api].Refusals() {
			counter(descRateRefuse, float64(n), api, limit)
		}
	}
}

// collectFarm exports the farm's states and queues; a failed read leaves them out and is
// counted.
func (c *sourceCollector) collectFarm(gauge func(*prometheus.Desc, float64, ...string)) {
	fc, err := c.s.Farm.FarmCounts()
	if err != nil {
		c.errors.WithLabelValues("buildfarm").Inc()
		return
	}
	seen := map[string]bool{}
	for _, state := range farmStates {
		gauge(descFarmJobs, float64(fc.States[state]), state)
		seen[state] = true
	}
	for state, n := range fc.States {
		if !seen[state] {
			gauge(descFarmJobs, float64(n), state)
		}
	}
	gauge(descFarmQueue, float64(fc.Dirty), "scheduler")
	gauge(descFarmQueue, float64(fc.States[buildstore.CodeScheduled]), "workers")
	gauge(descFarmWorker, float64(fc.Workers))
}

// sortedKeys returns m's keys in order, so the exposition is stable.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
