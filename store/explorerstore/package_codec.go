package explorerstore

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Reading package records fast. A search resolves every hit to its record, and decoding them
// with encoding/json was half of a search's time (issue 13). The records stay what Import
// writes — json.Marshal of Package, fields always in the struct's order — so the format on disk
// does not change; decodePackage reads that exact shape directly and leaves anything else
// (an escaped character, another field order, a record of an older release) to encoding/json,
// so both give the same Package for every record.

// packageFieldPrefixes are the record's fields as json.Marshal writes them, each with the
// opening quote of its value: `"name":"`, `"arch":"`, …
var packageFieldPrefixes = func() [10]string {
	names := [10]string{"name", "arch", "version", "filename", "vcs_url", "vcs_org", "vcs_repo", "tracking_branch", "commit_hash", "disturl"}
	var out [10]string
	for i, n := range names {
		out[i] = `"` + n + `":"`
	}
	return out
}()

// decodePackage reads a package record.
func decodePackage(v []byte) (Package, error) {
	if p, ok := decodePackageFast(v); ok {
		return p, nil
	}
	var p Package
	return p, json.Unmarshal(v, &p)
}

// decodePackageFast reads a record in json.Marshal's shape whose strings need no unescaping:
// one copy of the record, every field a substring of it. ok is false for anything else.
func decodePackageFast(v []byte) (p Package, ok bool) {
	if len(v) < 2 || v[0] != '{' || v[len(v)-1] != '}' {
		return p, false
	}
	s := string(v) // one allocation; the fields share it (bbolt's v lives only as long as the transaction)
	var f [10]string
	pos := 1
	for i, prefix := range packageFieldPrefixes {
		if i > 0 {
			if pos >= len(s) || s[pos] != ',' {
				return p, false
			}
			pos++
		}
		if !strings.HasPrefix(s[pos:], prefix) {
			return p, false
		}
		pos += len(prefix)
		end := strings.IndexByte(s[pos:], '"')
		if end < 0 || !plainJSONString(s[pos:pos+end]) {
			return p, false
		}
		f[i] = s[pos : pos+end]
		pos += end + 1
	}
	if pos != len(s)-1 {
		return p, false
	}
	return Package{Name: f[0], Arch: f[1], Version: f[2], Filename: f[3], VCSURL: f[4], VCSOrg: f[5], VCSRepo: f[6],
		TrackingBranch: f[7], CommitHash: f[8], DistURL: f[9]}, true
}

// plainJSONString reports whether the body of a JSON string decodes to itself: no escape, no
// control character, valid UTF-8 (encoding/json turns invalid bytes into U+FFFD).
func plainJSONString(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == '\\':
			return false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return ascii || utf8.ValidString(s)
}

// PackageReader reads packages inside one transaction, opening each product's bucket once
// (a search reads hundreds of packages of a handful of products).
type PackageReader struct {
	tx      kv.Tx
	buckets map[string]kv.Bucket
}

// NewPackageReader is a PackageReader for tx.
func NewPackageReader(tx kv.Tx) *PackageReader {
	return &PackageReader{tx: tx, buckets: map[string]kv.Bucket{}}
}

// Get reads one package, as GetPackage does.
func (r *PackageReader) Get(ref Ref) (Package, error) {
	b, seen := r.buckets[ref.Product]
	if !seen {
		b = productBucket(r.tx, store.ExplorerPackages, ref.Product)
		r.buckets[ref.Product] = b
	}
	return getPackage(b, ref)
}

// appendPackage appends p's record, byte for byte what json.Marshal(p) writes, to buf.
// Encoding 100,000 records through encoding/json's reflection was an import's largest cost
// after sorting; field names are constant and almost every value needs no escape.
func appendPackage(buf []byte, p Package) []byte {
	f := [10]string{p.Name, p.Arch, p.Version, p.Filename, p.VCSURL, p.VCSOrg, p.VCSRepo, p.TrackingBranch, p.CommitHash, p.DistURL}
	for i, prefix := range packageFieldPrefixes {
		if i == 0 {
			buf = append(buf, '{')
		} else {
			buf = append(buf, ',')
		}
		buf = append(buf, prefix[:len(prefix)-1]...) // the value's quote comes with it
		buf = appendJSONString(buf, f[i])
	}
	return append(buf, '}')
}

// appendJSONString appends s as json.Marshal writes a string: a string of printable ASCII
// with nothing to escape (what package fields almost always are) as it is, anything else
// through encoding/json itself, so the two never differ.
func appendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string always encodes
			return append(buf, b...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}
