package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/store"
	"github.com/spf13/cobra"
)

// newExport builds `pocketforge export FILE`: an offline snapshot of the data file (the running
// server holds the file's lock; while it runs, GET /_appliance/snapshot does the same).
func newExport(env []string, stdout io.Writer) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "export FILE",
		Short: "Write a snapshot of the data file to FILE (- for stdout); the server must be stopped",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := config.FromFlags(cmd.Flags(), env)
			if err != nil {
				return err
			}
			if _, err := os.Stat(cfg.Data); err != nil && cfg.Store == "" {
				return fmt.Errorf("data file %s does not exist (choose it with --data): %w", cfg.Data, fs.ErrNotExist)
			}
			db, err := openOffline(cfg, "GET /_appliance/snapshot")
			if err != nil {
				return err
			}
			defer db.Close()
			if args[0] == "-" {
				_, _, err = db.Snapshot(stdout)
				return err
			}
			if err := db.SnapshotFile(args[0], force); err != nil {
				return err
			}
			sum, keys, err := db.ContentDigest()
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "exported %s to %s (schema %d, %d values, content digest sha256:%s)\n", db.Label(), args[0], store.SchemaVersion(), keys, sum)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite FILE if it exists")
	return cmd
}

// newImport builds `pocketforge import FILE`: replace the data file's contents with a snapshot.
func newImport(env []string, stdout io.Writer) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Replace the data file's contents with the snapshot FILE; the server must be stopped",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := config.FromFlags(cmd.Flags(), env)
			if err != nil {
				return err
			}
			if _, err := os.Stat(args[0]); err != nil {
				return fmt.Errorf("snapshot %s: %w", args[0], errors.Unwrap(err))
			}
			_, statErr := os.Stat(cfg.Data)
			if statErr == nil && !force {
				return refusal{fmt.Errorf("data file %s exists; pass --force to replace its contents with %s", cfg.Data, args[0])}
			}
			fresh := errors.Is(statErr, fs.ErrNotExist) // made by this import: a failed one leaves nothing behind
			db, err := openOffline(cfg, "POST /_appliance/restore")
			if err != nil {
				return err
			}
			info, err := db.RestoreFile(args[0])
			db.Close()
			if err != nil {
				if fresh {
					os.Remove(cfg.Data) // the empty file Open made would block the next, correct import
				}
				return err
			}
			fmt.Fprintf(stdout, "imported %s into %s (%d values, schema %d)\n", args[0], cfg.Data, info.Keys, info.SchemaVersion)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "replace the contents of an existing data file")
	return cmd
}

// openOffline opens the data file for a command that needs the server stopped. With --store it
// opens the database instead, through a replica of its own in a temporary directory (the
// nodes go on serving: a database has no single file to lock).
func openOffline(cfg *config.Config, whileRunning string) (*store.DB, error) {
	if cfg.Store != "" {
		return openDatabase(cfg.Store, cfg.BatchDelay)
	}
	db, err := store.Open(cfg.Data, store.Options{BatchDelay: cfg.BatchDelay})
	if errors.Is(err, store.ErrLocked) {
		return nil, fmt.Errorf("%w; while the server runs, use %s", err, whileRunning)
	}
	return db, err
}
