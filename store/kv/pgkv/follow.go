package pgkv

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pocketforge/pocketforge/store/kv"
)

// maxFollow is how many log records a catch-up reads before it copies everything instead.
const maxFollow = 100_000

// follow polls the database's head every Options.Poll and catches the replica up when another
// node has committed: a node is at most one poll (plus the copy) behind another's write.
func (d *DB) follow() {
	defer close(d.done)
	t := time.NewTicker(d.opt.Poll)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			d.poll()
		}
	}
}

func (d *DB) poll() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var head uint64
	err := d.pool.QueryRow(ctx, `SELECT rev FROM pf_head WHERE id = 1`).Scan(&head)
	if err == nil && head != d.applied.Load() {
		err = d.catchUpNow(ctx)
	}
	if err != nil {
		err = d.unavailable(err)
		d.pollErr.Store(&err)
		return
	}
	d.pollErr.Store(nil)
	d.lastSeen.Store(time.Now().UnixNano())
}

// catchUpNow brings the replica to the database's head, reading in one snapshot.
func (d *DB) catchUpNow(ctx context.Context) error {
	p, err := d.catchUpLocked(ctx)
	d.tell(p)
	return err
}

func (d *DB) catchUpLocked(ctx context.Context) (p places, err error) {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	ptx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return p, err
	}
	defer ptx.Rollback(ctx)
	var head uint64
	if err := ptx.QueryRow(ctx, `SELECT rev FROM pf_head WHERE id = 1`).Scan(&head); err != nil {
		return p, err
	}
	d.head.Store(head)
	if head == d.applied.Load() {
		return p, nil
	}
	err = d.replica.Update(func(rtx kv.Tx) error {
		var err error
		p, err = d.catchUp(ctx, ptx, rtx, head)
		return err
	})
	if err != nil {
		return places{}, err
	}
	d.applied.Store(head)
	return p, nil
}

// catchUp brings the replica (rtx) from its revision to head, reading through q, which sees the
// database at head: the places the log names since the replica's revision take their state at
// head. A replica newer than the head (the database was replaced) or further behind than the log
// reaches is copied whole. It returns the places applied.
func (d *DB) catchUp(ctx context.Context, q pgx.Tx, rtx kv.Tx, head uint64) (places, error) {
	rev := replicaRev(rtx)
	if rev == head {
		return places{}, nil
	}
	t := newTouched()
	full := rev > head || head-rev > maxFollow
	if !full {
		rows, err := q.Query(ctx, `SELECT rev, places FROM pf_log WHERE rev > $1 AND rev <= $2 ORDER BY rev`, rev, head)
		if err != nil {
			return places{}, err
		}
		next := rev + 1
		for rows.Next() {
			var r uint64
			var b []byte
			if err := rows.Scan(&r, &b); err != nil {
				rows.Close()
				return places{}, err
			}
			if r != next {
				full = true
				break
			}
			if err := decodeTouched(b, t); err != nil {
				rows.Close()
				return places{}, fmt.Errorf("change log revision %d: %w", r, err)
			}
			next++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return places{}, err
		}
		full = full || next != head+1
	}
	if full {
		t = newTouched()
		t.tree(nil)
	}
	p := t.places()
	if err := applyPlaces(ctx, q, rtx, p); err != nil {
		return places{}, err
	}
	return p, setReplicaRev(rtx, head)
}

