package explorerapi

import (
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/search"
	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"go.etcd.io/bbolt"
)

// Importer brings products into the store and keeps the search index in step. An import runs
// in three steps, so a search never sees half a product: the new product's search keys are
// added to the index first (a key that finds nothing yet is harmless), then the store replaces
// the product in one transaction (the switch every search sees whole), then the keys no
// package has any more leave the index. A crash between the steps leaves the index behind the
// store's generation, and EnsureIndex rebuilds it at the next start.
type Importer struct {
	Store *store.DB
	Index *search.Index
	Now   func() time.Time
	Log   *slog.Logger
	mu    sync.Mutex // one import at a time: the steps above must not interleave
}

// Imported is what an import reports.
type Imported struct {
	Product  string `json:"product"`
	Packages int    `json:"packages"`
	RPMs     int    `json:"rpms"`
	Files    int    `json:"files"`
	Skipped  bool   `json:"unchanged,omitempty"`
}

// Import replaces product in from with in (see Importer); an input whose digest equals the
// stored product's is skipped.
func (im *Importer) Import(in Input) (Imported, error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	out := Imported{Product: in.Product.FullName, Packages: len(in.Product.Packages), RPMs: len(in.RPMs)}
	var same bool
	_ = im.Store.View(func(tx *bbolt.Tx) error {
		p, err := explorerstore.GetProduct(tx, in.Product.FullName)
		same = err == nil && p.Digest == in.Digest && in.Digest != ""
		out.Files = p.Files
		return nil
	})
	if same {
		out.Skipped = true
		return out, nil
	}
	recs := make([]explorerstore.Package, len(in.Product.Packages))
	for i, p := range in.Product.Packages {
		recs[i] = explorerstore.FromSPDX(p)
	}
	names, vcs := explorerstore.Keys(recs)
	if err := im.Index.Apply(docs(names, vcs), nil, im.Index.Generation()); err != nil {
		return out, fmt.Errorf("search index: %w", err)
	}
	var ch explorerstore.Change
	err := im.Store.Write(func(tx *bbolt.Tx) (err error) {
		ch, err = explorerstore.Import(tx, in.Product, in.RPMs, in.Source, in.Digest, im.Now())
		if err == nil {
			p, _ := explorerstore.GetProduct(tx, in.Product.FullName)
			out.Files = p.Files
		}
		return err
	})
	if err != nil {
		return out, err
	}
	return out, im.dropStale(ch)
}

// Remove drops a product (not there: nothing happens).
func (im *Importer) Remove(full string) error {
	im.mu.Lock()
	defer im.mu.Unlock()
	var ch explorerstore.Change
	if err := im.Store.Write(func(tx *bbolt.Tx) (err error) { ch, err = explorerstore.Remove(tx, full); return }); err != nil {
		return err
	}
	if ch.Generation == 0 {
		return nil
	}
	return im.dropStale(ch)
}

// dropStale removes the keys of the old product that no package has any more, and records the
// store generation the index now reflects.
func (im *Importer) dropStale(ch explorerstore.Change) error {
	var remove []string
	err := im.Store.View(func(tx *bbolt.Tx) error {
		for _, k := range ch.OldNames {
			if !slices.Contains(ch.NewNames, k) && !explorerstore.HasKey(tx, store.ExplorerByName, k) {
				remove = append(remove, search.NameDocID(k))
			}
		}
		for _, k := range ch.OldVCS {
			if !slices.Contains(ch.NewVCS, k) && !explorerstore.HasKey(tx, store.ExplorerByVCS, k) {
				remove = append(remove, search.VCSDocID(k))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return im.Index.Apply(nil, remove, ch.Generation)
}

// docs makes the index documents of name and git keys.
func docs(names, vcs []string) []search.Doc {
	out := make([]search.Doc, 0, len(names)+len(vcs))
	for _, n := range names {
		out = append(out, search.NameDoc(n))
	}
	for _, k := range vcs {
		org, repo, branch, commit := explorerstore.SplitVCSKey(k)
		out = append(out, search.VCSDoc(k, org, repo, branch, commit))
	}
	return out
}

// EnsureIndex rebuilds the index when it does not reflect the store's generation (a new or
// damaged index, a crash between an import's steps, a restored snapshot); otherwise it does
// nothing. force rebuilds anyway (after reset, reseed or restore replaced the data).
func (im *Importer) EnsureIndex(force bool) error {
	im.mu.Lock()
	defer im.mu.Unlock()
	var gen uint64
	_ = im.Store.View(func(tx *bbolt.Tx) error { gen = explorerstore.Generation(tx); return nil })
	if !force && gen == im.Index.Generation() {
		return nil
	}
	started := time.Now()
	n := 0
	err := im.Index.Rebuild(func(yield func(search.Doc) error) error {
		return im.Store.View(func(tx *bbolt.Tx) error {
			gen = explorerstore.Generation(tx)
			if err := explorerstore.EachKey(tx, store.ExplorerByName, func(k string) error { n++; return yield(search.NameDoc(k)) }); err != nil {
				return err
			}
			return explorerstore.EachKey(tx, store.ExplorerByVCS, func(k string) error {
				n++
				org, repo, branch, commit := explorerstore.SplitVCSKey(k)
				return yield(search.VCSDoc(k, org, repo, branch, commit))
			})
		})
	}, gen)
	if err == nil && im.Log != nil {
		im.Log.Info("explorer search index rebuilt", "keys", n, "generation", gen, "ms", time.Since(started).Milliseconds())
	}
	return err
}

// Input is one product to import: the parsed SBOM, its RPM file lists (none when the product
// has no rpm-md repository beside it), where it came from and a digest of all of it.
type Input struct {
	Product spdx.Product
	RPMs    []spdx.RPM
	Source  string
	Digest  string
}

// MemoryImporter is an importer whose index lives in memory, filled from the store now: for
// callers that keep no index on disk (tests, ephemeral appliances).
func MemoryImporter(db *store.DB, now func() time.Time, log *slog.Logger) *Importer {
	ix, _, err := search.Open("")
	if err != nil {
		panic(fmt.Sprintf("an in-memory search index: %v", err)) // cannot fail but for a broken mapping
	}
	im := &Importer{Store: db, Index: ix, Now: now, Log: log}
	if err := im.EnsureIndex(false); err != nil && log != nil {
		log.Error("explorer search index", "err", err)
	}
	return im
}
