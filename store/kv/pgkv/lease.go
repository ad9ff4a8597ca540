package pgkv

import (
	"context"
	"time"
)

// A lease is a row of pf_lease: who holds the name until when, and what the holder publishes
// (its external URL and what runs on it). Taking one is one INSERT … ON CONFLICT DO UPDATE that
// only succeeds for the holder or once the lease has expired, so two nodes never both hold it
// (the database's clock decides expiry: the nodes' clocks need not agree).

// LeaseState is a lease as the database holds it.
type LeaseState struct {
	Holder string
	Info   string
	// Live: the lease has not expired.
	Live bool
}

// Lease takes or renews the lease name for holder for ttl, publishing info, and returns the
// lease as it stands afterwards (held by holder, or by another).
func (d *DB) Lease(ctx context.Context, name, holder, info string, ttl time.Duration) (LeaseState, error) {
	_, err := d.pool.Exec(ctx, `INSERT INTO pf_lease (name, holder, info, expires) VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, info = excluded.info, expires = excluded.expires
		WHERE pf_lease.holder = excluded.holder OR pf_lease.expires < now()`, name, holder, info, ttl.Milliseconds())
	if err != nil {
		return LeaseState{}, err
	}
	var st LeaseState
	err = d.pool.QueryRow(ctx, `SELECT holder, info, expires > now() FROM pf_lease WHERE name = $1`, name).Scan(&st.Holder, &st.Info, &st.Live)
	return st, err
}

// Release gives the lease up at once (a clean stop), if holder holds it.
func (d *DB) Release(ctx context.Context, name, holder string) error {
	_, err := d.pool.Exec(ctx, `DELETE FROM pf_lease WHERE name = $1 AND holder = $2`, name, holder)
	return err
}
