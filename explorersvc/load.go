package explorersvc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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
	data, err := os.ReadFile(path)
	if err != nil {
		return Input{}, err
	}
	h := sha256.New()
	h.Write(data)
	p, err := spdx.ParseDocument(bytes.NewReader(data), path)
	if err != nil {
		return Input{}, err
	}
	dir := filepath.Dir(path)
	var rpms []spdx.RPM
	repomd := filepath.Join(dir, "repodata", "repomd.xml")
	if md, err := os.ReadFile(repomd); err == nil {
		h.Write(md) // repomd.xml names every data file by checksum: it stands for all of them
		if rpms, err = spdx.ParseRepodata(os.DirFS(dir), "repodata"); err != nil {
			return Input{}, fmt.Errorf("%s: %w", dir, err) // its errors name files relative to dir
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Input{}, fmt.Errorf("%s: %w", repomd, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return Input{Product: p, RPMs: rpms, Source: abs, Digest: hex.EncodeToString(h.Sum(nil))}, nil
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
