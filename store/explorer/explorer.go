// Package explorer keeps the repository explorer's records of truth: products imported from
// SPDX product SBOMs, their packages, and the RPM file lists, with the exact-match indexes the
// searches read (by package name, by git tuple, by file path and basename). The bleve index
// (package search) is derived from these buckets and only names keys into them, so a search
// that resolves its keys in one read transaction sees each product either before or after an
// import, never half of it.
package explorer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// Product is an imported product.
type Product struct {
	FullName    string    `json:"full_name"`
	Name        string    `json:"name"`
	Version     string    `json:"version"`
	Arch        string    `json:"architecture"`
	BuildNumber string    `json:"build_number"`
	DistURL     string    `json:"disturl,omitempty"`
	Source      string    `json:"source"` // the file or directory it came from
	Digest      string    `json:"digest"` // sha256 of the inputs: an unchanged file is not imported again
	Imported    time.Time `json:"imported"`
	Packages    int       `json:"packages"`
	RPMs        int       `json:"rpms"`
	Files       int       `json:"files"`
}

// Package is one package of a product (the product is in its key).
type Package struct {
	Name           string `json:"name"`
	Arch           string `json:"arch"`
	Version        string `json:"version"`
	Filename       string `json:"filename"`
	VCSURL         string `json:"vcs_url"`
	VCSOrg         string `json:"vcs_org"`
	VCSRepo        string `json:"vcs_repo"`
	TrackingBranch string `json:"tracking_branch"`
	CommitHash     string `json:"commit_hash"`
	DistURL        string `json:"disturl"`
}

// Ref names one package: its product and position.
type Ref struct {
	Product string
	Seq     uint32
}

// sep joins key parts: no name, path or product contains a NUL.
const sep = "\x00"

func seqBytes(seq uint32) []byte { return binary.BigEndian.AppendUint32(nil, seq) }

func packageKey(product string, seq uint32) []byte {
	return append([]byte(product+sep), seqBytes(seq)...)
}

// NameKey is the search key of a package name (lower-cased).
func NameKey(name string) string { return strings.ToLower(name) }

// VCSKey is the search key of a package's git tuple: org, repo, branch and commit, lower-cased;
// "" for a package without a git reference.
func VCSKey(p Package) string {
	if p.VCSURL == "" && p.VCSRepo == "" {
		return ""
	}
	return strings.ToLower(p.VCSOrg + sep + p.VCSRepo + sep + p.TrackingBranch + sep + p.CommitHash)
}

// SplitVCSKey undoes VCSKey.
func SplitVCSKey(key string) (org, repo, branch, commit string) {
	parts := strings.SplitN(key, sep, 4)
	for len(parts) < 4 {
		parts = append(parts, "")
	}
	return parts[0], parts[1], parts[2], parts[3]
}

// refKey is a search key followed by the ref it points at.
func refKey(key, product string, seq uint32) []byte {
	return append([]byte(key+sep+product+sep), seqBytes(seq)...)
}

// parseRef reads the ref at the end of an index key whose search key (and its separator) take
// the first prefix bytes: the product, a separator and the big-endian seq.
func parseRef(k []byte, prefix int) (Ref, bool) {
	rest := k[prefix:]
	if len(rest) < 5 || rest[len(rest)-5] != 0 {
		return Ref{}, false
	}
	return Ref{Product: string(rest[:len(rest)-5]), Seq: binary.BigEndian.Uint32(rest[len(rest)-4:])}, true
}

