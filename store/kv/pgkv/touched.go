package pgkv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"sort"
)

// touched is what a write transaction changed, by place rather than by value: keys put or
// deleted, whole buckets created, deleted or moved (trees), and buckets whose sequence moved.
// The writer sends each place's final state to PostgreSQL; the change log keeps the places, and
// a node catching up reads their state at the log's head — so the log stays small whatever the
// values weigh, and catching up over many commits costs one read per place.
type touched struct {
	keys  map[string]struct{} // path 0x00 0x00 key
	trees map[string]struct{} // bucket path
	seqs  map[string]struct{} // bucket path
}

func newTouched() *touched {
	return &touched{keys: map[string]struct{}{}, trees: map[string]struct{}{}, seqs: map[string]struct{}{}}
}

func (t *touched) empty() bool { return len(t.keys)+len(t.trees)+len(t.seqs) == 0 }

// keySep parts a key's bucket path from the key: a path never holds two 0x00 in a row.
const keySep = "\x00\x00"

func (t *touched) key(path, key []byte) { t.keys[string(path)+keySep+string(key)] = struct{}{} }
func (t *touched) tree(path []byte)     { t.trees[string(path)] = struct{}{} }
func (t *touched) seq(path []byte)      { t.seqs[string(path)] = struct{}{} }

func splitKey(s string) (path, key []byte) {
	i := bytes.Index([]byte(s), []byte(keySep))
	return []byte(s[:i]), []byte(s[i+len(keySep):])
}

// merge adds o's places to t.
func (t *touched) merge(o *touched) {
	for k := range o.keys {
		t.keys[k] = struct{}{}
	}
	for k := range o.trees {
		t.trees[k] = struct{}{}
	}
	for k := range o.seqs {
		t.seqs[k] = struct{}{}
	}
}

// places is t normalised: the trees no other tree holds (shallow first), and the keys and
// sequences no tree holds, sorted.
type places struct {
	trees [][]byte
	keys  [][2][]byte
	seqs  [][]byte
}

func (t *touched) places() places {
	var p places
	trees := sortedKeys(t.trees)
	for _, tr := range trees {
		if !inTrees([]byte(tr), p.trees) {
			p.trees = append(p.trees, []byte(tr))
		}
	}
	for _, k := range sortedKeys(t.keys) {
		path, key := splitKey(k)
		if !inTrees(path, p.trees) && !inTrees(appendName(path, key), p.trees) {
			p.keys = append(p.keys, [2][]byte{path, key})
		}
	}
	for _, s := range sortedKeys(t.seqs) {
		if !inTrees([]byte(s), p.trees) {
			p.seqs = append(p.seqs, []byte(s))
		}
	}
	return p
}

// inTrees reports whether path lies in one of trees (the root tree, empty, holds everything).
func inTrees(path []byte, trees [][]byte) bool {
	for _, tr := range trees {
		if under(path, tr) {
			return true
		}
	}
	return false
}

// buckets names the top-level buckets the places touch, for the listeners of followed changes.
func (p places) buckets() []string {
	seen := map[string]bool{}
	var out []string
	add := func(path []byte) {
		if len(path) == 0 {
			out = append(out, "") // the whole data set
			return
		}
		names, err := splitPath(path)
		if err != nil || len(names) == 0 || seen[string(names[0])] {
			return
		}
		seen[string(names[0])] = true
		out = append(out, string(names[0]))
	}
	for _, tr := range p.trees {
		add(tr)
	}
	for _, k := range p.keys {
		add(k[0])
	}
	for _, s := range p.seqs {
		add(s)
	}
	sort.Strings(out)
	return out
}

func sortedKeys(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The change log's record of one commit: tagged, length-prefixed places.
const (
	tagKey  = 'k'
	tagTree = 't'
	tagSeq  = 's'
)

func (t *touched) encode() []byte {
	var out []byte
	field := func(b []byte) {
		out = binary.AppendUvarint(out, uint64(len(b)))
		out = append(out, b...)
	}
	for _, k := range sortedKeys(t.keys) {
		path, key := splitKey(k)
		out = append(out, tagKey)
		field(path)
		field(key)
	}
	for _, tr := range sortedKeys(t.trees) {
		out = append(out, tagTree)
		field([]byte(tr))
	}
	for _, s := range sortedKeys(t.seqs) {
		out = append(out, tagSeq)
		field([]byte(s))
	}
	return out
}

var errBadLog = errors.New("pgkv: malformed change log record")

func decodeTouched(b []byte, into *touched) error {
	field := func() ([]byte, error) {
		n, w := binary.Uvarint(b)
		if w <= 0 || uint64(len(b)-w) < n {
			return nil, errBadLog
		}
		f := b[w : w+int(n)]
		b = b[w+int(n):]
		return f, nil
	}
	for len(b) > 0 {
		tag := b[0]
		b = b[1:]
		a, err := field()
		if err != nil {
			return err
		}
		switch tag {
		case tagKey:
			k, err := field()
			if err != nil {
				return err
			}
			into.key(a, k)
		case tagTree:
			into.tree(a)
		case tagSeq:
			into.seq(a)
		default:
			return errBadLog
		}
	}
	return nil
}
