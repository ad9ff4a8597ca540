// Package pgkv is the kv seam over PostgreSQL shared by many nodes (issue 36): the data of
// record, the change log and the writers' lock live in the database; each node keeps a replica of
// the whole data set in a local bbolt file and reads from it.
//
// A read transaction is a replica read: a snapshot, at bbolt's speed, of a revision at most one
// poll interval (Options.Poll) behind the database's head. A write transaction takes the
// database's one writer lock (the head row), brings the replica up to the head, runs on the
// replica recording the places it changes (record.go), sends those places' final state to the
// database with the change log's record and the new head in one database transaction, commits it,
// and only then commits the replica: a write is acknowledged once the database has it, and the
// node that wrote it reads it at once. The other nodes follow the log (follow.go).
//
// So the semantics are bbolt's — snapshot reads, one writer at a time across every node, all or
// nothing, ordered cursors over nested buckets with sequences — because the reads and writes are
// bbolt's, and the database decides their order. The replica is a cache: deleting it costs a
// full copy at the next start; one left by a reboot (when a write the OS had not yet put on disk
// may be missing from it) is thrown away for the same reason.
package pgkv

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
)

// Errors Open and the transactions answer with.
var (
	// ErrNewerLayout: the database's tables were made by a newer pocketforge.
	ErrNewerLayout = errors.New("database made by a newer pocketforge")
	// ErrUnavailable: the database cannot be reached or refused the commit; nothing was written.
	ErrUnavailable = errors.New("database unavailable")
	// ErrNotReplica: the replica's path holds a data file of its own, which a replica would
	// overwrite.
	ErrNotReplica = errors.New("holds a pocketforge data file, not a replica: move its data into the database with `pocketforge migrate --from FILE --to URL` and give the node another --data")
	// ErrTooLarge: a commit larger than the database takes; nothing was written.
	ErrTooLarge = errors.New("transaction too large for the database")
)

// MaxCommitBytes bounds what one commit sends: PostgreSQL refuses a message over 1 GiB, and a
// commit refused half way would be nothing written but a wasted transfer. Over it a write is
// refused with ErrTooLarge before anything is sent.
var MaxCommitBytes = 768 << 20

// Options tune Open.
type Options struct {
	// Replica is the path of the node's local replica (a bbolt file; created if missing).
	Replica string
	// Poll is how often a node asks the database for other nodes' commits (zero: 200 ms).
	Poll time.Duration
	// ConnectTimeout bounds the first connection (zero: 5 s).
	ConnectTimeout time.Duration
	// MaxConns bounds the node's connections (zero: 4).
	MaxConns int32
}

// DB is a data set in PostgreSQL with this node's replica; it is a kv.Engine.
type DB struct {
	pool     *pgxpool.Pool
	replica  *boltkv.DB
	url      string // redacted
	identity string
	opt      Options

	wmu      sync.Mutex // one replica writer: local writes and followed commits in turn
	applied  atomic.Uint64
	head     atomic.Uint64 // the head last seen in the database
	lastSeen atomic.Int64  // unix ns of the last successful poll
	pollErr  atomic.Pointer[error]

	lmu       sync.Mutex
	listeners []func(buckets []string)

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

var _ kv.Engine = (*DB)(nil)

// Redact returns the database URL with its password masked, for every message that names it.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	return u.Redacted()
}

// IsURL reports whether s names a PostgreSQL database (postgres:// or postgresql://).
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the database at rawURL, creates its tables if needed (refusing a newer
// layout), opens the node's replica and brings it up to the head. Errors name the URL with its
// password masked.
func Open(rawURL string, opt Options) (*DB, error) {
	if opt.Poll <= 0 {
		opt.Poll = 200 * time.Millisecond
	}
	if opt.ConnectTimeout <= 0 {
		opt.ConnectTimeout = 5 * time.Second
	}
	if opt.MaxConns <= 0 {
		opt.MaxConns = 4
	}
	red := Redact(rawURL)
	if err := checkReplica(opt.Replica); err != nil { // before the database is touched
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("database %s: %v", red, scrub(err, rawURL))
	}
	cfg.MaxConns = opt.MaxConns
	cfg.ConnConfig.ConnectTimeout = opt.ConnectTimeout
	ctx, cancel := context.WithTimeout(context.Background(), opt.ConnectTimeout+5*time.Second)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err == nil {
		err = pool.Ping(ctx)
	}
	if err != nil {
		if pool != nil {
			pool.Close()
		}
		return nil, fmt.Errorf("database %s: %w: %v", red, ErrUnavailable, scrub(err, rawURL))
	}
	identity, err := prepare(ctx, pool, newIdentity())
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("database %s: %w", red, scrub(err, rawURL))
	}
	rep, err := boltkv.Open(opt.Replica, boltkv.Options{NoSync: true, LockTimeout: time.Second})
	if err != nil {
		pool.Close()
		return nil, replicaError(opt.Replica, err)
	}
	d := &DB{pool: pool, replica: rep, url: red, identity: identity, opt: opt, stop: make(chan struct{}), done: make(chan struct{})}
	if err := d.adopt(); err != nil {
		d.closeAll()
		return nil, err
	}
	if err := d.catchUpNow(ctx); err != nil {
		d.closeAll()
		return nil, fmt.Errorf("database %s: %w", red, err)
	}
	go d.follow()
	return d, nil
}

