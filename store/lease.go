package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// The singletons — the clock jobs (invoices, transfers, databases, the build farm's scheduler,
// the explorer's follower and --spdx-dir watcher) and the sqldb listeners — must run on one node
// of a shared store (issue 36). The node holding the lease runs them; it renews the lease every
// LeaseRenew, and when it dies another node takes it over once it has expired (LeaseTTL): within
// LeaseTTL + LeaseRenew of the death. A bbolt file has one process: it always leads.
const (
	LeaseTTL   = 10 * time.Second
	LeaseRenew = 2 * time.Second
	leaseName  = "singletons"
)

// Leader tells whether this node runs the singletons.
type Leader struct {
	db   *DB
	id   string
	info atomic.Pointer[func() string]

	held   atomic.Bool
	renew  atomic.Int64 // unix ns of the last renewal this node made
	holder atomic.Pointer[LeaderInfo]

	mu       sync.Mutex
	onChange []func(held bool)
	stop     chan struct{}
	done     chan struct{}
}

// LeaderInfo is the lease holder as every node sees it.
type LeaderInfo struct {
	Node string // the holder's node id
	Info string // what it publishes (its external URL, …)
	Live bool
}

// NewLeader returns this node's leader election over db; info is what the node publishes while
// it leads (called at every renewal). Start runs it.
func (db *DB) NewLeader(info func() string) *Leader {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	l := &Leader{db: db, id: host + "-" + hex.EncodeToString(b), stop: make(chan struct{}), done: make(chan struct{})}
	l.info.Store(&info)
	if db.pg == nil {
		l.held.Store(true)
		l.holder.Store(&LeaderInfo{Node: l.id, Info: info(), Live: true})
	}
	return l
}

// Node is this node's id.
func (l *Leader) Node() string { return l.id }

// Held reports whether this node leads now: it holds the lease and renewed it recently enough
// that it cannot have expired (a node paused past its lease must not act on it).
func (l *Leader) Held() bool {
	if !l.held.Load() {
		return false
	}
	return l.db.pg == nil || time.Since(time.Unix(0, l.renew.Load())) < LeaseTTL-LeaseRenew
}

// Holder is the lease holder as last seen (zero before the first round).
func (l *Leader) Holder() LeaderInfo {
	if h := l.holder.Load(); h != nil {
		return *h
	}
	return LeaderInfo{}
}

// OnChange has fn told when this node starts or stops leading.
func (l *Leader) OnChange(fn func(held bool)) {
	l.mu.Lock()
	l.onChange = append(l.onChange, fn)
	l.mu.Unlock()
}

// Start takes part in the election: one round at once, then every LeaseRenew.
func (l *Leader) Start() {
	if l.db.pg == nil {
		close(l.done)
		return
	}
	l.round()
	go func() {
		defer close(l.done)
		t := time.NewTicker(LeaseRenew)
		defer t.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-t.C:
				l.round()
			}
		}
	}()
}

// round takes or renews the lease. A node that cannot reach the database stops leading at once:
// its lease will expire and another node may take it.
func (l *Leader) round() {
	ctx, cancel := context.WithTimeout(context.Background(), LeaseRenew)
	defer cancel()
	asked := time.Now()
	st, err := l.db.pg.Lease(ctx, leaseName, l.id, (*l.info.Load())(), LeaseTTL)
	held := err == nil && st.Holder == l.id && st.Live
	if held {
		l.renew.Store(asked.UnixNano())
	}
	if err == nil {
		l.holder.Store(&LeaderInfo{Node: st.Holder, Info: st.Info, Live: st.Live})
	}
	l.set(held)
}

func (l *Leader) set(held bool) {
	if l.held.Swap(held) == held {
		return
	}
	l.mu.Lock()
	fns := append([]func(bool){}, l.onChange...)
	l.mu.Unlock()
	for _, fn := range fns {
		fn(held)
	}
}

// Stop leaves the election, giving the lease up at once so another node takes it without
// waiting for it to expire.
func (l *Leader) Stop() {
	if l.db.pg == nil {
		return
	}
	close(l.stop)
	<-l.done
	if l.held.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = l.db.pg.Release(ctx, leaseName, l.id)
		cancel()
		l.set(false)
	}
}