// applyPlaces gives each place in the replica its state in the database as q sees it.
func applyPlaces(ctx context.Context, q pgx.Tx, rtx kv.Tx, p places) error {
	for _, tree := range p.trees {
		if err := copyTree(ctx, q, rtx, tree); err != nil {
			return err
		}
	}
	for i := 0; i < len(p.keys); i += 1000 {
		if err := copyKeys(ctx, q, rtx, p.keys[i:min(i+1000, len(p.keys))]); err != nil {
			return err
		}
	}
	for _, s := range p.seqs {
		parent, name, err := parentName(s)
		if err != nil {
			return err
		}
		var v []byte
		err = q.QueryRow(ctx, `SELECT value FROM pf_kv WHERE bucket = $1 AND key = $2 AND kind = 1`, parent, name).Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			continue // deleted since: a tree place says so
		}
		if err != nil {
			return err
		}
		if b := bucketAt(rtx, s); b != nil && len(v) == 8 {
			if err := b.SetSequence(binary.BigEndian.Uint64(v)); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyTree replaces the bucket at path (the whole data set for the empty path) in the replica
// with its content in the database.
func copyTree(ctx context.Context, q pgx.Tx, rtx kv.Tx, path []byte) error {
	var rows pgx.Rows
	var err error
	if len(path) == 0 {
		if err := clearData(rtx); err != nil {
			return err
		}
		rows, err = q.Query(ctx, `SELECT bucket, key, value, kind FROM pf_kv ORDER BY bucket, key`)
	} else {
		parent, name, perr := parentName(path)
		if perr != nil {
			return perr
		}
		if len(parent) == 0 {
			if rtx.Bucket(name) != nil {
				err = rtx.DeleteBucket(name)
			}
		} else if pb := bucketAt(rtx, parent); pb != nil && pb.Bucket(name) != nil {
			err = pb.DeleteBucket(name)
		}
		if err != nil {
			return err
		}
		rows, err = q.Query(ctx, `SELECT bucket, key, value, kind FROM pf_kv WHERE (bucket = $1 AND key = $2) OR (bucket >= $3 AND bucket < $4) ORDER BY bucket, key`,
			parent, name, path, treeEnd(path))
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	var curPath []byte
	var cur kv.Bucket
	first := true
	for rows.Next() {
		var bucket, key, value []byte // fresh per row: bbolt keeps what Put is given until commit
		var kind int16
		if err := rows.Scan(&bucket, &key, &value, &kind); err != nil {
			return err
		}
		if first || string(bucket) != string(curPath) {
			first, curPath, cur = false, bucket, bucketAt(rtx, bucket)
		}
		if err := putRow(rtx, cur, bucket, key, value, kind); err != nil {
			return err
		}
	}
	return rows.Err()
}

// putRow writes one database row into the replica bucket b (nil for the top level).
func putRow(rtx kv.Tx, b kv.Bucket, path, key, value []byte, kind int16) error {
	if kind == 1 {
		var nb kv.Bucket
		var err error
		if len(path) == 0 {
			nb, err = rtx.CreateBucket(key)
		} else if b != nil {
			nb, err = b.CreateBucket(key)
		} else {
			return fmt.Errorf("pgkv: bucket %q has no parent in the replica", key)
		}
		if err != nil {
			return err
		}
		if len(value) == 8 {
			return nb.SetSequence(binary.BigEndian.Uint64(value))
		}
		return nil
	}
	if b == nil {
		return fmt.Errorf("pgkv: key %q has no bucket in the replica", key)
	}
	return b.Put(key, value)
}

// copyKeys gives keys their state in the database.
func copyKeys(ctx context.Context, q pgx.Tx, rtx kv.Tx, keys [][2][]byte) error {
	bs, ks := make([][]byte, len(keys)), make([][]byte, len(keys))
	for i, k := range keys {
		bs[i], ks[i] = k[0], k[1]
	}
	rows, err := q.Query(ctx, `SELECT t.b, t.k, v.value, v.kind FROM unnest($1::bytea[], $2::bytea[]) AS t(b, k) LEFT JOIN pf_kv v ON v.bucket = t.b AND v.key = t.k`, bs, ks)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var bucket, key, value []byte
		var kind *int16
		if err := rows.Scan(&bucket, &key, &value, &kind); err != nil {
			return err
		}
		b := bucketAt(rtx, bucket)
		switch {
		case b == nil || (kind != nil && *kind == 1):
			// the bucket is gone, or the key became a bucket: a tree place covers both
		case kind == nil:
			if b.Get(key) != nil {
				if err := b.Delete(key); err != nil {
					return err
				}
			}
		default:
			if err := b.Put(key, value); err != nil {
				return err
			}
		}
	}
	return rows.Err()
}

// bucketAt is the replica's bucket at path (nil for the top level or a missing one).
func bucketAt(rtx kv.Tx, path []byte) kv.Bucket {
	names, err := splitPath(path)
	if err != nil || len(names) == 0 {
		return nil
	}
	b := rtx.Bucket(names[0])
	for _, n := range names[1:] {
		if b == nil {
			return nil
		}
		b = b.Bucket(n)
	}
	return b
}

// clearData deletes every top-level bucket of the replica but its bookkeeping.
func clearData(rtx kv.Tx) error {
	var names [][]byte
	err := readTx{rtx}.ForEach(func(name []byte, _ kv.Bucket) error {
		names = append(names, append([]byte(nil), name...))
		return nil
	})
	for _, n := range names {
		if err == nil {
			err = rtx.DeleteBucket(n)
		}
	}
	return err
}
