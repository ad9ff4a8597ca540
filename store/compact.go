package store

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
)

// CompactOptions tune Compact.
type CompactOptions struct {
	// LockTimeout is how long Compact waits for a process holding the file. Zero means 1 s.
	LockTimeout time.Duration
	// Backup, when set, is where the original file stays (a hard link to it), so a compact is
	// undone by renaming it back. Compact refuses to replace an existing one.
	Backup string
}

// CompactResult describes a compacted file.
type CompactResult struct {
	Before, After int64 // file sizes in bytes
	Keys          int   // values copied
}

// Compact rewrites the data file at path offline, as bbolt.Compact does: a copy holding every
// bucket, value and sequence in freshly filled pages, without the free pages deleted data left.
// The server must be stopped: a file in use is an ErrLocked and nothing is touched. So is a
// damaged file (an ErrNotPocketforge: compact would copy only what can be read). The copy is
// written to a temporary file in the same directory, synced, checked (bbolt's check, and the
// same digest of every bucket, key, value and sequence as the original) and only then renamed
// over the original, so a crash at any point leaves the original or the copy, never a mix.
func Compact(path string, opt CompactOptions) (res CompactResult, err error) {
	src, err := OpenOffline(path, opt.LockTimeout)
	if err != nil {
		return res, err
	}
	defer src.Close()
	if err := src.Check(); err != nil {
		return res, err
	}
	if _, err := src.SchemaVersion(); err != nil {
		return res, err
	}
	if opt.Backup != "" {
		if _, err := os.Lstat(opt.Backup); err == nil {
			return res, fmt.Errorf("backup %s exists; move it away or pass --no-backup (nothing changed)", opt.Backup)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		return res, err
	}
	res.Before = src.Size()

	tmp, err := os.CreateTemp(filepath.Dir(path), ".pocketforge-compact-*")
	if err != nil {
		return res, fmt.Errorf("compact: %w (nothing changed)", err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	renamed := false
	defer func() {
		if !renamed {
			os.Remove(tmpPath)
		}
	}()
	if res.Keys, err = compactInto(tmpPath, src, st.Mode().Perm()); err != nil {
		return res, fmt.Errorf("compact: %w (nothing changed)", err)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		_ = os.Chown(tmpPath, int(sys.Uid), int(sys.Gid)) // as root on another user's file; else it is ours already
	}
	if opt.Backup != "" {
		if err := os.Link(path, opt.Backup); err != nil {
			return res, fmt.Errorf("compact: keeping the original as %s: %w (nothing changed)", opt.Backup, err)
		}
	}
	if err := os.Rename(tmpPath, path); err != nil {
		if opt.Backup != "" {
			os.Remove(opt.Backup)
		}
		return res, fmt.Errorf("compact: %w (nothing changed)", err)
	}
	renamed = true
	if err := syncDir(filepath.Dir(path)); err != nil {
		return res, fmt.Errorf("compact: the copy replaced %s, but syncing its directory failed: %w", path, err)
	}
	if st, err := os.Stat(path); err == nil {
		res.After = st.Size()
	}
	return res, nil
}

// compactInto copies src into a new bbolt file at dst with the given permissions, syncs it,
// checks it and compares its digest with src's. It returns the number of values copied.
func compactInto(dst string, src *Offline, perm fs.FileMode) (int, error) {
	out, err := boltkv.Open(dst, boltkv.Options{LockTimeout: time.Second, PageSize: src.PageSize(), NoSync: true, Mode: perm})
	if err != nil {
		return 0, err
	}
	defer out.Close()
	if err := os.Chmod(dst, perm); err != nil { // CreateTemp made it 0600
		return 0, err
	}
	err = guardFile(src.path, func() error { return out.Compact(src.bolt, 64<<20) })
	if err != nil {
		return 0, err
	}
	if err := out.Sync(); err != nil { // NoSync spared the per-commit fsyncs; one at the end
		return 0, err
	}
	var want, got [sha256.Size]byte
	var keys int
	err = src.View(func(tx kv.Tx) (err error) { want, keys, err = contentDigest(tx); return })
	if err != nil {
		return 0, err
	}
	return keys, out.View(func(tx kv.Tx) error {
		var problems []error
		boltkv.Check(tx, func(err error) { problems = append(problems, err) })
		if len(problems) > 0 {
			return fmt.Errorf("the copy fails bbolt's check: %w", errors.Join(problems...))
		}
		var err error
		if got, _, err = contentDigest(tx); err != nil {
			return err
		}
		if got != want {
			return errors.New("the copy's contents differ from the original's")
		}
		return nil
	})
}

// contentDigest is the SHA-256 of tx's content — every bucket's name and sequence, then its
// keys and values in order (a nested bucket's whole content in its place), each field tagged
// and length-prefixed — and the number of values: what compact compares its copy with the original by
// (their pages differ).
func contentDigest(tx kv.Tx) ([sha256.Size]byte, int, error) {
	h := sha256.New()
	keys := 0
	err := tx.ForEach(func(name []byte, b kv.Bucket) error {
		return digestBucket(h, name, b, &keys)
	})
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum, keys, err
}

func digestBucket(h hash.Hash, name []byte, b kv.Bucket, keys *int) error {
	field(h, 'b', name)
	field(h, 's', Itob(b.Sequence()))
	err := b.ForEach(func(k, v []byte) error {
		if v == nil {
			if nested := b.Bucket(k); nested != nil {
				return digestBucket(h, k, nested, keys)
			}
		}
		*keys++
		field(h, 'k', k)
		field(h, 'v', v)
		return nil
	})
	field(h, 'e', nil)
	return err
}

// field writes one tagged, length-prefixed field to h.
func field(h hash.Hash, tag byte, b []byte) {
	var hdr [9]byte
	hdr[0] = tag
	binary.BigEndian.PutUint64(hdr[1:], uint64(len(b)))
	h.Write(hdr[:])
	h.Write(b)
}
