package cloudsvc

import (
	"errors"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/sqlengine"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Connectable sqldb instances. A mysql instance of the sqldb family (Database.Connectable) is
// served for real by sqlengine while its record says it runs: its root user and the password
// the credentials view shows, its allow_list checked at each connection, its TLS certificate
// signed by the CA the ssl view returns. postgresql and docdb instances stay simulated records,
// as go-mysql-server speaks MySQL's protocol only.
//
// The records stay the truth: the reconciler (ReconcileDatabases) makes the running set match
// them. It runs as a clock job each tick, so an instance starts when the clock ends its
// provisioning, and right after the domain's writes that must take effect at once (see the
// callers of reconcileNow). Each instance's data lives in the data file
// (cloudstore.SQLData), so a restart of the appliance, or of the domain, serves the same data.

// engines is the domain's side of the running instances.
type engines struct {
	s      *Service
	mgr    *sqlengine.Manager
	listen string // the IP address the listeners bind
	max    int    // --sqldb-max-instances

	// rec orders reconciles: one at a time, so two never start one instance twice.
	rec sync.Mutex
	// mu guards running, which views read while a reconcile works.
	mu      sync.Mutex
	running map[uint64]*runningInstance
	// refused remembers the instances a start was refused for (capacity, a bad allow list), so
	// the log says it once, not every tick.
	refused map[uint64]bool
}

// runningInstance is what a listening instance was started or last updated with.
type runningInstance struct {
	port     int
	password string
	allow    []string
}

// newEngines returns the engines of s's options, nil when --sqldb-listen is off.
func newEngines(s *Service) *engines {
	if s.opts.SQLListen == "" {
		return nil
	}
	mgr := sqlengine.NewManager(cloudstore.SQLData{DB: s.db}, sqlengine.Options{
		MaxInstances: s.opts.SQLMaxInstances, MaxMemory: s.opts.SQLMaxMemory, Log: s.log, NewThrottle: s.sqlThrottle, Now: s.clk.Now})
	return &engines{s: s, mgr: mgr, listen: s.opts.SQLListen, max: s.opts.SQLMaxInstances,
		running: map[uint64]*runningInstance{}, refused: map[uint64]bool{}}
}

// listens tells whether a connectable database in this status (taken to now) serves clients:
// every status of a provisioned, working instance, resuming included (a resume takes effect as
// it is answered). provisioning has no instance yet, failed is broken (a restore after a
// credentials reset), suspending and suspended are stopped on purpose.
func listens(d cloudstore.Database) bool {
	if d.Deleted != nil || !d.Connectable() {
		return false
	}
	switch d.Status {
	case cloudstore.DBActive, cloudstore.DBUpdating, cloudstore.DBResizing, cloudstore.DBBackingUp, cloudstore.DBRestoring, cloudstore.DBDegraded, cloudstore.DBResuming:
		return true
	}
	return false
}

// sqlTarget is one connectable record and its secrets, as a reconcile reads them.
type sqlTarget struct {
	d   cloudstore.Database
	sec cloudstore.DatabaseSecrets
}

// ReconcileDatabases makes the running sqldb instances match their records as of now: it starts
// those that should listen, stops those that should not (and deletes the data of deleted
// ones), and gives running ones their current password and allow list. It is the "sqldb" clock
// job; with --sqldb-listen off it does nothing.
func (s *Service) ReconcileDatabases(now time.Time) error {
	e := s.sql
	if e == nil {
		return nil
	}
	e.rec.Lock()
	defer e.rec.Unlock()
	var targets []sqlTarget
	if err := s.db.View(func(tx kv.Tx) (err error) { targets, err = sqlTargets(tx); return err }); err != nil {
		return err
	}
	want := map[uint64]sqlTarget{}
	leads := s.opts.Leads == nil || s.opts.Leads()
	for _, t := range targets {
		if t.d = t.d.At(now); listens(t.d) && leads {
			want[t.d.ID] = t
		}
	}
	var errs []error
	for id := range e.runningIDs() {
		if _, ok := want[id]; !ok {
			errs = append(errs, e.stop(id, deleted(targets, id)))
		}
	}
	for _, t := range targets {
		if _, ok := want[t.d.ID]; ok {
			errs = append(errs, e.ensure(t))
		}
	}
	return errors.Join(errs...)
}

// reconcileNow runs a reconcile right after a write that must take effect at once; a failure
// is logged (the write stands, and the next tick tries again).
func (s *Service) reconcileNow() {
	if err := s.ReconcileDatabases(s.clk.Now()); err != nil {
		s.log.Error("sqldb: reconciling the running instances failed", "err", err)
	}
}

// sqlTargets reads every connectable record (deleted ones too, to remove their data) with the
// secrets of the live ones.
func sqlTargets(tx kv.Tx) ([]sqlTarget, error) {
	var out []sqlTarget
	err := store.Each(tx, store.CloudDatabases, nil, func(_ []byte, d cloudstore.Database) (bool, error) {
		if !d.Connectable() {
			return true, nil
		}
		t := sqlTarget{d: d}
		if d.Deleted == nil {
			var err error
			if t.sec, err = cloudstore.DatabaseSecretsOf(tx, d.ID); err != nil {
				return false, err
			}
		}
		out = append(out, t)
		return true, nil
	})
	return out, err
}

// deleted tells whether id's record is gone or marked deleted.
func deleted(targets []sqlTarget, id uint64) bool {
	i := slices.IndexFunc(targets, func(t sqlTarget) bool { return t.d.ID == id })
	return i < 0 || targets[i].d.Deleted != nil
}

// runningIDs lists the instances that listen now.
func (e *engines) runningIDs() map[uint64]bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[uint64]bool, len(e.running))
	for id := range e.running {
		out[id] = true
	}
	return out
}

