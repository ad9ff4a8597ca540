package pgkv

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Layout is the version of the tables below. A database whose layout is newer than this build's
// is refused (naming both); an older one is brought up to date at Open.
const Layout = 1

// The tables. Everything is plain SQL that CockroachDB and YugabyteDB accept as well: no
// advisory locks, no LISTEN/NOTIFY, no stored procedures. One writer at a time is pf_head's row
// lock (SELECT … FOR UPDATE); a reader's snapshot is a REPEATABLE READ transaction.
//
//   - pf_kv: every key of every bucket — bucket is the bucket's path (paths.go), kind 0 a value,
//     kind 1 a nested bucket whose value is its sequence (8 bytes, big-endian).
//   - pf_head: one row, the revision of the last commit and the writers' lock.
//   - pf_log: the change log — per revision, the places the commit changed (touched.go) — which
//     the nodes follow; pruned by age (Options.LogKeep).
//   - pf_meta: the layout version and the database's identity (a replica from another
//     database is thrown away).
//   - pf_lease: the singleton leases (lease.go).
var schema = []string{
	`CREATE TABLE IF NOT EXISTS pf_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS pf_head (id INT PRIMARY KEY, rev BIGINT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS pf_kv (bucket BYTEA NOT NULL, key BYTEA NOT NULL, value BYTEA, kind SMALLINT NOT NULL, PRIMARY KEY (bucket, key))`,
	`CREATE TABLE IF NOT EXISTS pf_log (rev BIGINT PRIMARY KEY, places BYTEA NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now())`,
	`CREATE TABLE IF NOT EXISTS pf_lease (name TEXT PRIMARY KEY, holder TEXT NOT NULL, info TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL)`,
	`INSERT INTO pf_head (id, rev) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`,
}

// prepare creates the tables (two nodes starting at once may race on CREATE TABLE: the loser
// tries again), refuses a newer layout and returns the database's identity.
func prepare(ctx context.Context, pool *pgxpool.Pool, identity string) (string, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = createTables(ctx, pool, identity); err == nil {
			break
		}
	}
	if err != nil {
		return "", err
	}
	var layout, id string
	if err := pool.QueryRow(ctx, `SELECT value FROM pf_meta WHERE name = 'layout'`).Scan(&layout); err != nil {
		return "", err
	}
	if v, err := strconv.Atoi(layout); err != nil || v > Layout {
		return "", fmt.Errorf("%w: the database's tables are layout %s, this pocketforge knows layout %d (upgrade pocketforge)", ErrNewerLayout, layout, Layout)
	}
	if err := pool.QueryRow(ctx, `SELECT value FROM pf_meta WHERE name = 'id'`).Scan(&id); err != nil {
		return "", err
	}
	return id, nil
}

func createTables(ctx context.Context, pool *pgxpool.Pool, identity string) error {
	for _, q := range schema {
		if _, err := pool.Exec(ctx, q); err != nil {
			return err
		}
	}
	_, err := pool.Exec(ctx, `INSERT INTO pf_meta (name, value) VALUES ('layout', $1), ('id', $2) ON CONFLICT (name) DO NOTHING`,
		strconv.Itoa(Layout), identity)
	return err
}
