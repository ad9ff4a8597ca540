// Package explorerstore keeps the repository explorer's records of truth: products imported from
// SPDX product SBOMs, their packages, and the RPM file lists, with the exact-match indexes the
// searches read (by package name, by git tuple, by file path and basename). The bleve index
// (package search) is derived from these buckets and only names keys into them, so a search
// that resolves its keys in one read transaction sees each product either before or after an
// import, never half of it.
package explorerstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"sort"
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

// seqKey is a search key followed by a package's seq (a key of a product's index bucket).
func seqKey(key string, seq uint32) []byte { return append([]byte(key+sep), seqBytes(seq)...) }

// productBucket is product's nested bucket in the index bucket name; nil when the product has
// none (not imported, or nothing of that kind).
func productBucket(tx *bbolt.Tx, name, product string) *bbolt.Bucket {
	b, err := store.Bucket(tx, name)
	if err != nil {
		return nil
	}
	return b.Bucket([]byte(product))
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

// Stamp names the explorer's content as it is: a random number every import or removal
// writes with the generation it raises, so two reads with the same stamp see the same
// products. The generation alone does not say so: a restored snapshot or a reset brings back
// generation numbers the live data has had with other content; a snapshot brings its stamp
// along with the content it stamps. 0 when none was written (no import since the data was
// emptied, or data written before stamps were).
func Stamp(tx *bbolt.Tx) uint64 {
	b, err := store.Bucket(tx, store.ExplorerMeta)
	if err != nil {
		return 0
	}
	v := b.Get([]byte("stamp"))
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
	if err := b.Put([]byte("stamp"), binary.BigEndian.AppendUint64(nil, rand.Uint64()|1)); err != nil { // |1: never 0
		return 0, err
	}
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
	return getPackage(productBucket(tx, store.ExplorerPackages, r.Product), r)
}

// getPackage reads package r from its product's bucket b (nil: the product has none).
func getPackage(b *bbolt.Bucket, r Ref) (Package, error) {
	if b == nil {
		return Package{}, store.NotFoundf("package %s/%d: not imported", r.Product, r.Seq)
	}
	v := b.Get(seqBytes(r.Seq))
	if v == nil {
		return Package{}, store.NotFoundf("package %s/%d: not imported", r.Product, r.Seq)
	}
	return decodePackage(v)
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

// Records turns parsed SBOM packages into records.
func Records(pkgs []spdx.Package) []Package {
	out := make([]Package, len(pkgs))
	for i, p := range pkgs {
		out[i] = FromSPDX(p)
	}
	return out
}

// FromSPDX turns a parsed SBOM package into a record.
func FromSPDX(p spdx.Package) Package {
	return Package{Name: p.Name, Arch: p.Arch, Version: p.Version, Filename: p.Filename, VCSURL: p.VCSURL, VCSOrg: p.VCSOrg,
		VCSRepo: p.VCSRepo, TrackingBranch: p.TrackingBranch, CommitHash: p.CommitHash, DistURL: p.DistURL}
}

// Prepared is a product made ready for Import outside any transaction: its package records
// encoded and every bucket's keys sorted. An import of 100,000 packages and 1,000,000 files
// spends most of its time here, and a write transaction holds the store's one writer, so this
// work is done before it (and, in explorersvc, while the search index takes the new keys).
type Prepared struct {
	product     spdx.Product
	rpms, files int
	// Names and VCS are the product's distinct search keys (see Keys), for the index.
	Names, VCS []string
	puts       []bucketPuts
}

// bucketPuts are the sorted writes to one product bucket.
type bucketPuts struct {
	bucket string
	puts   *sortedPuts
}

// Prepare encodes and sorts product p's records for Import; rpms are the product's RPM file
// lists (joined to packages by file name).
func Prepare(p spdx.Product, rpms []spdx.RPM) (*Prepared, error) {
	if p.FullName == "" || strings.Contains(p.FullName, sep) {
		return nil, fmt.Errorf("product name %q: %w", p.FullName, store.ErrInvalid)
	}
	pkgs := Records(p.Packages)
	prep := &Prepared{product: p, rpms: len(rpms)}
	prep.Names, prep.VCS = Keys(pkgs)
	var packages, byName, byVCS, byRPM sortedPuts
	for i, pk := range pkgs {
		seq := uint32(i)
		data, err := json.Marshal(pk)
		if err != nil {
			return nil, err
		}
		packages.add(seqBytes(seq), data)
		byName.add(seqKey(NameKey(pk.Name), seq), nil)
		if k := VCSKey(pk); k != "" {
			byVCS.add(seqKey(k, seq), nil)
		}
		if pk.Filename != "" {
			byRPM.add(seqKey(pk.Filename, seq), nil)
		}
	}
	byFile, byBase, files := filePuts(rpms)
	prep.files = files
	prep.puts = []bucketPuts{{store.ExplorerPackages, &packages}, {store.ExplorerByName, &byName}, {store.ExplorerByVCS, &byVCS},
		{store.ExplorerByRPM, &byRPM}, {store.ExplorerByFile, byFile}, {store.ExplorerByBasename, byBase}}
	for _, w := range prep.puts {
		sort.Sort(w.puts)
	}
	return prep, nil
}

// Import replaces the prepared product (all of it: packages, file lists, index keys) in one
// transaction. The product record keeps source and digest so an unchanged file is not imported
// twice. A Prepared is written once: Import consumes it.
func Import(tx *bbolt.Tx, prep *Prepared, source, digest string, now time.Time) (Change, error) {
	p := prep.product
	full := p.FullName
	ch, err := remove(tx, full)
	if err != nil {
		return ch, err
	}
	ch.NewNames, ch.NewVCS = prep.Names, prep.VCS
	for _, w := range prep.puts {
		if err := w.puts.write(tx, w.bucket, full); err != nil {
			return ch, err
		}
	}
	rec := Product{FullName: full, Name: p.Name, Version: p.Version, Arch: p.Arch, BuildNumber: p.BuildNumber,
		DistURL: p.DistURL, Source: source, Digest: digest, Imported: now.UTC(), Packages: len(p.Packages), RPMs: prep.rpms, Files: prep.files}
	if err := store.Put(tx, store.ExplorerProducts, []byte(full), rec); err != nil {
		return ch, err
	}
	ch.Generation, err = bumpGeneration(tx)
	return ch, err
}

// sortedPuts collects the writes to one bucket and makes them in key order. bbolt splits its
// nodes only when a transaction commits, so within one large transaction each Put into the
// middle of a node moves everything after it: keys in random order cost quadratic time (an
// import of 90,000 files took half a minute), keys in order only append.
type sortedPuts struct{ keys, values [][]byte }

func (s *sortedPuts) add(k, v []byte) {
	s.keys = append(s.keys, k)
	s.values = append(s.values, v)
}

func (s *sortedPuts) Len() int           { return len(s.keys) }
func (s *sortedPuts) Less(i, j int) bool { return bytes.Compare(s.keys[i], s.keys[j]) < 0 }
func (s *sortedPuts) Swap(i, j int) {
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	s.values[i], s.values[j] = s.values[j], s.values[i]
}

// write puts the collected keys, sorted (Prepare sorts them), into product's new nested bucket
// of bucket.
func (s *sortedPuts) write(tx *bbolt.Tx, bucket, product string) error {
	if len(s.keys) == 0 {
		return nil
	}
	parent, err := store.Bucket(tx, bucket)
	if err != nil {
		return err
	}
	b, err := parent.CreateBucketIfNotExists([]byte(product))
	if err != nil {
		return err
	}
	b.FillPercent = 0.9 // keys come in order: pack pages fuller than the default half
	for i, k := range s.keys {
		if err := b.Put(k, s.values[i]); err != nil {
			return err
		}
	}
	return nil
}

// filePuts are the writes of the product's RPM file lists to its exact-path and basename
// buckets, and the number of files.
func filePuts(rpms []spdx.RPM) (byFile, byBase *sortedPuts, n int) {
	byFile, byBase = &sortedPuts{}, &sortedPuts{}
	bases := map[string]bool{}
	for _, r := range rpms {
		if r.Filename == "" || strings.Contains(r.Filename, sep) {
			continue
		}
		seen := map[string]bool{}
		for _, f := range r.Files {
			if f == "" || strings.Contains(f, sep) || seen[f] {
				continue // empty, unstorable, or listed twice in one RPM
			}
			seen[f] = true
			byFile.add([]byte(f+sep+r.Filename), nil)
			if bk := path.Base(f) + sep + f; !bases[bk] {
				bases[bk] = true
				byBase.add([]byte(bk), nil)
			}
			n++
		}
	}
	return byFile, byBase, n
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

// productBuckets are the index buckets that hold a nested bucket per product.
var productBuckets = []string{store.ExplorerPackages, store.ExplorerByName, store.ExplorerByVCS, store.ExplorerByRPM,
	store.ExplorerByFile, store.ExplorerByBasename}

// remove deletes everything of product full (its nested buckets and record) and reports its
// old search keys.
func remove(tx *bbolt.Tx, full string) (Change, error) {
	var ch Change
	if _, err := GetProduct(tx, full); err != nil {
		return ch, nil
	}
	var pkgs []Package
	if b := productBucket(tx, store.ExplorerPackages, full); b != nil {
		err := b.ForEach(func(_, v []byte) error {
			p, err := decodePackage(v)
			if err != nil {
				return fmt.Errorf("explorer package of %s: %w", full, err)
			}
			pkgs = append(pkgs, p)
			return nil
		})
		if err != nil {
			return ch, err
		}
	}
	ch.OldNames, ch.OldVCS = Keys(pkgs)
	for _, name := range productBuckets {
		parent, err := store.Bucket(tx, name)
		if err != nil {
			return ch, err
		}
		if parent.Bucket([]byte(full)) != nil {
			if err := parent.DeleteBucket([]byte(full)); err != nil {
				return ch, err
			}
		}
	}
	return ch, store.Delete(tx, store.ExplorerProducts, []byte(full))
}
