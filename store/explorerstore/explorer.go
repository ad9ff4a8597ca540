// Package explorerstore keeps the repository explorer's records of truth: products imported from
// SPDX product SBOMs, their packages, and the RPM file lists, with the exact-match indexes the
// searches read (by package name, by git tuple, by file path and basename). The bleve index
// (package search) is derived from these buckets and only names keys into them, so a search
// that resolves its keys in one read transaction sees each product either before or after an
// import, never half of it.
package explorerstore

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
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
func productBucket(tx kv.Tx, name, product string) kv.Bucket {
	b, err := store.Bucket(tx, name)
	if err != nil {
		return nil
	}
	return b.Bucket([]byte(product))
}

// Generation is the explorer's change counter: every import or removal raises it, and the
// search index records the generation it reflects, so a stale index is noticed at start.
func Generation(tx kv.Tx) uint64 {
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
func Stamp(tx kv.Tx) uint64 {
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

func bumpGeneration(tx kv.Tx) (uint64, error) {
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
func GetProduct(tx kv.Tx, full string) (Product, error) {
	p, err := store.Get[Product](tx, store.ExplorerProducts, []byte(full))
	if err != nil {
		return p, store.NotFoundf("product %s: not imported", full)
	}
	return p, nil
}

// Products lists the imported products by name.
func Products(tx kv.Tx) ([]Product, error) {
	var out []Product
	err := store.Each(tx, store.ExplorerProducts, nil, func(_ []byte, p Product) (bool, error) {
		out = append(out, p)
		return true, nil
	})
	return out, err
}

// GetPackage reads one package.
func GetPackage(tx kv.Tx, r Ref) (Package, error) {
	return getPackage(productBucket(tx, store.ExplorerPackages, r.Product), r)
}

// getPackage reads package r from its product's bucket b (nil: the product has none).
func getPackage(b kv.Bucket, r Ref) (Package, error) {
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
// work is done before it (and, in explorersvc, while the search index takes the new keys or
// the product before it is written). It holds no parsed input: the SBOM's packages and the
// file lists may go once it is made.
type Prepared struct {
	product     spdx.Product // without its packages
	packages    int
	rpms, files int
	// Names and VCS are the product's distinct search keys (see Keys), for the index.
	Names, VCS []string
	puts       []bucketPuts
	staged     bool // Stage wrote the records; Import moves them into place
}

// Counts are the numbers of packages, RPMs and files the prepared product holds.
func (p *Prepared) Counts() (packages, rpms, files int) { return p.packages, p.rpms, p.files }

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
	prep := &Prepared{product: p, packages: len(p.Packages), rpms: len(rpms)}
	prep.product.Packages = nil
	prep.Names, prep.VCS = Keys(pkgs)
	var packages, byName, byVCS, byRPM sortedPuts
	for i, pk := range pkgs {
		seq := uint32(i)
		packages.buf = binary.BigEndian.AppendUint32(packages.buf, seq)
		packages.buf = appendPackage(packages.buf, pk)
		packages.add(4)
		byName.addSeq(NameKey(pk.Name), seq)
		if k := VCSKey(pk); k != "" {
			byVCS.addSeq(k, seq)
		}
		if pk.Filename != "" {
			byRPM.addSeq(pk.Filename, seq)
		}
	}
	byFile, byBase, files := filePuts(rpms)
	prep.files = files
	prep.puts = []bucketPuts{{store.ExplorerPackages, &packages}, {store.ExplorerByName, &byName}, {store.ExplorerByVCS, &byVCS},
		{store.ExplorerByRPM, &byRPM}, {store.ExplorerByFile, byFile}, {store.ExplorerByBasename, byBase}}
	for _, w := range prep.puts {
		w.puts.sort()
	}
	return prep, nil
}

// Import replaces the prepared product (all of it: packages, file lists, index keys) in one
// transaction. The product record keeps source and digest so an unchanged file is not imported
// twice. A Prepared is written once: Import consumes it.
func Import(tx kv.Tx, prep *Prepared, source, digest string, now time.Time) (Change, error) {
	p := prep.product
	full := p.FullName
	ch, err := remove(tx, full)
	if err != nil {
		return ch, err
	}
	ch.NewNames, ch.NewVCS = prep.Names, prep.VCS
	for _, w := range prep.puts {
		write := w.puts.write
		if prep.staged {
			write = moveStaged
		}
		if err := write(tx, w.bucket, full); err != nil {
			return ch, err
		}
	}
	rec := Product{FullName: full, Name: p.Name, Version: p.Version, Arch: p.Arch, BuildNumber: p.BuildNumber,
		DistURL: p.DistURL, Source: source, Digest: digest, Imported: now.UTC(), Packages: prep.packages, RPMs: prep.rpms, Files: prep.files}
	if err := store.Put(tx, store.ExplorerProducts, []byte(full), rec); err != nil {
		return ch, err
	}
	ch.Generation, err = bumpGeneration(tx)
	return ch, err
}

// Staging. A product's records in one transaction cost memory in proportion to the product:
// bbolt keeps every node the transaction touched, a copy of every key and, when it commits,
// every page it writes — about 150 MB for 25,000 packages and 250,000 files, the largest part
// of an import's peak. A large product is therefore written ahead into a staging bucket of
// each index bucket, in transactions of stageBatch keys each, and the import's own transaction
// moves the staged buckets into place (bbolt moves a bucket by its root, not by its keys).
// Searches read only products named in ExplorerProducts, so they never see a staged bucket:
// they see the product as it was before the import's transaction or as it is after it.

// stagingBucket is the nested bucket, in each product index bucket, that holds the product
// being staged. Product names hold no NUL (Prepare refuses one), so none is named so.
var stagingBucket = []byte("\x00staging")

// stageBatch is the most keys one staging transaction writes; a product with no more keys
// than this in all is written by Import in its one transaction. A variable for tests.
var stageBatch = 64 * 1024

// Stage writes a large prepared product's records into the staging buckets, a transaction per
// stageBatch keys run through write (store.DB.Write), and lets go of each bucket's prepared
// records once they are written; Import then moves them into place. What another import
// staged and left (a crash, a failed import whose clean-up failed too) is dropped first. A
// product small enough for one transaction is left to Import. Callers serialize imports, and
// call DropStaged when the import does not go on to Import.
func Stage(prep *Prepared, write func(func(tx kv.Tx) error) error) error {
	total := 0
	for _, w := range prep.puts {
		total += len(w.puts.entries)
	}
	if total <= stageBatch || prep.staged {
		return nil
	}
	if err := write(DropStaged); err != nil {
		return err
	}
	full := []byte(prep.product.FullName)
	for _, w := range prep.puts {
		entries := w.puts.entries
		for start := 0; start < len(entries); start += stageBatch {
			chunk := entries[start:min(start+stageBatch, len(entries))]
			err := write(func(tx kv.Tx) error { // idempotent, as a grouped commit may run it again
				parent, err := store.Bucket(tx, w.bucket)
				if err != nil {
					return err
				}
				staging, err := parent.CreateBucketIfNotExists(stagingBucket)
				if err != nil {
					return err
				}
				b, err := staging.CreateBucketIfNotExists(full)
				if err != nil {
					return err
				}
				return w.puts.put(b, chunk)
			})
			if err != nil {
				return err
			}
		}
		*w.puts = sortedPuts{} // on disk now: bbolt no longer needs the values either
	}
	prep.staged = true
	return nil
}

// HasStaged reports whether a staging bucket is left (an import was cut short by a crash).
func HasStaged(tx kv.Tx) bool {
	for _, name := range productBuckets {
		if parent, err := store.Bucket(tx, name); err == nil && parent.Bucket(stagingBucket) != nil {
			return true
		}
	}
	return false
}

// DropStaged removes every staged bucket.
func DropStaged(tx kv.Tx) error {
	for _, name := range productBuckets {
		parent, err := store.Bucket(tx, name)
		if err != nil {
			return err
		}
		if parent.Bucket(stagingBucket) != nil {
			if err := parent.DeleteBucket(stagingBucket); err != nil {
				return err
			}
		}
	}
	return nil
}

// moveStaged moves product's staged bucket of bucket into place (none staged: the product has
// no keys there) and drops the staging bucket.
func moveStaged(tx kv.Tx, bucket, product string) error {
	parent, err := store.Bucket(tx, bucket)
	if err != nil {
		return err
	}
	staging := parent.Bucket(stagingBucket)
	if staging == nil {
		return nil
	}
	if staging.Bucket([]byte(product)) != nil {
		if parent.Bucket([]byte(product)) != nil { // left without a product record; remove took the rest
			if err := parent.DeleteBucket([]byte(product)); err != nil {
				return err
			}
		}
		if err := staging.MoveBucket([]byte(product), parent); err != nil {
			return err
		}
	}
	return parent.DeleteBucket(stagingBucket)
}

// sortedPuts collects the writes to one bucket and makes them in key order. bbolt splits its
// nodes only when a transaction commits, so within one large transaction each Put into the
// middle of a node moves everything after it: keys in random order cost quadratic time (an
// import of 90,000 files took half a minute), keys in order only append. Keys and values
// live back to back in one buffer and the entries that point into it hold no pointers: a
// million keys as a million slices were a third of an import's memory and much of its
// garbage collection (bbolt copies every key it is given; values it keeps until the commit).
type sortedPuts struct {
	buf     []byte
	entries []putEntry
	last    int // end of the last entry in buf
	// byBase marks the basename index's writes: each entry names a file path in buf (the
	// exact-path index's buffer, shared), klen its length and vlen where its basename starts,
	// and its key — basename, sep, path — is made only as it is written, so the index of
	// basenames holds no second copy of every path.
	byBase bool
}

// putEntry is one write: a key at off in buf, followed by its value. pre is the key's first
// eight bytes (zeros past its end) as a number: most comparisons of a sort end there, without
// reading buf.
type putEntry struct {
	pre        uint64
	off        int
	klen, vlen uint32
}

// prefix8 is the first eight bytes of a, then b, then c, as putEntry.pre.
func prefix8(a, b, c []byte) uint64 {
	var p [8]byte
	n := copy(p[:], a)
	n += copy(p[n:], b)
	copy(p[n:], c)
	return binary.BigEndian.Uint64(p[:])
}

// add ends an entry whose key and value the caller has appended to buf since the last one;
// klen is the key's length.
func (s *sortedPuts) add(klen int) {
	e := putEntry{off: s.last, klen: uint32(klen), vlen: uint32(len(s.buf) - s.last - klen)}
	e.pre = prefix8(s.key(e), nil, nil)
	s.entries = append(s.entries, e)
	s.last = len(s.buf)
}

// addSeq adds the key of a search key and a package's seq (see seqKey), with no value.
func (s *sortedPuts) addSeq(key string, seq uint32) {
	s.buf = append(s.buf, key...)
	s.buf = append(s.buf, sep...)
	s.buf = binary.BigEndian.AppendUint32(s.buf, seq)
	s.add(len(s.buf) - s.last)
}

// addPair adds the key a, sep, b with no value.
func (s *sortedPuts) addPair(a, b string) {
	s.buf = append(s.buf, a...)
	s.buf = append(s.buf, sep...)
	s.buf = append(s.buf, b...)
	s.add(len(s.buf) - s.last)
}

// key is entry e's key (for byBase, its path).
func (s *sortedPuts) key(e putEntry) []byte { return s.buf[e.off : e.off+int(e.klen)] }

// base is the basename of a byBase entry's path (it starts at vlen; see basenameBounds).
func (s *sortedPuts) base(e putEntry) []byte {
	f := s.key(e)
	end := len(f)
	for end > 1 && f[end-1] == '/' {
		end--
	}
	return f[e.vlen:end]
}

// compare orders entries by key. A byBase key is basename, sep, path: no basename holds a
// NUL, so it orders by basename, then path.
func (s *sortedPuts) compare(a, b putEntry) int {
	if a.pre != b.pre {
		return cmp.Compare(a.pre, b.pre)
	}
	if s.byBase {
		if c := bytes.Compare(s.base(a), s.base(b)); c != 0 {
			return c
		}
	}
	return bytes.Compare(s.key(a), s.key(b))
}

// sort puts the entries in key order and drops repeated keys (none of the buckets written
// from sorted entries has two values for one key: a repeat is the same fact twice).
func (s *sortedPuts) sort() {
	slices.SortFunc(s.entries, s.compare)
	s.entries = slices.CompactFunc(s.entries, func(a, b putEntry) bool { return s.compare(a, b) == 0 })
}

// write puts the collected keys, sorted (Prepare sorts them), into product's new nested bucket
// of bucket.
func (s *sortedPuts) write(tx kv.Tx, bucket, product string) error {
	if len(s.entries) == 0 {
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
	return s.put(b, s.entries)
}

// put writes entries, in order, into b.
func (s *sortedPuts) put(b kv.Bucket, entries []putEntry) error {
	b.SetFillPercent(0.9) // keys come in order: pack pages fuller than the default half
	var scratch []byte
	for _, e := range entries {
		k, v := s.key(e), []byte(nil)
		switch {
		case s.byBase:
			scratch = append(append(append(scratch[:0], s.base(e)...), sep...), k...)
			k = scratch // bbolt copies the key
		case e.vlen > 0:
			end := e.off + int(e.klen)
			v = s.buf[end : end+int(e.vlen) : end+int(e.vlen)]
		}
		if err := b.Put(k, v); err != nil {
			return err
		}
	}
	return nil
}

// filePuts are the writes of the product's RPM file lists to its exact-path and basename
// buckets, and the number of files (each RPM's distinct paths, summed).
func filePuts(rpms []spdx.RPM) (byFile, byBase *sortedPuts, n int) {
	byFile, byBase = &sortedPuts{}, &sortedPuts{}
	size := 0
	for _, r := range rpms {
		for _, f := range r.Files {
			size += len(f) + 1 + len(r.Filename)
		}
	}
	byFile.buf = make([]byte, 0, size)
	for _, r := range rpms {
		if r.Filename == "" || strings.Contains(r.Filename, sep) {
			continue
		}
		files := r.Files
		if !strictlySorted(files) { // rpm-md file lists come sorted and distinct; others may not
			files = slices.Clone(files)
			slices.Sort(files)
			files = slices.Compact(files)
		}
		for _, f := range files {
			if f == "" || strings.Contains(f, sep) {
				continue // empty or unstorable
			}
			byFile.addPair(f, r.Filename)
			n++
		}
	}
	byBase.buf, byBase.byBase = byFile.buf, true
	byBase.entries = make([]putEntry, 0, len(byFile.entries))
	for _, e := range byFile.entries {
		k := byFile.key(e)
		f := k[:bytes.IndexByte(k, 0)]
		start, end := basenameBounds(f)
		byBase.entries = append(byBase.entries, putEntry{pre: prefix8(f[start:end], []byte(sep), f),
			off: e.off, klen: uint32(len(f)), vlen: uint32(start)})
	}
	return byFile, byBase, n
}

// basename is path.Base of a non-empty file path, without the string it would make.
func basename(f []byte) []byte {
	start, end := basenameBounds(f)
	return f[start:end]
}

// basenameBounds is where path.Base of a non-empty path lies in it: after the last slash
// that is not trailing, up to the trailing ones ("/" for a path of slashes only).
func basenameBounds(f []byte) (start, end int) {
	end = len(f)
	for end > 1 && f[end-1] == '/' {
		end--
	}
	if end > 1 {
		start = bytes.LastIndexByte(f[:end], '/') + 1
	}
	return start, end
}

// strictlySorted reports whether files are in increasing order with no repeats.
func strictlySorted(files []string) bool {
	for i := 1; i < len(files); i++ {
		if files[i-1] >= files[i] {
			return false
		}
	}
	return true
}

// Remove drops an imported product; removing one that is not there is no error (the change
// is then empty).
func Remove(tx kv.Tx, full string) (Change, error) {
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
func remove(tx kv.Tx, full string) (Change, error) {
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