// stop stops id's listener; remove also deletes its data (the record is deleted: a write that
// raced the delete's transaction must not bring the data back).
func (e *engines) stop(id uint64, remove bool) error {
	e.mu.Lock()
	delete(e.running, id)
	delete(e.refused, id)
	e.mu.Unlock()
	if remove {
		return e.mgr.Remove(id)
	}
	return e.mgr.Stop(id)
}

// ensure starts t's instance, or brings a running one's password and allow list up to date.
func (e *engines) ensure(t sqlTarget) error {
	e.mu.Lock()
	r := e.running[t.d.ID]
	e.mu.Unlock()
	if r == nil {
		return e.start(t)
	}
	if r.password != t.sec.Password {
		if err := e.mgr.SetPassword(t.d.ID, t.sec.Password); err != nil {
			return err
		}
		e.mu.Lock()
		r.password = t.sec.Password
		e.mu.Unlock()
	}
	if !slices.Equal(r.allow, t.d.AllowList) {
		prefixes, err := sqlengine.ParseAllowList(t.d.AllowList)
		if err != nil {
			return err
		}
		if err := e.mgr.SetAllowList(t.d.ID, prefixes); err != nil {
			return err
		}
		e.mu.Lock()
		r.allow = slices.Clone(t.d.AllowList)
		e.mu.Unlock()
	}
	return nil
}

// live returns d with Live set when its engine listens now. Activation and listening are one
// step (issue 32): the clock may have ended a provisioning (or a resume begun) since the last
// reconcile, and a client that waits for active connects at once — so an instance that should
// listen and does not is started here, before the view says so. Call it outside a transaction.
func (s *Service) live(d cloudstore.Database) cloudstore.Database {
	if s.sql == nil || !d.Connectable() {
		return d
	}
	if s.opts.Leads != nil && !s.opts.Leads() {
		return s.leaderLive(d)
	}
	r, refused := s.sql.runningOf(d.ID)
	if r == nil && !refused && listens(d) {
		s.reconcileNow()
		r, _ = s.sql.runningOf(d.ID)
	}
	if r != nil && d.Status != cloudstore.DBProvisioning {
		d.Live = &cloudstore.Endpoint{Host: s.sqlHost(), Port: r.port}
	}
	return d
}

// leaderLive is live on a node that does not lead: the endpoint the leader publishes.
func (s *Service) leaderLive(d cloudstore.Database) cloudstore.Database {
	if s.opts.LeaderEndpoints == nil || d.Status == cloudstore.DBProvisioning {
		return d
	}
	if host, ports := s.opts.LeaderEndpoints(); ports[d.ID] != 0 {
		d.Live = &cloudstore.Endpoint{Host: host, Port: ports[d.ID]}
	}
	return d
}

// Endpoints are the ports this node's instances listen on now, and the host clients reach them
// at: what a leading node publishes for the others (LeaderEndpoints).
func (s *Service) Endpoints() (string, map[uint64]int) {
	if s.sql == nil {
		return "", nil
	}
	s.sql.mu.Lock()
	ports := make(map[uint64]int, len(s.sql.running))
	for id, r := range s.sql.running {
		ports[id] = r.port
	}
	s.sql.mu.Unlock()
	return s.sqlHost(), ports
}

// runningOf is id's running instance (nil: none) and whether a start of it was refused.
func (e *engines) runningOf(id uint64) (*runningInstance, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.running[id], e.refused[id]
}

// liveList applies live to a list, copying it only when some instance listens or should (the
// list may be a shared cache).
func (s *Service) liveList(list []cloudstore.Database) []cloudstore.Database {
	if s.sql == nil {
		return list
	}
	s.sql.mu.Lock()
	n := len(s.sql.running)
	s.sql.mu.Unlock()
	if n == 0 && !slices.ContainsFunc(list, listens) {
		return list
	}
	out := make([]cloudstore.Database, len(list))
	for i, d := range list {
		out[i] = s.live(d)
	}
	return out
}

// sqlHost is the host name clients reach the instances at: --external-url's, or the listen
// address when none is known.
func (s *Service) sqlHost() string {
	if u, err := url.Parse(s.externalURL()); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return s.sql.listen
}

// RestartDatabases stops every running instance and starts those the records want again: the
// appliance calls it after a restore, reset or reseed replaced the data file, whose data the
// running engines would otherwise overwrite with what they held.
func (s *Service) RestartDatabases() {
	if s.sql == nil {
		return
	}
	s.sql.rec.Lock()
	for id := range s.sql.runningIDs() {
		_ = s.sql.stop(id, false)
	}
	s.sql.rec.Unlock()
	s.reconcileNow()
}