// checkReplica refuses a replica path that holds a data file of its own (a replica is
// rebuilt at will: it must never overwrite data). A missing file is fine.
func checkReplica(path string) error {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	rep, err := boltkv.Open(path, boltkv.Options{ReadOnly: true, LockTimeout: time.Second})
	if err != nil {
		return replicaError(path, err)
	}
	defer rep.Close()
	return rep.View(func(tx kv.Tx) error {
		if tx.Bucket(replicaBucket) == nil {
			if k, _ := tx.Cursor().First(); k != nil {
				return fmt.Errorf("replica %s: %w", path, ErrNotReplica)
			}
		}
		return nil
	})
}

// replicaError is the one clear line for a replica file that would not open, in the words a
// data file's would use.
func replicaError(path string, err error) error {
	switch {
	case errors.Is(err, boltkv.ErrLocked):
		return fmt.Errorf("replica %s: in use by another process (give each node its own --data)", path)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("replica %s: directory does not exist (create it or choose another --data)", path)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("replica %s: permission denied (choose a writable path with --data)", path)
	}
	return fmt.Errorf("replica %s: %v", path, err)
}

// adopt checks the replica belongs to this database and survived since the last boot; if not,
// it is emptied (the next catch-up copies everything).
func (d *DB) adopt() error {
	boot := bootID()
	return d.replica.Update(func(tx kv.Tx) error {
		if tx.Bucket(replicaBucket) == nil {
			if k, _ := tx.Cursor().First(); k != nil {
				return fmt.Errorf("replica %s: %w", d.opt.Replica, ErrNotReplica)
			}
		}
		meta, err := tx.CreateBucketIfNotExists(replicaBucket)
		if err != nil {
			return err
		}
		if string(meta.Get(keyDatabase)) != d.identity || (boot != "" && string(meta.Get(keyBoot)) != boot) {
			if err := clearReplica(tx); err != nil {
				return err
			}
			if meta, err = tx.CreateBucket(replicaBucket); err != nil {
				return err
			}
			if err := meta.Put(keyDatabase, []byte(d.identity)); err != nil {
				return err
			}
		}
		d.applied.Store(replicaRev(tx))
		return meta.Put(keyBoot, []byte(boot))
	})
}

// clearReplica deletes every top-level bucket of the replica, bookkeeping included.
func clearReplica(tx kv.Tx) error {
	var names [][]byte
	err := tx.ForEach(func(name []byte, _ kv.Bucket) error { names = append(names, bytes.Clone(name)); return nil })
	for _, n := range names {
		if err == nil {
			err = tx.DeleteBucket(n)
		}
	}
	return err
}

// IsReplica reports whether tx reads a node's replica (its bookkeeping bucket is there): a file
// that only makes sense beside its database, which the data-file tools refuse to take as a data
// file of its own.
func IsReplica(tx kv.Tx) bool { return tx.Bucket(replicaBucket) != nil }

func replicaRev(tx kv.Tx) uint64 {
	if m := tx.Bucket(replicaBucket); m != nil {
		if v := m.Get(keyRev); len(v) == 8 {
			return binary.BigEndian.Uint64(v)
		}
	}
	return 0
}

func setReplicaRev(tx kv.Tx, rev uint64) error {
	m, err := tx.CreateBucketIfNotExists(replicaBucket)
	if err != nil {
		return err
	}
	return m.Put(keyRev, binary.BigEndian.AppendUint64(nil, rev))
}

// View runs fn in a read transaction of the replica.
func (d *DB) View(fn func(kv.Tx) error) error {
	return d.replica.View(func(tx kv.Tx) error { return fn(readTx{tx}) })
}

