package store

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
)

// A snapshot proves itself (issue 32). bbolt's pages carry no checksums, so a check that walks
// the structure cannot see a byte changed inside a value: 64 flipped bytes mid-file were refused
// in one run and restored in another, depending on which pages they hit. So a snapshot ends in a
// trailer after the data file's pages — digestMagic and the SHA-256 of those pages' bytes, as
// they were written. Restore, import and doctor hash the pages again and refuse a snapshot whose
// bytes do not match, before anything is replaced: any byte changed — in a page header, a branch,
// a key, a value, an overflow page, a free page — is found, whatever the structure makes of it.
// bbolt never reads past its high-water mark, so the snapshot is still a data file as it stands;
// a snapshot from before the trailer (or a plain data file) has none and is checked by its
// structure alone.

// digestMagic opens the trailer; digestTrailer is its length.
const (
	digestMagic   = "pocketforge-sha256-v1\n"
	digestTrailer = len(digestMagic) + sha256.Size
)

// writeTrailer writes the trailer of sum to w.
func writeTrailer(w io.Writer, sum [sha256.Size]byte) (int, error) {
	return w.Write(append([]byte(digestMagic), sum[:]...))
}

// readTrailer returns the digest path's snapshot ends in, if it has one.
func readTrailer(path string) (sum [sha256.Size]byte, ok bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return sum, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() < int64(digestTrailer) {
		return sum, false, err
	}
	buf := make([]byte, digestTrailer)
	if _, err := f.ReadAt(buf, st.Size()-int64(digestTrailer)); err != nil {
		return sum, false, err
	}
	if !bytes.HasPrefix(buf, []byte(digestMagic)) {
		return sum, false, nil
	}
	copy(sum[:], buf[len(digestMagic):])
	return sum, true, nil
}

// CheckSnapshotDigest hashes the pages of the snapshot (or data file) at path and compares them
// with the digest its trailer carries: ErrNotPocketforge when they differ. found says whether it
// carries one (a plain data file does not).
func CheckSnapshotDigest(path string) (found bool, err error) {
	want, ok, err := readTrailer(path)
	if err != nil || !ok {
		return false, err
	}
	f, err := os.Open(path)
	if err != nil {
		return true, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return true, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, st.Size()-int64(digestTrailer))); err != nil {
		return true, fmt.Errorf("snapshot: %w", err)
	}
	if !bytes.Equal(h.Sum(nil), want[:]) {
		return true, fmt.Errorf("snapshot: %w (damaged: its bytes do not match the SHA-256 it carries)", ErrNotPocketforge)
	}
	return true, nil
}
