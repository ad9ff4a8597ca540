package buildstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Binary is one file a build left in its where (an RPM, the source RPM, a log digest…): what
// binarylists, fileinfo and later builds' dependency resolution read, without opening the
// file. The file itself is kept apart (BinaryFile), so listings never load it.
type Binary struct {
	Package  string    `json:"package"`  // the source package that built it
	Filename string    `json:"filename"` // name-version-release.arch.rpm
	Size     int64     `json:"size"`
	MTime    time.Time `json:"mtime"`
	MD5      string    `json:"md5,omitempty"`
	SHA256   string    `json:"sha256,omitempty"`

	// What an RPM says of itself; empty for other files.
	Name        string   `json:"name,omitempty"`
	Epoch       string   `json:"epoch,omitempty"`
	Version     string   `json:"version,omitempty"`
	Release     string   `json:"release,omitempty"`
	Arch        string   `json:"arch,omitempty"` // the RPM's arch: x86_64, noarch, src
	Summary     string   `json:"summary,omitempty"`
	Description string   `json:"description,omitempty"`
	Provides    []Dep    `json:"provides,omitempty"`
	Requires    []Dep    `json:"requires,omitempty"`
	Files       []string `json:"files,omitempty"`

	// Medium names the product medium a product build's file belongs to
	// ("Pocket-1.0-x86_64-Build1.1"); publishing lays such files out under it. "" otherwise.
	Medium string `json:"medium,omitempty"`
}

// Dep is one dependency or capability of a binary record: a name, optionally with a version
// relation. The record keeps what packaging/specfile parsed (its Dep has the same fields and
// JSON form; buildsvc converts between them), so the store needs no spec library to read it.
type Dep struct {
	Name    string `json:"name"`
	Op      string `json:"op,omitempty"`      // "", "=", "<", "<=", ">", ">="
	Version string `json:"version,omitempty"` // [epoch:]version[-release]; "" when Op is ""
}

// String renders d as rpm prints a dependency: "name" or "name op version".
func (d Dep) String() string {
	if d.Op == "" {
		return d.Name
	}
	return d.Name + " " + d.Op + " " + d.Version
}

// IsRPM reports whether b is a binary RPM (not the source RPM, nor a product medium's copy of a
// shipped package): what dependency resolution and publishing consider.
func (b Binary) IsRPM() bool {
	return b.Name != "" && b.Arch != "src" && b.Arch != "nosrc" && b.Medium == ""
}

// PutBinary stores binary b of w with its file's bytes.
func PutBinary(tx kv.Tx, w Where, b Binary, file []byte) error {
	key := w.sub(b.Package, b.Filename)
	if err := store.Put(tx, store.BuildFarmBinaries, key, b); err != nil {
		return err
	}
	files, err := store.Bucket(tx, store.BuildFarmFiles)
	if err != nil {
		return err
	}
	return files.Put(key, file)
}

// Binaries lists the binaries of pkg in w by file name; pkg "" lists every package's (by
// package, then file name).
func Binaries(tx kv.Tx, w Where, pkg string) ([]Binary, error) {
	prefix := append(w.Key(), sep...)
	if pkg != "" {
		prefix = append(w.sub(pkg), sep...)
	}
	var out []Binary
	err := store.Each(tx, store.BuildFarmBinaries, prefix, func(_ []byte, b Binary) (bool, error) {
		out = append(out, b)
		return true, nil
	})
	return out, err
}

// GetBinary reads one binary of pkg in w (store.ErrNotFound when there is none).
func GetBinary(tx kv.Tx, w Where, pkg, filename string) (Binary, error) {
	return store.Get[Binary](tx, store.BuildFarmBinaries, w.sub(pkg, filename))
}

// BinaryFile returns the bytes of one binary of pkg in w, valid only in tx (nil when there is
// none).
func BinaryFile(tx kv.Tx, w Where, pkg, filename string) []byte {
	b := tx.Bucket([]byte(store.BuildFarmFiles))
	if b == nil {
		return nil
	}
	return b.Get(w.sub(pkg, filename))
}

// DeleteBinaries drops the binaries of pkg in w ("" : of every package in w).
func DeleteBinaries(tx kv.Tx, w Where, pkg string) error {
	prefix := append(w.Key(), sep...)
	if pkg != "" {
		prefix = append(w.sub(pkg), sep...)
	}
	for _, name := range []string{store.BuildFarmBinaries, store.BuildFarmFiles} {
		if err := store.DeletePrefix(tx, name, prefix); err != nil {
			return err
		}
	}
	return nil
}

// HasBinaries reports whether pkg has any binary in w.
func HasBinaries(tx kv.Tx, w Where, pkg string) bool {
	b := tx.Bucket([]byte(store.BuildFarmBinaries))
	if b == nil {
		return false
	}
	prefix := append(w.sub(pkg), sep...)
	k, _ := b.Cursor().Seek(prefix)
	return k != nil && bytes.HasPrefix(k, prefix)
}

// BinariesOf lists the binaries of w whose file name is in files, as Binaries lists them (by
// package, then file name), with their Package, Filename and Arch only: what the published
// binary search needs to say which package built a published file. It decides from the keys
// which records to read and decodes those three fields, where Binaries would decode every
// record of the repository whole (file lists, dependencies).
func BinariesOf(tx kv.Tx, w Where, files map[string]bool) ([]Binary, error) {
	b := tx.Bucket([]byte(store.BuildFarmBinaries))
	if b == nil {
		return nil, nil
	}
	prefix := append(w.Key(), sep...)
	var out []Binary
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		_, file, ok := bytes.Cut(k[len(prefix):], []byte(sep))
		if !ok || !files[string(file)] {
			continue
		}
		var bin struct {
			Package  string `json:"package"`
			Filename string `json:"filename"`
			Arch     string `json:"arch"`
		}
		if err := json.Unmarshal(v, &bin); err != nil {
			return nil, fmt.Errorf("%s %q: decode: %w", store.BuildFarmBinaries, k, err)
		}
		out = append(out, Binary{Package: bin.Package, Filename: bin.Filename, Arch: bin.Arch})
	}
	return out, nil
}
