package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/search/textindex"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/spf13/cobra"
)

// offlineLockWait is how long doctor and compact wait for the data file's lock: long enough for a
// server that is just stopping, short enough that one still running is reported at once.
const offlineLockWait = 500 * time.Millisecond

// newDoctor builds `pocketforge doctor`: the data file and the explorer's search index checked
// offline, with their sizes, so an operator can tell a damaged file from a big one before
// restoring a snapshot or compacting. It reads only (the file's shared lock keeps a server from
// starting meanwhile); the exit status is 1 when it found a problem, each named on stdout.
func newDoctor(env []string, stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the data file (bbolt check, schema version) and the search index, and print sizes; the server must be stopped",
		Long: `Check the data file offline and print what it holds: bbolt's consistency check over every
page, the schema version against this binary's, the explorer's search index beside it (<data>.index:
does it open, does it reflect the data's generation), the file's size and each top-level bucket's
keys and bytes. Nothing is changed. Exits 1 when the data file is damaged, not a pocketforge file,
of a newer schema, or its index does not open; a stale or missing index is only noted (serve
rebuilds it at its next start). A file in use by a running pocketforge is refused.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.FromFlags(cmd.Flags(), env)
			if err != nil {
				return err
			}
			doctorOf, where := doctor, cfg.Data
			if cfg.Store != "" { // a shared database: read while the nodes serve
				where = config.MaskURL(cfg.Store)
				doctorOf = func(_ string, w io.Writer) (int, error) { return store.InspectDatabase(cfg.Store, w) }
			}
			problems, err := doctorOf(cfg.Data, stdout)
			if err != nil {
				return err
			}
			if problems > 0 {
				return fmt.Errorf("doctor: %d problem(s) with %s, listed above", problems, where)
			}
			fmt.Fprintln(stdout, "doctor: no problems found")
			return nil
		},
	}
}

// doctor checks the data file at path and its index, printing to w, and returns the number of
// problems found; an error means the file could not be examined at all (missing, in use).
func doctor(path string, w io.Writer) (int, error) {
	// A snapshot carries the SHA-256 of its pages (issue 32): any changed byte is found here,
	// before the structure is read. A data file has none.
	if found, err := store.CheckSnapshotDigest(path); err != nil && found {
		fmt.Fprintf(w, "PROBLEM: %v\n", err)
		fmt.Fprintln(w, "  the snapshot is damaged; export a new one from its appliance (nothing else was read)")
		return 1, nil
	} else if found {
		fmt.Fprintln(w, "digest: ok (a snapshot whose pages match the SHA-256 it carries)")
	}
	o, err := store.OpenOffline(path, offlineLockWait)
	if err != nil {
		if errors.Is(err, store.ErrLocked) {
			return 0, fmt.Errorf("%w; doctor reads a stopped appliance's file (nothing was read or changed)", err)
		}
		if errors.Is(err, store.ErrNotPocketforge) {
			fmt.Fprintf(w, "PROBLEM: %v\n", err)
			return 1, nil
		}
		return 0, err
	}
	defer o.Close()
	fmt.Fprintf(w, "data file %s: %s (page size %d)\n", path, humanBytes(o.Size()), o.PageSize())
	if err := o.Check(); err != nil {
		fmt.Fprintf(w, "PROBLEM: %v\n", err)
		fmt.Fprintln(w, "  restore a snapshot (pocketforge import SNAPSHOT --force); nothing else was read")
		return 1, nil
	}
	fmt.Fprintln(w, "consistency: ok (every page walked, bbolt's check clean)")
	problems := 0
	v, err := o.SchemaVersion()
	switch {
	case err != nil:
		fmt.Fprintf(w, "PROBLEM: %v\n", err)
		if !errors.Is(err, store.ErrNewerSchema) {
			return 1, nil
		}
		problems++
	case v < store.SchemaVersion():
		fmt.Fprintf(w, "schema: version %d, this pocketforge writes %d: serve migrates it at its next start\n", v, store.SchemaVersion())
	default:
		fmt.Fprintf(w, "schema: version %d (this pocketforge's)\n", v)
	}
	var gen uint64
	if err := o.View(func(tx kv.Tx) error { gen = explorerstore.Generation(tx); return nil }); err != nil {
		return problems + 1, err
	}
	if !doctorIndex(w, path+".index", gen) {
		problems++
	}
	buckets, err := o.Buckets()
	if err != nil {
		fmt.Fprintf(w, "PROBLEM: %v\n", err)
		return problems + 1, nil
	}
	printBuckets(w, o.Size(), buckets)
	return problems, nil
}

// doctorIndex describes the search index at path against the store's explorer generation gen;
// false when it does not open. A missing, stale or other-version index is rebuilt by serve.
func doctorIndex(w io.Writer, path string, gen uint64) bool {
	info, err := textindex.Inspect(path)
	switch {
	case errors.Is(err, textindex.ErrNoIndex):
		fmt.Fprintf(w, "search index %s: none (serve builds it at its next start)\n", path)
	case err != nil:
		fmt.Fprintf(w, "PROBLEM: %v\n  serve replaces an index it cannot open at its next start; or remove the directory\n", err)
		return false
	case info.Version != textindex.Version:
		fmt.Fprintf(w, "search index %s: mapping version %q, this pocketforge uses %q: serve rebuilds it at its next start\n", path, info.Version, textindex.Version)
	case info.Generation != gen:
		fmt.Fprintf(w, "search index %s: generation %d, the data's is %d: stale, serve rebuilds it at its next start (%d documents, %s)\n",
			path, info.Generation, gen, info.Docs, humanBytes(info.Bytes))
	default:
		fmt.Fprintf(w, "search index %s: ok, generation %d as the data's, %d documents, %s\n", path, gen, info.Docs, humanBytes(info.Bytes))
	}
	return true
}

// printBuckets prints the non-empty top-level buckets with their keys and bytes, then totals
// and the space a compact could give back.
func printBuckets(w io.Writer, size int64, buckets []store.BucketInfo) {
	width := len("bucket")
	for _, b := range buckets {
		width = max(width, len(bucketLabel(b)))
	}
	fmt.Fprintf(w, "%-*s %9s %10s\n", width, "bucket", "keys", "bytes")
	keys, used, empty := 0, int64(0), 0
	for _, b := range buckets {
		keys += b.Keys
		used += b.Bytes
		if b.Keys == 0 {
			empty++
			continue
		}
		fmt.Fprintf(w, "%-*s %9d %10s\n", width, bucketLabel(b), b.Keys, humanBytes(b.Bytes))
	}
	fmt.Fprintf(w, "total: %d keys in %d buckets (%d empty), %s in bucket pages of a %s file", keys, len(buckets), empty, humanBytes(used), humanBytes(size))
	if free := size - used; free > size/4 && free > 1<<20 {
		fmt.Fprintf(w, "; about %s is free space pocketforge compact gives back", humanBytes(free))
	}
	fmt.Fprintln(w)
}

// bucketLabel names a bucket, marking one this build does not know (left by another version).
func bucketLabel(b store.BucketInfo) string {
	if !b.Registered {
		return b.Name + " (unknown to this pocketforge)"
	}
	return b.Name
}

// newCompact builds `pocketforge compact`: the data file rewritten offline without the free
// pages deleted data left behind (bbolt only reuses them, never gives them back). The original
// stays as <data>.bak unless --no-backup.
func newCompact(env []string, stdout io.Writer) *cobra.Command {
	var noBackup bool
	cmd := &cobra.Command{
		Use:   "compact",
		Short: "Rewrite the data file without its free space (keeps <data>.bak); the server must be stopped",
		Long: `Rewrite the data file offline into a compact copy: every bucket, key, value and sequence, in
freshly filled pages, without the free pages deleted data left behind. The copy is written beside the
data file, synced, checked (bbolt's check and a digest of the whole contents against the original's)
and then renamed over it; the original is kept as <data>.bak (a hard link) unless --no-backup. A file
in use by a running pocketforge, a damaged file or an existing <data>.bak is refused and nothing is
changed. The search index beside the file stays valid.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.FromFlags(cmd.Flags(), env)
			if err != nil {
				return err
			}
			opt := store.CompactOptions{LockTimeout: offlineLockWait}
			if !noBackup {
				opt.Backup = cfg.Data + ".bak"
			}
			res, err := store.Compact(cfg.Data, opt)
			if errors.Is(err, store.ErrLocked) {
				return fmt.Errorf("%w; compact rewrites a stopped appliance's file (nothing was changed)", err)
			}
			if errors.Is(err, store.ErrNotPocketforge) {
				return fmt.Errorf("%w; nothing was changed (pocketforge doctor says more)", err)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "compacted %s: %s -> %s (%d values)\n", cfg.Data, humanBytes(res.Before), humanBytes(res.After), res.Keys)
			if opt.Backup != "" {
				fmt.Fprintf(stdout, "the original is kept as %s; remove it once the appliance runs well\n", opt.Backup)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&noBackup, "no-backup", false, "do not keep the original as <data>.bak")
	return cmd
}

// humanBytes formats n bytes in binary units: 512 B, 1.5 KiB, 12.0 MiB.
func humanBytes(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, units := float64(n)/1024, strings.Fields("KiB MiB GiB TiB")
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}
