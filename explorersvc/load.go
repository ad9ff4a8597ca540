package explorersvc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pocketforge/pocketforge/spdx"
)

// How product files are laid out on disk, for `pocketforge import-spdx`, the admin import and
// the watched --spdx-dir: every *.spdx.json file is one product; a repodata/ directory beside
// it (same directory) is that product's rpm-md repository and gives its RPM file lists.
// A product without one has packages but no files to search.

// SBOMSuffix is the file name ending of a product SBOM.
const SBOMSuffix = ".spdx.json"

// FindSBOMs lists the product SBOMs a path names: the file itself, or every *.spdx.json below a
// directory, sorted.
func FindSBOMs(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	var out []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), SBOMSuffix) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// LoadSBOM reads one product SBOM file and the repodata/ beside it. Any problem names the file
// and nothing of the product is imported.
func LoadSBOM(path string) (Input, error) {
	dir := filepath.Dir(path)
	p, rpms, digest, err := loadProduct(os.DirFS(dir), filepath.Base(path), path)
	if err != nil {
		var unread unreadable
		var pathErr *fs.PathError
		if errors.As(err, &unread) && errors.As(err, &pathErr) {
			pathErr.Path = filepath.Join(dir, pathErr.Path) // the file as the caller named it
			return Input{}, pathErr
		}
		var repo repodataError
		if errors.As(err, &repo) {
			return Input{}, fmt.Errorf("%s: %w", dir, repo.error) // its errors name files relative to dir
		}
		return Input{}, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return Input{Product: p, RPMs: rpms, Source: abs, Digest: digest}, nil
}

// repodataError is a problem of a product's rpm-md repository, whose errors name files
// relative to the product's directory.
type repodataError struct{ error }

func (e repodataError) Unwrap() error { return e.error }

// loadProduct reads product SBOM name of fsys and the repodata/ beside it: the parsed product,
// its RPM file lists and the digest of both (the SBOM's sha256 over its bytes and then
// repomd.xml's, which names every data file by checksum and so stands for all of them). The
// SBOM is streamed through the hash into the parser, never held whole (it is tens of
// megabytes for a large product, next to the product parsed from it). source names the SBOM
// in parse errors. A failure to open or read the SBOM or repomd.xml is unreadable; a problem
// of the repository's data files is a repodataError.
func loadProduct(fsys fs.FS, name, source string) (spdx.Product, []spdx.RPM, string, error) {
	// The repository is read while the SBOM is parsed: each is a large part of a product's
	// loading, and the first product of an import is loaded with nothing to overlap it. The
	// SBOM's error wins, as when they were read one after the other.
	type repodata struct {
		rpms []spdx.RPM
		md   []byte
		err  error
	}
	repo := make(chan repodata, 1)
	go func() {
		var r repodata
		r.rpms, r.md, r.err = loadRepodata(fsys)
		repo <- r
	}()
	p, digest, err := parseSBOM(fsys, name, source)
	r := <-repo
	if err != nil {
		return spdx.Product{}, nil, "", err
	}
	if r.err != nil {
		return spdx.Product{}, nil, "", r.err
	}
	digest.Write(r.md)
	return p, r.rpms, hex.EncodeToString(digest.Sum(nil)), nil
}

// parseSBOM parses SBOM name of fsys, streamed through a hash it returns with the product.
func parseSBOM(fsys fs.FS, name, source string) (spdx.Product, hash.Hash, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return spdx.Product{}, nil, unreadable{err}
	}
	defer f.Close()
	h := sha256.New()
	r := &readTracker{r: io.TeeReader(f, h)}
	p, err := spdx.ParseDocument(r, source)
	if err == nil {
		_, err = io.Copy(io.Discard, r) // the parser read to the end; the digest covers all of it
	}
	if r.err != nil {
		return spdx.Product{}, nil, unreadable{r.err}
	}
	if err != nil {
		return spdx.Product{}, nil, err
	}
	return p, h, nil
}

// loadRepodata reads the rpm-md repository in repodata/ of fsys (none: no RPMs) and returns
// its RPMs and the repomd.xml that stands for it in the digest.
func loadRepodata(fsys fs.FS) ([]spdx.RPM, []byte, error) {
	md, err := fs.ReadFile(fsys, "repodata/repomd.xml")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case err != nil:
		return nil, nil, unreadable{err}
	}
	rpms, err := spdx.ParseRepodata(fsys, "repodata")
	if err != nil {
		return nil, nil, repodataError{err}
	}
	return rpms, md, nil
}

// readTracker remembers the error of the reader under a parser, so a file that could not be
// read is told apart from one that does not parse.
type readTracker struct {
	r   io.Reader
	err error
}

func (t *readTracker) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	if err != nil && err != io.EOF {
		t.err = err
	}
	return n, err
}

// LoadDocument reads one SBOM sent in a request body (no file lists: an upload is one file).
func LoadDocument(data []byte, name string) (Input, error) {
	p, err := spdx.ParseDocument(bytes.NewReader(data), name)
	if err != nil {
		return Input{}, err
	}
	sum := sha256.Sum256(data)
	return Input{Product: p, Source: name, Digest: hex.EncodeToString(sum[:])}, nil
}
