package store

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
)

// groupCommit runs overlapping writes in shared transactions: a write that finds no commit under
// way commits at once, alone; writes that arrive while one is under way queue, and when it ends
// the first of them waits for the writers just answered to come back — until as many have
// queued as were answered, at most Options.BatchDelay — then commits the whole queue in one
// transaction. (A fixed wait would idle the disk once every writer is back: at 64 writers over
// HTTP they are back in a fraction of the delay.) Unlike bbolt's Batch, whose
// timer closes a batch after MaxBatchDelay even when it must then wait for the commit before it
// (so writers arriving during one slow fsync are cut into many small batches, each paying its
// own fsync), a group holds every writer that arrived during the previous commit: the commits
// per second stay what the disk allows and the writes per commit grow with the load.
type groupCommit struct {
	mu       sync.Mutex
	leading  bool // a commit is under way
	queue    []*groupCall
	answered int           // size of the group last answered: the writers that may come back
	back     int           // writes queued since that group was answered
	full     chan struct{} // while gathering: closed when back reaches answered
}

type groupCall struct {
	fn   func(tx kv.Tx) error
	done chan error // the write's result, or errLead: commit the queue
}

// errLead hands the commit to the first write queued.
var errLead = errors.New("lead the next group commit")

// write runs fn in a group commit and returns its result once committed.
func (db *DB) write(fn func(tx kv.Tx) error) error {
	g := &db.group
	c := &groupCall{fn: fn, done: make(chan error, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, c)
	g.back++
	if g.full != nil && g.back >= g.answered {
		close(g.full)
		g.full = nil
	}
	if g.leading {
		g.mu.Unlock()
		if err := <-c.done; err != errLead {
			return err
		}
		db.gather()
		g.mu.Lock()
	}
	g.leading = true
	calls := g.queue
	g.queue = nil
	g.mu.Unlock()

	db.commitGroup(calls, func(n int) {
		g.mu.Lock()
		g.answered, g.back = n, 0
		g.mu.Unlock()
	})

	g.mu.Lock()
	if len(g.queue) > 0 {
		g.queue[0].done <- errLead
	} else {
		g.leading = false
	}
	g.mu.Unlock()
	return <-c.done
}

// gather lets the writes just answered come back and join the queue before the leader commits
// it: it returns once as many writes have queued since the last group was answered as it
// answered, or after the batch delay.
func (db *DB) gather() {
	g := &db.group
	g.mu.Lock()
	if g.back >= g.answered {
		g.mu.Unlock()
		return
	}
	full := make(chan struct{})
	g.full = full
	g.mu.Unlock()
	t := time.NewTimer(db.batchDelay)
	select {
	case <-full:
	case <-t.C:
	}
	t.Stop()
	g.mu.Lock()
	g.full = nil
	g.mu.Unlock()
}

// commitGroup commits calls in one transaction. A call that fails rolls the group back; the
// others are committed again without it, and it then runs in a transaction of its own (so its
// error is its own, as bbolt's Batch does it). answering is told how many calls the group's
// commit answers, just before they are answered.
func (db *DB) commitGroup(calls []*groupCall, answering func(n int)) {
	var alone []*groupCall
	for len(calls) > 0 {
		failed := -1
		start := time.Now()
		err := db.engine.Update(func(tx kv.Tx) error {
			for i, c := range calls {
				if err := safely(c.fn, tx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if failed >= 0 {
			alone = append(alone, calls[failed])
			calls = append(calls[:failed:failed], calls[failed+1:]...)
			continue
		}
		if err == nil {
			db.committed(start)
		}
		answering(len(calls))
		for _, c := range calls {
			c.done <- err
		}
		break
	}
	for _, c := range alone {
		start := time.Now()
		err := db.engine.Update(func(tx kv.Tx) error { return safely(c.fn, tx) })
		if err == nil {
			db.committed(start)
		}
		c.done <- err
	}
}

// safely calls fn, turning a panic into an error (the other writes of the group must not wait
// forever).
func safely(fn func(tx kv.Tx) error, tx kv.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("write panicked: %v", p)
		}
	}()
	return fn(tx)
}
