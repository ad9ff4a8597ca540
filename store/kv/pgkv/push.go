package pgkv

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/pocketforge/pocketforge/store/kv"
)

// push sends the final state of the places t names — as the replica's write transaction rtx
// holds them, fn having run — to the database in q, with the change log's record and the new
// head rev. Nothing is committed here.
func push(ctx context.Context, q pgx.Tx, rtx kv.Tx, t *touched, rev uint64) error {
	p := t.places()
	batch := &pgx.Batch{}
	var copyRows [][]any
	size := 0
	row := func(bucket, key, value []byte, kind int16) {
		size += len(bucket) + len(key) + len(value) + 16
		copyRows = append(copyRows, []any{bucket, key, value, kind})
	}
	var walk func(b kv.Bucket, path []byte) error
	walk = func(b kv.Bucket, path []byte) error {
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				if c := b.Bucket(k); c != nil {
					row(path, k, seq(c), 1)
					return walk(c, appendName(path, k))
				}
			}
			row(path, k, v, 0)
			return nil
		})
	}
	for _, tree := range p.trees {
		if len(tree) == 0 {
			batch.Queue(`DELETE FROM pf_kv`)
			err := readTx{rtx}.ForEach(func(name []byte, b kv.Bucket) error {
				row([]byte{}, name, seq(b), 1)
				return walk(b, appendName(nil, name))
			})
			if err != nil {
				return err
			}
			continue
		}
		parent, name, err := parentName(tree)
		if err != nil {
			return err
		}
		batch.Queue(`DELETE FROM pf_kv WHERE (bucket = $1 AND key = $2) OR (bucket >= $3 AND bucket < $4)`, parent, name, tree, treeEnd(tree))
		var b kv.Bucket
		if len(parent) == 0 {
			b = rtx.Bucket(name)
		} else if pb := bucketAt(rtx, parent); pb != nil {
			b = pb.Bucket(name)
		}
		if b != nil {
			row(parent, name, seq(b), 1)
			if err := walk(b, tree); err != nil {
				return err
			}
		}
	}
	var upB, upK, upV, delB, delK [][]byte
	for _, k := range p.keys {
		b := bucketAt(rtx, k[0])
		var v []byte
		if b != nil {
			v = b.Get(k[1])
			if v == nil && b.Bucket(k[1]) != nil {
				continue // became a bucket: a tree place carries it
			}
		}
		if v == nil {
			delB, delK = append(delB, k[0]), append(delK, k[1])
			continue
		}
		size += len(k[0]) + len(k[1]) + len(v)
		upB, upK, upV = append(upB, k[0]), append(upK, k[1]), append(upV, v)
	}
	if len(delB) > 0 {
		batch.Queue(`DELETE FROM pf_kv WHERE (bucket, key) IN (SELECT b, k FROM unnest($1::bytea[], $2::bytea[]) AS t(b, k))`, delB, delK)
	}
	if len(upB) > 0 {
		batch.Queue(`INSERT INTO pf_kv (bucket, key, value, kind) SELECT b, k, v, 0 FROM unnest($1::bytea[], $2::bytea[], $3::bytea[]) AS t(b, k, v)
			ON CONFLICT (bucket, key) DO UPDATE SET value = excluded.value, kind = 0`, upB, upK, upV)
	}
	for _, s := range p.seqs {
		if b := bucketAt(rtx, s); b != nil {
			parent, name, err := parentName(s)
			if err != nil {
				return err
			}
			batch.Queue(`UPDATE pf_kv SET value = $3 WHERE bucket = $1 AND key = $2 AND kind = 1`, parent, name, seq(b))
		}
	}
	record := t.encode()
	size += len(record)
	if size > MaxCommitBytes {
		return fmt.Errorf("%w: %d MiB in one commit, over the %d MiB a commit may send", ErrTooLarge, size>>20, MaxCommitBytes>>20)
	}
	batch.Queue(`INSERT INTO pf_log (rev, places) VALUES ($1, $2)`, rev, record)
	batch.Queue(`UPDATE pf_head SET rev = $1 WHERE id = 1`, rev)
	if err := q.SendBatch(ctx, batch).Close(); err != nil {
		return err
	}
	if len(copyRows) > 0 {
		if _, err := q.CopyFrom(ctx, pgx.Identifier{"pf_kv"}, []string{"bucket", "key", "value", "kind"}, pgx.CopyFromRows(copyRows)); err != nil {
			return err
		}
	}
	return nil
}

// seq is b's sequence as a bucket row's value.
func seq(b kv.Bucket) []byte { return binary.BigEndian.AppendUint64(nil, b.Sequence()) }
