package pgkv

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// Inspection is what doctor shows of a database, read without changing anything.
type Inspection struct {
	URL    string // password masked
	Layout int    // the tables' layout (0: no pocketforge tables)
	Head   uint64 // the last revision
	Rows   int64  // keys and buckets held
	Log    int64  // change-log records kept
	Value  []byte // the value asked for (nil: none)
	Lease  LeaseState
}

// Inspect connects to the database at rawURL and reads its layout, head, sizes, the singletons'
// lease and the value of key in the top-level bucket — creating nothing.
func Inspect(rawURL, bucket, key, lease string) (Inspection, error) {
	in := Inspection{URL: Redact(rawURL)}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, rawURL)
	if err != nil {
		return in, fmt.Errorf("database %s: %w: %v", in.URL, ErrUnavailable, scrub(err, rawURL))
	}
	defer conn.Close(ctx)
	var layout string
	err = conn.QueryRow(ctx, `SELECT value FROM pf_meta WHERE name = 'layout'`).Scan(&layout)
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) || isUndefinedTable(err) {
			return in, nil // no pocketforge tables
		}
		return in, fmt.Errorf("database %s: %v", in.URL, err)
	}
	in.Layout, _ = strconv.Atoi(layout)
	if in.Layout > Layout {
		return in, nil
	}
	_ = conn.QueryRow(ctx, `SELECT rev FROM pf_head WHERE id = 1`).Scan(&in.Head)
	_ = conn.QueryRow(ctx, `SELECT count(*) FROM pf_kv`).Scan(&in.Rows)
	_ = conn.QueryRow(ctx, `SELECT count(*) FROM pf_log`).Scan(&in.Log)
	_ = conn.QueryRow(ctx, `SELECT value FROM pf_kv WHERE bucket = $1 AND key = $2 AND kind = 0`, appendName([]byte{}, []byte(bucket)), []byte(key)).Scan(&in.Value)
	_ = conn.QueryRow(ctx, `SELECT holder, info, expires > now() FROM pf_lease WHERE name = $1`, lease).Scan(&in.Lease.Holder, &in.Lease.Info, &in.Lease.Live)
	return in, nil
}

func isUndefinedTable(err error) bool {
	var pe interface{ SQLState() string }
	return errors.As(err, &pe) && pe.SQLState() == "42P01"
}
