package explorersvc

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"

	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// One published medium of the farm: read, parsed and imported as a product file is
// (products_follow.go says when and why).

// followMedium brings medium m's product into the store, or logs why not. A medium whose
// product is stored from its source with its digest is only kept.
func (s *Service) followMedium(ctx context.Context, f *productFollower, pass *followPass, m ProductMedium, log *slog.Logger) {
	source, key := FarmSource(m), mediumKey(m)
	pass.seen[key] = true
	remember := func(state, what string, err error) {
		if m.Digest != "" && f.bad[key] == m.Digest+state {
			pass.keepFrom[source] = true // logged when first seen
			return
		}
		if m.Digest != "" {
			f.bad[key] = m.Digest + state
		}
		pass.logFailed(m, what, err)
	}
	if err := checkMedium(m); err != nil {
		remember("", "its name or place is not valid", err)
		return
	}
	if cur, ok := s.storedProduct(m.Name); ok && cur.Source != source {
		// A product's full name is its key: two sources would replace each other on every
		// change. The one imported first keeps it until it goes.
		remember("\x00"+cur.Source, "the product is imported from another source", fmt.Errorf("imported from %s", cur.Source))
		return
	} else if ok && m.Digest != "" && cur.Digest == m.Digest {
		pass.keep[m.Name] = true
		return
	}
	if m.Digest != "" && f.bad[key] == m.Digest {
		pass.keepFrom[source] = true // it did not parse, and has not changed since
		return
	}
	in, err := s.readMedium(ctx, m)
	var unread unreadable
	switch {
	case errors.As(err, &unread):
		pass.logFailed(m, "its files could not be read", err)
		return
	case err != nil:
		remember("", "its files do not parse", err)
		return
	}
	res, replaced, err := s.importReplacing(in, farmImport)
	if err != nil {
		pass.logFailed(m, "the import failed", err)
		return
	}
	delete(f.bad, key)
	pass.keep[m.Name] = true
	if !res.Skipped {
		attrs := []any{"product", res.Product, "source", source, "packages", res.Packages, "files", res.Files}
		if len(replaced) > 0 {
			attrs = append(attrs, "replaced", strings.Join(replaced, " "))
		}
		log.Info("explorer: product imported from the build service", attrs...)
	}
}

// checkMedium refuses a medium whose place would not read back from its source (an empty part,
// or a "/" in one) or whose name is no plain file name.
func checkMedium(m ProductMedium) error {
	for _, part := range []string{m.Project, m.Repository, m.Arch, m.Package} {
		if part == "" || strings.Contains(part, "/") {
			return fmt.Errorf("project, repository, arch and package must be non-empty and hold no /: %q", FarmSource(m))
		}
	}
	if m.Name == "" || strings.Contains(m.Name, "/") || !fs.ValidPath(m.Name+SBOMSuffix) {
		return fmt.Errorf("product name %q is no plain file name", m.Name)
	}
	return nil
}

// storedProduct is the stored product named full, if any.
func (s *Service) storedProduct(full string) (explorerstore.Product, bool) {
	var p explorerstore.Product
	var err error
	_ = s.Store.View(func(tx kv.Tx) error { p, err = explorerstore.GetProduct(tx, full); return nil })
	return p, err == nil
}

// unreadable is a medium's file that could not be read, as opposed to one that does not
// parse: it is tried again on the next change, whatever its digest.
type unreadable struct{ error }

func (u unreadable) Unwrap() error { return u.error }

// readMedium opens medium m's files and loads them; a failure to open or read them is
// unreadable, any other a problem of their content.
func (s *Service) readMedium(ctx context.Context, m ProductMedium) (Input, error) {
	fsys, err := s.backend.ProductFiles(ctx, m)
	if err == nil && fsys == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return Input{}, unreadable{err}
	}
	return loadMedium(fsys, m)
}

// loadMedium reads a medium's <Name>.spdx.json and the repodata/ beside it, as LoadSBOM reads
// a product file. The SBOM must name the medium's product. Its digest is the medium's (or,
// when the backend gives none, the SBOM's and repomd.xml's, as LoadSBOM's).
func loadMedium(fsys fs.FS, m ProductMedium) (Input, error) {
	name := m.Name + SBOMSuffix
	p, rpms, digest, err := loadProduct(fsys, name, name)
	if err != nil {
		return Input{}, err
	}
	if p.FullName != m.Name {
		return Input{}, fmt.Errorf("%s: the SBOM names product %q, not %q", name, p.FullName, m.Name)
	}
	if m.Digest != "" {
		digest = m.Digest
	}
	return Input{Product: p, RPMs: rpms, Source: FarmSource(m), Digest: digest}, nil
}

// farmImport is the replacer of a farm medium's import: the older builds it replaces
// (rebuildOf), and the git model's branches moved to the commits the product names
// (moveGitHeads), in the import's transaction.
func farmImport(tx kv.Tx, in *Input) ([]string, error) {
	olds, err := rebuildOf(tx, in)
	if err != nil {
		return nil, err
	}
	return olds, moveGitHeads(tx, in.Product)
}

// rebuildOf is the farm import's replacer: the import replaces the older builds of its product
// (the same name, version and arch, another full name) that came from the same source, and is
// refused when its full name was taken by another source since the follower looked.
func rebuildOf(tx kv.Tx, in *Input) ([]string, error) {
	full := in.Product.FullName
	if cur, err := explorerstore.GetProduct(tx, full); err == nil && cur.Source != in.Source {
		return nil, fmt.Errorf("product %s is imported from %s: %w", full, cur.Source, store.ErrConflict)
	}
	list, err := explorerstore.Products(tx)
	if err != nil {
		return nil, err
	}
	var olds []string
	for _, p := range list {
		if p.Source == in.Source && p.FullName != full && p.Name == in.Product.Name &&
			p.Version == in.Product.Version && p.Arch == in.Product.Arch {
			olds = append(olds, p.FullName)
		}
	}
	return olds, nil
}

// newestMedia keeps, of the media one source publishes for one product (the same name,
// version and arch), the newest build only: were an older build still listed beside its
// rebuild, each would replace the other on every pass. Builds compare by their labels with
// numbers as numbers (Build1.10 after Build1.9). The order of the rest is kept.
func newestMedia(media []ProductMedium) []ProductMedium {
	newest := map[string]int{} // source and product → index in media
	for i, m := range media {
		name, version, arch, build := spdx.ParseProductName(m.Name)
		if build == "" {
			continue
		}
		key := FarmSource(m) + "\x00" + name + "\x00" + version + "\x00" + arch
		if j, ok := newest[key]; !ok || compareBuilds(build, buildOf(media[j].Name)) > 0 {
			newest[key] = i
		}
	}
	out := media[:0:0]
	for i, m := range media {
		name, version, arch, build := spdx.ParseProductName(m.Name)
		if build == "" || newest[FarmSource(m)+"\x00"+name+"\x00"+version+"\x00"+arch] == i {
			out = append(out, m)
		}
	}
	return out
}

// buildOf is the build label of a product's full name.
func buildOf(full string) string {
	_, _, _, build := spdx.ParseProductName(full)
	return build
}

// compareBuilds orders build labels with runs of digits compared as numbers.
func compareBuilds(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun is the length of the run of digits s starts with.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
