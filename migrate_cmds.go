package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv/pgkv"
	"github.com/spf13/cobra"
)

// newMigrate builds `pocketforge migrate --from A --to B` (issue 36): copy everything from a
// data file to a PostgreSQL database, or back, or between two of either — the appliance's
// credentials and clock included — in one transaction of the target, then compare the two
// content digests. A target holding data is refused without --force. The source is only read.
func newMigrate(stdout io.Writer) *cobra.Command {
	var from, to string
	var force bool
	cmd := &cobra.Command{
		Use:   "migrate --from SOURCE --to TARGET",
		Short: "Copy all data between a data file and a PostgreSQL database (postgres://…), either way; no server may write the target",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if from == "" || to == "" {
				return refusal{errors.New("migrate needs --from and --to: a data file path or a postgres:// URL each")}
			}
			if from == to {
				return refusal{errors.New("--from and --to name the same place")}
			}
			if !pgkv.IsURL(from) {
				if _, err := os.Stat(from); err != nil {
					return fmt.Errorf("source data file %s: %w", from, err)
				}
			}
			src, closeSrc, err := openMigrateSource(from)
			if err != nil {
				return err
			}
			defer closeSrc()
			dst, closeDst, err := openMigrateTarget(to)
			if err != nil {
				return err
			}
			defer closeDst()
			empty, err := dst.Empty()
			if err != nil {
				return err
			}
			if !empty && !force {
				return refusal{fmt.Errorf("target %s holds data; pass --force to replace all of it with %s", label(to), label(from))}
			}
			start := time.Now()
			info, err := dst.CopyAll(src)
			if err != nil {
				return fmt.Errorf("migrate to %s: %w (the target is as it was)", label(to), err)
			}
			want, _, err := store.ContentDigest(src)
			if err != nil {
				return err
			}
			got, keys, err := dst.ContentDigest()
			if err != nil {
				return err
			}
			if info.SchemaVersion == store.SchemaVersion() && got != want {
				return fmt.Errorf("migrate to %s: the copy's content digest %s differs from the source's %s", label(to), got, want)
			}
			fmt.Fprintf(stdout, "migrated %s to %s: %d values (schema %d) in %s, content digest sha256:%s\n",
				label(from), label(to), keys, store.SchemaVersion(), time.Since(start).Round(time.Millisecond), got)
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "the source: a data `file` or a postgres:// URL")
	cmd.Flags().StringVar(&to, "to", "", "the target: a data `file` or a postgres:// URL")
	cmd.Flags().BoolVar(&force, "force", false, "replace a target that holds data")
	return cmd
}

// label names a migrate end for messages: a URL with its password masked.
func label(where string) string {
	if pgkv.IsURL(where) {
		return pgkv.Redact(where)
	}
	return where
}

// openMigrateSource opens the source read-only: a file with its shared lock (no server may run
// on it; it is neither migrated nor changed), or a database.
func openMigrateSource(where string) (store.Viewer, func(), error) {
	if pgkv.IsURL(where) {
		db, err := openDatabase(where, 0)
		if err != nil {
			return nil, nil, err
		}
		return db, func() { db.Close() }, nil
	}
	o, err := store.OpenOffline(where, 0)
	if err != nil {
		if errors.Is(err, store.ErrLocked) {
			err = fmt.Errorf("%w; stop the server first", err)
		}
		return nil, nil, err
	}
	if err := o.Check(); err != nil {
		o.Close()
		return nil, nil, err
	}
	return o, func() { o.Close() }, nil
}

// openMigrateTarget opens (creating) the target file, with its lock, or database.
func openMigrateTarget(where string) (*store.DB, func(), error) {
	if pgkv.IsURL(where) {
		db, err := openDatabase(where, 0)
		if err != nil {
			return nil, nil, err
		}
		return db, func() { db.Close() }, nil
	}
	db, err := store.Open(where, store.Options{})
	if err != nil {
		if errors.Is(err, store.ErrLocked) {
			err = fmt.Errorf("%w; stop the server first", err)
		}
		return nil, nil, err
	}
	return db, func() { db.Close() }, nil
}

// openDatabase opens a PostgreSQL store through a replica of its own in a temporary directory,
// removed on close: for the offline commands, which read or write the database once.
func openDatabase(url string, batchDelay time.Duration) (*store.DB, error) {
	dir, err := os.MkdirTemp("", "pocketforge-replica-*")
	if err != nil {
		return nil, err
	}
	db, err := store.OpenPostgres(url, filepath.Join(dir, "replica.db"), store.Options{BatchDelay: batchDelay})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return db.WithCleanup(func() { os.RemoveAll(dir) }), nil
}