// Generation is the explorer's change counter: every import or removal raises it, and the
// search index records the generation it reflects, so a stale index is noticed at start.
func Generation(tx *bbolt.Tx) uint64 {
	b, err := store.Bucket(tx, store.ExplorerMeta)
	if err != nil {
		return 0
	}
	v := b.Get([]byte("generation"))
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func bumpGeneration(tx *bbolt.Tx) (uint64, error) {
	b, err := store.Bucket(tx, store.ExplorerMeta)
	if err != nil {
		return 0, err
	}
	g := Generation(tx) + 1
	return g, b.Put([]byte("generation"), binary.BigEndian.AppendUint64(nil, g))
}

// GetProduct returns an imported product.
func GetProduct(tx *bbolt.Tx, full string) (Product, error) {
	p, err := store.Get[Product](tx, store.ExplorerProducts, []byte(full))
	if err != nil {
		return p, store.NotFoundf("product %s: not imported", full)
	}
	return p, nil
}

// Products lists the imported products by name.
func Products(tx *bbolt.Tx) ([]Product, error) {
	var out []Product
	err := store.Each(tx, store.ExplorerProducts, nil, func(_ []byte, p Product) (bool, error) {
		out = append(out, p)
		return true, nil
	})
	return out, err
}

// GetPackage reads one package.
func GetPackage(tx *bbolt.Tx, r Ref) (Package, error) {
	return store.Get[Package](tx, store.ExplorerPackages, packageKey(r.Product, r.Seq))
}

// Change is what an import or removal did to the search keys: the name and git keys of the
// products before and after, so the index can add the new ones before the switch and drop the
// ones no package has any more after it.
type Change struct {
	Generation       uint64
	OldNames, OldVCS []string
	NewNames, NewVCS []string
}

// Keys lists the distinct name and git keys of packages.
func Keys(pkgs []Package) (names, vcs []string) {
	for _, p := range pkgs {
		names = append(names, NameKey(p.Name))
		if k := VCSKey(p); k != "" {
			vcs = append(vcs, k)
		}
	}
	slices.Sort(names)
	slices.Sort(vcs)
	return slices.Compact(names), slices.Compact(vcs)
}

// FromSPDX turns a parsed SBOM package into a record.
func FromSPDX(p spdx.Package) Package {
	return Package{Name: p.Name, Arch: p.Arch, Version: p.Version, Filename: p.Filename, VCSURL: p.VCSURL, VCSOrg: p.VCSOrg,
		VCSRepo: p.VCSRepo, TrackingBranch: p.TrackingBranch, CommitHash: p.CommitHash, DistURL: p.DistURL}
}

// Import replaces product p (all of it: packages, file lists, index keys) in one transaction;
// rpms are the product's RPM file lists (joined to packages by file name). The product record
// keeps source and digest so an unchanged file is not imported twice.
func Import(tx *bbolt.Tx, p spdx.Product, rpms []spdx.RPM, source, digest string, now time.Time) (Change, error) {
	if p.FullName == "" || strings.Contains(p.FullName, sep) {
		return Change{}, fmt.Errorf("product name %q: %w", p.FullName, store.ErrInvalid)
	}
	ch, err := remove(tx, p.FullName)
	if err != nil {
		return ch, err
	}
	full := p.FullName
	pkgs := make([]Package, len(p.Packages))
	for i, sp := range p.Packages {
		pkgs[i] = FromSPDX(sp)
	}
	ch.NewNames, ch.NewVCS = Keys(pkgs)
	buckets, err := store.Buckets(tx, store.ExplorerPackages, store.ExplorerByName, store.ExplorerByVCS, store.ExplorerByRPM)
	if err != nil {
		return ch, err
	}
	for i, pk := range pkgs {
		seq := uint32(i)
		data, err := json.Marshal(pk)
		if err != nil {
			return ch, err
		}
		if err := buckets[0].Put(packageKey(full, seq), data); err != nil {
			return ch, err
		}
		if err := buckets[1].Put(refKey(NameKey(pk.Name), full, seq), nil); err != nil {
			return ch, err
		}
		if k := VCSKey(pk); k != "" {
			if err := buckets[2].Put(refKey(k, full, seq), nil); err != nil {
				return ch, err
			}
		}
		if pk.Filename != "" {
			if err := buckets[3].Put(refKey(full+sep+pk.Filename, "", seq), nil); err != nil {
				return ch, err
			}
		}
	}
	files, err := putFiles(tx, full, rpms)
	if err != nil {
		return ch, err
	}
	rec := Product{FullName: full, Name: p.Name, Version: p.Version, Arch: p.Arch, BuildNumber: p.BuildNumber,
		DistURL: p.DistURL, Source: source, Digest: digest, Imported: now.UTC(), Packages: len(pkgs), RPMs: len(rpms), Files: files}
	if err := store.Put(tx, store.ExplorerProducts, []byte(full), rec); err != nil {
		return ch, err
	}
	ch.Generation, err = bumpGeneration(tx)
	return ch, err
}

// putFiles stores the product's RPM file lists: the list per RPM (for removal), the exact path
// index and the basename index with a count of the (product, RPM) pairs shipping each path.
func putFiles(tx *bbolt.Tx, full string, rpms []spdx.RPM) (int, error) {
	buckets, err := store.Buckets(tx, store.ExplorerRPMs, store.ExplorerByFile, store.ExplorerByBasename)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rpms {
		if r.Filename == "" || strings.Contains(r.Filename, sep) {
			continue
		}
		data, err := json.Marshal(r.Files)
		if err != nil {
			return n, err
		}
		if err := buckets[0].Put([]byte(full+sep+r.Filename), data); err != nil {
			return n, err
		}
		for _, f := range r.Files {
			if f == "" || strings.Contains(f, sep) {
				continue
			}
			fk := []byte(f + sep + full + sep + r.Filename)
			if buckets[1].Get(fk) != nil {
				continue // listed twice in one RPM
			}
			if err := buckets[1].Put(fk, nil); err != nil {
				return n, err
			}
			if err := addCount(buckets[2], []byte(path.Base(f)+sep+f), 1); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// addCount adds delta to a BE32 counter, deleting it at zero.
func addCount(b *bbolt.Bucket, k []byte, delta int) error {
	var n int
	if v := b.Get(k); len(v) == 4 {
		n = int(binary.BigEndian.Uint32(v))
	}
	n += delta
	if n <= 0 {
		return b.Delete(k)
	}
	return b.Put(k, binary.BigEndian.AppendUint32(nil, uint32(n)))
}

// Remove drops an imported product; removing one that is not there is no error (the change
// is then empty).
func Remove(tx *bbolt.Tx, full string) (Change, error) {
	ch, err := remove(tx, full)
	if err != nil || (ch.OldNames == nil && ch.OldVCS == nil) {
		return ch, err
	}
	ch.Generation, err = bumpGeneration(tx)
	return ch, err
}

// remove deletes everything of product full and reports its old keys.
func remove(tx *bbolt.Tx, full string) (Change, error) {
	var ch Change
	if _, err := GetProduct(tx, full); err != nil {
		return ch, nil
	}
	var pkgs []Package
	prefix := []byte(full + sep)
	err := store.Each(tx, store.ExplorerPackages, prefix, func(_ []byte, p Package) (bool, error) {
		pkgs = append(pkgs, p)
		return true, nil
	})
	if err != nil {
		return ch, err
	}
	ch.OldNames, ch.OldVCS = Keys(pkgs)
	buckets, err := store.Buckets(tx, store.ExplorerPackages, store.ExplorerByName, store.ExplorerByVCS, store.ExplorerByRPM,
		store.ExplorerRPMs, store.ExplorerByFile, store.ExplorerByBasename, store.ExplorerProducts)
	if err != nil {
		return ch, err
	}
	for i, pk := range pkgs {
		seq := uint32(i)
		keys := [][]byte{packageKey(full, seq), refKey(NameKey(pk.Name), full, seq), nil, nil}
		if k := VCSKey(pk); k != "" {
			keys[2] = refKey(k, full, seq)
		}
		if pk.Filename != "" {
			keys[3] = refKey(full+sep+pk.Filename, "", seq)
		}
		for b, k := range keys {
			if k == nil {
				continue
			}
			if err := buckets[b].Delete(k); err != nil {
				return ch, err
			}
		}
	}
	var rpmKeys [][]byte
	c := buckets[4].Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var files []string
		if err := json.Unmarshal(v, &files); err != nil {
			return ch, fmt.Errorf("explorer rpm %q: %w", k, err)
		}
		rpm := string(k[len(prefix):])
		for _, f := range files {
			fk := []byte(f + sep + full + sep + rpm)
			if buckets[5].Get(fk) == nil {
				continue
			}
			if err := buckets[5].Delete(fk); err != nil {
				return ch, err
			}
			if err := addCount(buckets[6], []byte(path.Base(f)+sep+f), -1); err != nil {
				return ch, err
			}
		}
		rpmKeys = append(rpmKeys, slices.Clone(k))
	}
	for _, k := range rpmKeys {
		if err := buckets[4].Delete(k); err != nil {
			return ch, err
		}
	}
	return ch, buckets[7].Delete([]byte(full))
}
