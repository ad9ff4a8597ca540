package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
)

// A received snapshot is checked in full before it replaces anything. bbolt's own tx.Check walks
// the file in goroutines of its own (and, for a file written without a freelist, rebuilds the
// freelist in yet another one), where a damaged page id or offset is a memory fault or an
// assertion panic no recover of ours can catch: one bad upload would end the process. So the
// file's structure is first walked here, reading it with bounds checks and no memory map (every
// page id below the high-water mark, every page of the type its parent says, every element
// inside its page, keys in strictly ascending order across each bucket's tree, no page
// referenced twice, the freelist inside its pages); only a file that passes is opened by bbolt,
// whose Check then adds what it knows (reachable and free pages agree).
//
// bbolt keeps no checksum of data pages: bytes flipped inside a value, leaving every key and
// offset intact, cannot be told from data. Everything else a damaged file shows is refused.

// bbolt's on-disk format (version 2), as laid out by go.etcd.io/bbolt/internal/common. Integers are
// in the machine's byte order; pocketforge runs on little-endian machines only (amd64, arm64).
const (
	bbMagic          = 0xED0CDAED
	bbVersion        = 2
	bbPageHeader     = 16 // id u64, flags u16, count u16, overflow u32
	bbElement        = 16 // branch: pos u32, ksize u32, pgid u64; leaf: flags, pos, ksize, vsize u32
	bbBucketHeader   = 16 // root pgid u64, sequence u64
	bbBranchPage     = 0x01
	bbLeafPage       = 0x02
	bbFreelistPage   = 0x10
	bbBucketLeafFlag = 0x01
	bbNoFreelist     = ^uint64(0)
	bbMaxDepth       = 64 // nested buckets and tree levels together; real files stay far below
)

var le = binary.LittleEndian

// bbMeta is the part of a meta page the walk needs.
type bbMeta struct {
	pageSize uint32
	root     uint64
	freelist uint64
	hwm      uint64 // pages in use: every page id is below it
	txid     uint64
}

// checker walks one snapshot file.
type checker struct {
	f        io.ReaderAt
	size     int64
	meta     bbMeta
	seen     map[uint64]bool
	pageSize int64
}

// CheckSnapshotFile reports why the file at path is not a structurally sound bbolt file, as an
// ErrNotPocketforge; nil when it is. It reads the file without mapping it, so no damage can fault.
func CheckSnapshotFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	if err := checkStructure(f, st.Size()); err != nil {
		return fmt.Errorf("snapshot: %w (damaged: %v)", ErrNotPocketforge, err)
	}
	return nil
}

// checkStructure walks the whole tree of the file r of size bytes.
func checkStructure(r io.ReaderAt, size int64) error {
	c := &checker{f: r, size: size, seen: map[uint64]bool{}}
	m, err := readMetas(r, size)
	if err != nil {
		return err
	}
	c.meta, c.pageSize = m, int64(m.pageSize)
	if m.hwm < 2 || int64(m.hwm) > size/c.pageSize {
		return fmt.Errorf("high-water mark %d pages, file holds %d", m.hwm, size/c.pageSize)
	}
	if m.freelist != bbNoFreelist {
		if err := c.checkFreelist(m.freelist); err != nil {
			return err
		}
	}
	var prev []byte
	return c.walkTree(m.root, nil, 0, nil, nil, &prev)
}

// readMetas returns the meta page bbolt would use: the valid one with the higher transaction id.
func readMetas(r io.ReaderAt, size int64) (bbMeta, error) {
	first, ok := readMeta(r, size, 0)
	var metas []bbMeta
	if ok {
		metas = append(metas, first)
		if second, ok := readMeta(r, size, int64(first.pageSize)); ok && second.pageSize == first.pageSize {
			metas = append(metas, second)
		}
	} else {
		for ps := int64(1024); ps <= 64*1024; ps *= 2 {
			if second, ok := readMeta(r, size, ps); ok && int64(second.pageSize) == ps {
				metas = append(metas, second)
				break
			}
		}
	}
	if len(metas) == 0 {
		return bbMeta{}, errors.New("no valid meta page")
	}
	best := metas[0]
	if len(metas) == 2 && metas[1].txid > best.txid {
		best = metas[1]
	}
	return best, nil
}

// readMeta decodes and validates the meta page at offset.
func readMeta(r io.ReaderAt, size, offset int64) (bbMeta, bool) {
	var b [bbPageHeader + 64]byte
	if offset+int64(len(b)) > size {
		return bbMeta{}, false
	}
	if _, err := r.ReadAt(b[:], offset); err != nil {
		return bbMeta{}, false
	}
	m := b[bbPageHeader:]
	h := fnv.New64a()
	h.Write(m[:56])
	if le.Uint32(m[0:]) != bbMagic || le.Uint32(m[4:]) != bbVersion || le.Uint64(m[56:]) != h.Sum64() {
		return bbMeta{}, false
	}
	ps := le.Uint32(m[8:])
	if ps < 512 || ps > 1<<20 || ps&(ps-1) != 0 {
		return bbMeta{}, false
	}
	return bbMeta{pageSize: ps, root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]), hwm: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, true
}

