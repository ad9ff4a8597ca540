package farm

import (
	"crypto/md5"
	"encoding/hex"
	"sort"
	"sync"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// specCache keeps the specs the scheduler parsed, across passes: a pass judges every package of
// a project in every where, and parsing its spec was a third of a pass over 1,000 packages
// (BenchmarkSchedulePass). A parse depends only on the spec's bytes — fixed by the sources'
// srcmd5 and the recipe's name — and on the arch and macros of the where, so those are the key;
// a commit or a configuration change makes a new key, never a stale answer. Parsed specs are
// shared read-only (the planner only reads them). The cache is dropped whole when it grows past
// specCacheMax entries, which bounds it without bookkeeping.
type specCache struct {
	mu sync.Mutex
	m  map[string]specParse
}

// specCacheMax bounds the cache: a few thousand packages times their architectures.
const specCacheMax = 16384

// specParse is one cached parse: the spec, or why it does not parse.
type specParse struct {
	spec *specfile.Spec
	err  error
}

// parse returns src's spec parsed for arch with macros, whose digest is macrosKey.
func (c *specCache) parse(src sources, arch string, macros map[string]string, macrosKey string) (*specfile.Spec, error) {
	key := src.srcmd5 + "\x00" + src.specName + "\x00" + arch + "\x00" + macrosKey
	if src.srcmd5 == "" {
		key = ""
	}
	if key != "" {
		c.mu.Lock()
		p, ok := c.m[key]
		c.mu.Unlock()
		if ok {
			return p.spec, p.err
		}
	}
	spec, err := specfile.Parse(src.spec, specfile.Options{Arch: arch, Macros: macros})
	if key != "" {
		c.mu.Lock()
		if c.m == nil || len(c.m) >= specCacheMax {
			c.m = map[string]specParse{}
		}
		c.m[key] = specParse{spec: spec, err: err}
		c.mu.Unlock()
	}
	return spec, err
}

// macrosDigest is a key for a set of macros.
func macrosDigest(macros map[string]string) string {
	names := make([]string, 0, len(macros))
	for k := range macros {
		names = append(names, k)
	}
	sort.Strings(names)
	h := md5.New()
	for _, k := range names {
		h.Write([]byte(k))
		h.Write([]byte{0})
		h.Write([]byte(macros[k]))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
