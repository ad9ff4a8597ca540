package explorersvc

import (
	"sort"
	"strings"

	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// How a search stays consistent with imports: each resolves what it found in one read
// transaction, so it sees every product as it was before or after an import, never a mix.

// Entry is one package a search found, with its product. The product is shared by every entry
// of it in one answer (read once, never copied per entry: answers list thousands).
type Entry struct {
	Package explorerstore.Package
	Product *explorerstore.Product
}

// resolver turns refs into entries inside one read transaction, reading each product record
// once.
type resolver struct {
	tx       kv.Tx
	packages *explorerstore.PackageReader
	products map[string]*explorerstore.Product
}

func (r *resolver) product(full string) *explorerstore.Product {
	if p, ok := r.products[full]; ok {
		return p
	}
	p, err := explorerstore.GetProduct(r.tx, full)
	if err != nil {
		p = explorerstore.Product{FullName: full, Name: full}
	}
	r.products[full] = &p
	return &p
}

func (r *resolver) entry(ref explorerstore.Ref) (Entry, bool) {
	pk, err := r.packages.Get(ref)
	if err != nil {
		return Entry{}, false
	}
	return Entry{Package: pk, Product: r.product(ref.Product)}, true
}

// entries resolves refs, sorted by package name (case-insensitively), then product and
// architecture.
func (r *resolver) entries(refs []explorerstore.Ref) []Entry {
	out := make([]Entry, 0, len(refs))
	lower := make([]string, 0, len(refs)) // sort keys made once, not per comparison
	for _, ref := range refs {
		if e, ok := r.entry(ref); ok {
			out = append(out, e)
			lower = append(lower, strings.ToLower(e.Package.Name))
		}
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := &out[order[i]], &out[order[j]]
		if la, lb := lower[order[i]], lower[order[j]]; la != lb {
			return la < lb
		}
		if a.Product.FullName != b.Product.FullName {
			return a.Product.FullName < b.Product.FullName
		}
		return a.Package.Arch < b.Package.Arch
	})
	sorted := make([]Entry, len(out))
	for i, k := range order {
		sorted[i] = out[k]
	}
	return sorted
}

// view runs fn with a resolver in one read transaction.
func (s *Service) view(fn func(r *resolver) error) error {
	return s.Store.View(func(tx kv.Tx) error {
		return fn(&resolver{tx: tx, packages: explorerstore.NewPackageReader(tx), products: map[string]*explorerstore.Product{}})
	})
}

// maxKeyRetries bounds how often keysThenView asks the index again because an import switched
// the store in between; after that many it holds the import lock for one last try.
const maxKeyRetries = 10

// keysThenView asks the index for keys, then resolves them in a read transaction of the same
// store generation the keys were asked at: an import adds its keys before it switches the
// store and drops old ones only after, so keys asked at generation g cover every package of
// generation g — but not of a later one. When an import switched in between, the search asks
// again; so every answer shows each product as one version, whole. Imports are seconds apart,
// but a machine under load can let them overtake a search again and again: after
// maxKeyRetries the search takes the import lock, so no import can switch the store between
// its keys and its records. exact is false only when even then the generation moved (a
// wholesale data replacement): that answer is given as it is and not cached.
func (s *Service) keysThenView(keys func() ([]string, error), fn func(r *resolver, keys []string) error) (exact bool, err error) {
	for attempt := 0; ; attempt++ {
		if attempt == maxKeyRetries {
			s.mu.Lock()
			defer s.mu.Unlock()
		}
		var before uint64
		_ = s.Store.View(func(tx kv.Tx) error { before = explorerstore.Generation(tx); return nil })
		ks, err := keys()
		if err != nil {
			return false, err
		}
		stale := false
		err = s.view(func(r *resolver) error {
			if explorerstore.Generation(r.tx) != before {
				exact = false
				if attempt < maxKeyRetries {
					stale = true
					return nil
				}
			} else {
				exact = true
			}
			return fn(r, ks)
		})
		if err != nil || !stale {
			return exact, err
		}
	}
}

// search asks the index for keys and resolves the packages indexed under them in the store's
// index bucket (store.ExplorerByName or ExplorerByVCS; see keysThenView). It returns the
// content version it resolved them at (see contentVersion) and whether the answer is exact.
func (s *Service) search(keys func() ([]string, error), index string) (list []Entry, v version, exact bool, err error) {
	exact, err = s.keysThenView(keys, func(r *resolver, ks []string) error {
		list = r.entries(explorerstore.RefsUnder(r.tx, index, ks))
		v = contentVersion(r.tx)
		return nil
	})
	return list, v, exact, err
}