// readPage reads page id with its overflow pages, checking that it lies below the high-water mark,
// is referenced for the first time and has one of the wanted types.
func (c *checker) readPage(id uint64, types ...uint16) ([]byte, error) {
	if id < 2 || id >= c.meta.hwm {
		return nil, fmt.Errorf("page %d outside the file's %d pages", id, c.meta.hwm)
	}
	if c.seen[id] {
		return nil, fmt.Errorf("page %d referenced twice", id)
	}
	head := make([]byte, c.pageSize)
	if _, err := c.f.ReadAt(head, int64(id)*c.pageSize); err != nil {
		return nil, fmt.Errorf("page %d: %v", id, err)
	}
	if got := le.Uint64(head); got != id {
		return nil, fmt.Errorf("page %d identifies as %d", id, got)
	}
	if flags := le.Uint16(head[8:]); !slices.Contains(types, flags) {
		return nil, fmt.Errorf("page %d has type %#x, want one of %#x", id, flags, types)
	}
	overflow := uint64(le.Uint32(head[12:]))
	if id+overflow >= c.meta.hwm {
		return nil, fmt.Errorf("page %d overflows past the file's %d pages", id, c.meta.hwm)
	}
	for i := uint64(0); i <= overflow; i++ {
		if c.seen[id+i] {
			return nil, fmt.Errorf("page %d referenced twice", id+i)
		}
		c.seen[id+i] = true
	}
	if overflow == 0 {
		return head, nil
	}
	buf := make([]byte, int64(overflow+1)*c.pageSize)
	copy(buf, head)
	if _, err := c.f.ReadAt(buf[len(head):], int64(id)*c.pageSize+int64(len(head))); err != nil {
		return nil, fmt.Errorf("page %d: %v", id, err)
	}
	return buf, nil
}

// checkFreelist checks that the freelist's ids fit its pages and name pages of the file.
func (c *checker) checkFreelist(id uint64) error {
	p, err := c.readPage(id, bbFreelistPage)
	if err != nil {
		return fmt.Errorf("freelist: %w", err)
	}
	n, start := uint64(le.Uint16(p[10:])), uint64(bbPageHeader)
	if n == 0xFFFF {
		if len(p) < bbPageHeader+8 {
			return errors.New("freelist: short page")
		}
		n, start = le.Uint64(p[bbPageHeader:]), bbPageHeader+8
	}
	if n > (uint64(len(p))-start)/8 {
		return fmt.Errorf("freelist: %d ids do not fit its pages", n)
	}
	for i := uint64(0); i < n; i++ {
		if free := le.Uint64(p[start+8*i:]); free < 2 || free >= c.meta.hwm {
			return fmt.Errorf("freelist: page %d outside the file", free)
		}
	}
	return nil
}

// walkTree checks the B+tree rooted at page id (or the inline page, when id is 0), whose keys must
// lie in [lo, hi) (nil: unbounded) and follow prev, the last key seen in this bucket.
func (c *checker) walkTree(id uint64, inline []byte, depth int, lo, hi []byte, prev *[]byte) error {
	if depth > bbMaxDepth {
		return errors.New("tree deeper than any real file")
	}
	p := inline
	if id != 0 {
		var err error
		if p, err = c.readPage(id, bbBranchPage, bbLeafPage); err != nil {
			return err
		}
	}
	if len(p) < bbPageHeader {
		return errors.New("inline bucket shorter than a page header")
	}
	flags, count := le.Uint16(p[8:]), int(le.Uint16(p[10:]))
	if count*bbElement > len(p)-bbPageHeader {
		return fmt.Errorf("page %d: %d elements do not fit", id, count)
	}
	for i := 0; i < count; i++ {
		off := bbPageHeader + i*bbElement
		e := p[off : off+bbElement]
		switch flags {
		case bbBranchPage:
			key, err := span(p, off, le.Uint32(e[0:]), le.Uint32(e[4:]))
			if err != nil {
				return fmt.Errorf("page %d element %d: %w", id, i, err)
			}
			next := hi
			if i+1 < count {
				ne := p[off+bbElement:]
				if next, err = span(p, off+bbElement, le.Uint32(ne[0:]), le.Uint32(ne[4:])); err != nil {
					return fmt.Errorf("page %d element %d: %w", id, i+1, err)
				}
				if bytes.Compare(key, next) >= 0 {
					return fmt.Errorf("page %d: keys out of order", id)
				}
			}
			if lo != nil && i == 0 && bytes.Compare(key, lo) < 0 {
				return fmt.Errorf("page %d: key below its parent's", id)
			}
			if err := c.walkTree(le.Uint64(e[8:]), nil, depth+1, key, next, prev); err != nil {
				return err
			}
		case bbLeafPage:
			pos, ks, vs := le.Uint32(e[4:]), le.Uint32(e[8:]), le.Uint32(e[12:])
			key, err := span(p, off, pos, ks)
			if err != nil {
				return fmt.Errorf("page %d element %d: %w", id, i, err)
			}
			val, err := span(p, off, pos+ks, vs)
			if err != nil || pos+ks < pos {
				return fmt.Errorf("page %d element %d: value outside its page", id, i)
			}
			if *prev != nil && bytes.Compare(key, *prev) <= 0 || lo != nil && bytes.Compare(key, lo) < 0 ||
				hi != nil && bytes.Compare(key, hi) >= 0 {
				return fmt.Errorf("page %d: keys out of order", id)
			}
			*prev = key
			if le.Uint32(e[0:])&bbBucketLeafFlag != 0 {
				if len(val) < bbBucketHeader {
					return fmt.Errorf("page %d element %d: bucket header too short", id, i)
				}
				var nested []byte
				root := le.Uint64(val)
				if root == 0 {
					nested = val[bbBucketHeader:]
				}
				if err := c.walkTree(root, nested, depth+1, nil, nil, new([]byte)); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("page %d has type %#x, want a branch or leaf page", id, flags)
		}
	}
	return nil
}

// span returns the n bytes at base+pos of page p, or an error when they fall outside it.
func span(p []byte, base int, pos, n uint32) ([]byte, error) {
	start := uint64(base) + uint64(pos)
	end := start + uint64(n)
	if end > uint64(len(p)) {
		return nil, errors.New("element outside its page")
	}
	return p[start:end], nil
}