// Update runs fn as the one writer of every node (see the package comment).
func (d *DB) Update(fn func(kv.Tx) error) error {
	followed, err := d.update(fn)
	d.tell(followed) // after the lock: a listener may read, or write
	return err
}

func (d *DB) update(fn func(kv.Tx) error) (followed places, err error) {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	ctx := context.Background()
	ptx, err := d.pool.BeginTx(ctx, pgx.TxOptions{})
	if err != nil {
		return followed, d.unavailable(err)
	}
	defer ptx.Rollback(ctx)
	var head uint64
	if err := ptx.QueryRow(ctx, `SELECT rev FROM pf_head WHERE id = 1 FOR UPDATE`).Scan(&head); err != nil {
		return followed, d.unavailable(err)
	}
	var committed bool
	err = d.replica.Update(func(rtx kv.Tx) error {
		var err error
		if followed, err = d.catchUp(ctx, ptx, rtx, head); err != nil {
			return d.unavailable(err)
		}
		w := &writeTx{readTx: readTx{rtx}, t: newTouched()}
		if err := fn(w); err != nil {
			return err
		}
		if w.t.empty() {
			return setReplicaRev(rtx, head)
		}
		if err := push(ctx, ptx, rtx, w.t, head+1); err != nil {
			return d.unavailable(err)
		}
		if err := ptx.Commit(ctx); err != nil {
			return d.unavailable(err)
		}
		committed = true
		head++
		return setReplicaRev(rtx, head)
	})
	if err != nil {
		return places{}, err
	}
	d.applied.Store(head)
	if committed && head > d.head.Load() {
		d.head.Store(head)
	}
	return followed, nil
}

// unavailable wraps a database error as ErrUnavailable, naming the database (password masked).
func (d *DB) unavailable(err error) error {
	if errors.Is(err, ErrTooLarge) || errors.Is(err, ErrUnavailable) {
		return err
	}
	return fmt.Errorf("database %s: %w: %v", d.url, ErrUnavailable, err)
}

// Follow has fn told the top-level buckets each commit of another node changed, once the
// replica has it ("" names them all: a full copy). fn runs on the follower; it must be quick.
func (d *DB) Follow(fn func(buckets []string)) {
	d.lmu.Lock()
	d.listeners = append(d.listeners, fn)
	d.lmu.Unlock()
}

func (d *DB) tell(p places) {
	if len(p.trees)+len(p.keys)+len(p.seqs) == 0 {
		return
	}
	b := p.buckets()
	d.lmu.Lock()
	ls := append([]func([]string){}, d.listeners...)
	d.lmu.Unlock()
	for _, fn := range ls {
		fn(b)
	}
}

// Status is what readyz and the metrics show of the database.
type Status struct {
	URL string // password masked
	// Reachable: the last poll reached the database.
	Reachable bool
	Err       string
	// Head is the database's last revision seen, Applied the replica's.
	Head, Applied uint64
	// Since is how long ago the database last answered.
	Since time.Duration
}

// Status reports the connection and the replica's lag.
func (d *DB) Status() Status {
	s := Status{URL: d.url, Head: d.head.Load(), Applied: d.applied.Load()}
	if e := d.pollErr.Load(); e != nil && *e != nil {
		s.Err = (*e).Error()
	} else {
		s.Reachable = true
	}
	if t := d.lastSeen.Load(); t > 0 {
		s.Since = time.Since(time.Unix(0, t))
	}
	return s
}

// Replica is the node's replica, for the store's snapshot and statistics.
func (d *DB) Replica() *boltkv.DB { return d.replica }

// Pool is the connection pool, for the leases and the shared limits.
func (d *DB) Pool() *pgxpool.Pool { return d.pool }

// URL is the database's URL with the password masked.
func (d *DB) URL() string { return d.url }

// Close stops following and closes the connections and the replica.
// A second Close does nothing, as bbolt's.
func (d *DB) Close() error {
	d.closeOnce.Do(func() {
		close(d.stop)
		<-d.done
		d.closeErr = d.closeAll()
	})
	return d.closeErr
}

func (d *DB) closeAll() error {
	d.pool.Close()
	return d.replica.Close()
}

func newIdentity() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// bootID names this boot of the machine ("" where the OS does not say).
func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// scrub removes the password from a driver error that may quote the connection string.
func scrub(err error, rawURL string) error {
	u, perr := url.Parse(rawURL)
	if perr != nil || u.User == nil {
		return err
	}
	if p, ok := u.User.Password(); ok && p != "" && strings.Contains(err.Error(), p) {
		return errors.New(strings.ReplaceAll(err.Error(), p, "xxxxx"))
	}
	return err
}
