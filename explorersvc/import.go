package explorersvc

import (
	"fmt"
	"slices"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/search/textindex"
	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Input is one product to import: the parsed SBOM, its RPM file lists (none when the product
// has no rpm-md repository beside it), where it came from and a digest of all of it.
type Input struct {
	Product spdx.Product
	RPMs    []spdx.RPM
	Source  string
	Digest  string
	// prep is the product prepared ahead (see prepare); nil: Import prepares it.
	prep    *explorerstore.Prepared
	prepErr error
}

// prepare encodes and sorts the product's records now (explorerstore.Prepare) rather than when
// it is imported, and lets go of the parsed packages and file lists, which the prepared
// records hold in a fraction of their memory. LoadAhead prepares the next product while the
// one before is written; an error is the import's, reported when the product is imported. A
// prepared input is for Import: a replacer would find no packages in it.
func (in *Input) prepare() {
	in.prep, in.prepErr = explorerstore.Prepare(in.Product, in.RPMs)
	in.RPMs, in.Product.Packages = nil, nil
}

// Imported is what an import reports.
type Imported struct {
	Product  string
	Packages int
	RPMs     int
	Files    int
	// Skipped says the input's digest equals the stored product's: nothing was written.
	Skipped bool
}

// Import replaces product in from with in (see Service); an input whose digest equals the
// stored product's is skipped.
func (s *Service) Import(in Input) (Imported, error) {
	out, _, err := s.importReplacing(in, nil)
	return out, err
}

// replacer decides, inside an import's transaction, which other products the import replaces
// (they are removed in the same transaction, so a search sees the old ones or the new one,
// never both or neither), or refuses the import with an error.
type replacer func(tx kv.Tx, in *Input) ([]string, error)

// importReplacing is Import that also removes the products replace names (nil: none), and
// reports those it removed.
func (s *Service) importReplacing(in Input, replace replacer) (out Imported, replaced []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out = Imported{Product: in.Product.FullName, Packages: len(in.Product.Packages), RPMs: len(in.RPMs)}
	if in.prep != nil {
		out.Packages, out.RPMs, _ = in.prep.Counts()
	}
	var same bool
	_ = s.Store.View(func(tx kv.Tx) error {
		p, err := explorerstore.GetProduct(tx, in.Product.FullName)
		same = err == nil && p.Digest == in.Digest && in.Digest != ""
		out.Files = p.Files
		return nil
	})
	if same {
		out.Skipped = true
		return out, nil, nil
	}
	// The index takes the new keys while the records are encoded, sorted (unless that was done
	// ahead) and, for a large product, staged in the store: both are most of an import, and
	// they need different cores. The product is written (or its staged records moved into
	// place) only when both are done, so a product the index failed to take is not written
	// either; keys added for a product the store then does not take are taken back, and so
	// are its staged records.
	prep, prepErr := in.prep, in.prepErr
	if prepErr != nil {
		return out, nil, prepErr
	}
	var names, vcs []string
	if prep != nil {
		names, vcs = prep.Names, prep.VCS
	} else {
		names, vcs = explorerstore.Keys(explorerstore.Records(in.Product.Packages))
	}
	ready := make(chan struct{})
	go func() {
		defer close(ready)
		if prep == nil {
			if prep, prepErr = explorerstore.Prepare(in.Product, in.RPMs); prepErr != nil {
				return
			}
		}
		prepErr = explorerstore.Stage(prep, s.Store.Write)
	}()
	_ = s.Store.View(func(tx kv.Tx) error { // keys another product holds are indexed already
		names = explorerstore.MissingKeys(tx, store.ExplorerByName, names)
		vcs = explorerstore.MissingKeys(tx, store.ExplorerByVCS, vcs)
		return nil
	})
	added := docs(names, vcs)
	indexErr := s.Index.Add(added)
	<-ready
	undo := func() {
		_ = s.Store.Write(explorerstore.DropStaged)
		_ = s.Index.Remove(added) // what the index says must not outlive the import
	}
	if prepErr != nil || indexErr != nil {
		undo()
		if indexErr != nil {
			return out, nil, fmt.Errorf("search index: %w", indexErr)
		}
		return out, nil, prepErr
	}
	var ch explorerstore.Change
	err = s.Store.Write(func(tx kv.Tx) (err error) {
		var olds []string
		if replace != nil {
			if olds, err = replace(tx, &in); err != nil {
				return err
			}
		}
		ch, err = explorerstore.Import(tx, prep, in.Source, in.Digest, s.Now())
		if err != nil {
			return err
		}
		for _, old := range olds {
			gone, err := explorerstore.Remove(tx, old)
			if err != nil {
				return err
			}
			ch = mergeChange(ch, gone)
		}
		replaced = olds
		p, _ := explorerstore.GetProduct(tx, in.Product.FullName)
		out.Files = p.Files
		return nil
	})
	if err != nil {
		undo()
		return out, nil, err
	}
	return out, replaced, s.dropStale(ch)
}

// mergeChange adds a removal made in an import's transaction to the import's change: the
// removed product's keys are old keys too (dropStale keeps those another product still has),
// and the generation is the last one the transaction wrote.
func mergeChange(ch, gone explorerstore.Change) explorerstore.Change {
	ch.OldNames = append(ch.OldNames, gone.OldNames...)
	ch.OldVCS = append(ch.OldVCS, gone.OldVCS...)
	ch.Generation = max(ch.Generation, gone.Generation)
	return ch
}

// Remove drops a product (not there: nothing happens, which is what the directory watcher
// wants of a product someone else removed first).
func (s *Service) Remove(full string) error {
	_, err := s.remove(full)
	return err
}

// Delete drops a product the operator names; one that is not imported is a not-found error,
// so the operator learns of a typo.
func (s *Service) Delete(full string) error {
	found, err := s.remove(full)
	if err == nil && !found {
		return fault.NotFound("", "product %s is not imported", full)
	}
	return err
}

// remove drops a product and reports whether there was one.
func (s *Service) remove(full string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ch explorerstore.Change
	if err := s.Store.Write(func(tx kv.Tx) (err error) { ch, err = explorerstore.Remove(tx, full); return }); err != nil {
		return false, err
	}
	if ch.Generation == 0 {
		return false, nil
	}
	return true, s.dropStale(ch)
}

// dropStale removes the keys of the old product that no package has any more, and records the
// store generation the index now reflects.
func (s *Service) dropStale(ch explorerstore.Change) error {
	var remove []string
	err := s.Store.View(func(tx kv.Tx) error {
		for _, k := range ch.OldNames {
			if !sortedHas(ch.NewNames, k) && !explorerstore.HasKey(tx, store.ExplorerByName, k) {
				remove = append(remove, textindex.NameDocID(k))
			}
		}
		for _, k := range ch.OldVCS {
			if !sortedHas(ch.NewVCS, k) && !explorerstore.HasKey(tx, store.ExplorerByVCS, k) {
				remove = append(remove, textindex.VCSDocID(k))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.Index.Apply(nil, remove, ch.Generation)
}

// docs makes the index documents of name and git keys.
// sortedHas reports whether the sorted keys hold k (a product's keys are many: a linear search
// per old key made re-importing 100,000 packages quadratic).
func sortedHas(keys []string, k string) bool {
	_, ok := slices.BinarySearch(keys, k)
	return ok
}

func docs(names, vcs []string) []textindex.Doc {
	out := make([]textindex.Doc, 0, len(names)+len(vcs))
	for _, n := range names {
		out = append(out, textindex.NameDoc(n))
	}
	for _, k := range vcs {
		org, repo, branch, commit := explorerstore.SplitVCSKey(k)
		out = append(out, textindex.VCSDoc(k, org, repo, branch, commit))
	}
	return out
}

// Products lists the imported products, by full name.
func (s *Service) Products() ([]explorerstore.Product, error) {
	var list []explorerstore.Product
	err := s.Store.View(func(tx kv.Tx) (err error) { list, err = explorerstore.Products(tx); return })
	return list, err
}
