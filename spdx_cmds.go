package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"runtime/debug"
	"time"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/search/textindex"
	"github.com/spf13/cobra"
)

// newImportSPDX builds `pocketforge import-spdx FILE|DIR…`: import product SBOMs (each with the
// repodata/ beside it) into the data file and its search index while the server is stopped
// (it holds the file's lock; while it runs, POST /_appliance/explorer/import does the same).
// Each product is imported whole or not at all; a product that does not load is named with
// its problem, the others go in, and the exit status says whether all did.
func newImportSPDX(env []string, stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "import-spdx FILE|DIR...",
		Short: "Import product SBOMs (*.spdx.json, with repodata/ beside each) into the explorer; the server must be stopped",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			limitImportMemory()
			cfg, err := config.FromFlags(cmd.Flags(), env)
			if err != nil {
				return err
			}
			db, err := openOffline(cfg, "POST /_appliance/explorer/import?path=…")
			if err != nil {
				return err
			}
			defer db.Close()
			ix, _, err := textindex.Open(db.Path() + ".index")
			if err != nil {
				return err
			}
			defer ix.Close()
			svc := &explorersvc.Service{Store: db, Index: ix, Now: time.Now, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
			if err := svc.EnsureIndex(false); err != nil {
				return err
			}
			failed := 0
			for _, arg := range args {
				files, err := explorersvc.FindSBOMs(arg)
				if err != nil {
					return err
				}
				if len(files) == 0 {
					return fmt.Errorf("%s: no *%s file", arg, explorersvc.SBOMSuffix)
				}
				t0 := time.Now() // each line shows the time since the one before (the next file loads meanwhile)
				for l := range explorersvc.LoadAhead(files) {
					f, err := l.File, l.Err
					if err == nil {
						var res explorersvc.Imported
						if res, err = svc.Import(l.Input); err == nil {
							state := "imported"
							if res.Skipped {
								state = "unchanged"
							}
							fmt.Fprintf(stdout, "%s %s: %d packages, %d RPMs, %d files (%s, %.1fs)\n", state, res.Product,
								res.Packages, res.RPMs, res.Files, f, time.Since(t0).Seconds())
							t0 = time.Now()
							continue
						}
					}
					failed++
					fmt.Fprintf(stdout, "not imported: %v\n", err)
					t0 = time.Now()
				}
			}
			if failed > 0 {
				return errors.New(plural(failed, "product was", "products were") + " not imported")
			}
			return nil
		},
	}
}

// importMemoryLimit is the Go memory limit import-spdx runs under unless GOMEMLIMIT sets one.
// An import holds about 230 MB at its peak (100,000 packages in four products: the next
// product parsed and prepared while one is written); the collector's default target of twice
// the live heap let the process grow to 0.5 GB, though nothing needed it. Under the limit the
// collector runs when the heap reaches it rather than whenever the heap doubles (unless GOGC
// says otherwise): 16 collections instead of 39 for the four products. It bounds nothing an
// import holds: a larger product makes the collector work harder, not the import fail.
const importMemoryLimit = 384 << 20

// limitImportMemory sets importMemoryLimit, unless the environment set a limit, and leaves
// collecting to it, unless the environment set GOGC.
func limitImportMemory() {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return
	}
	debug.SetMemoryLimit(importMemoryLimit)
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(-1)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
