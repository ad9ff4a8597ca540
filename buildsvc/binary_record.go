package buildsvc

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"time"
	"unsafe"

	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// BinaryRecord is what the store keeps of an RPM file data, filed under package pkg: its name
// and the header's fields (the epoch included), its files' paths, and the file's size and
// digests. The one place an RPM becomes a binary record — a build's finish, an Admin's upload
// into _repository, the demo world's base (fixtures).
func BinaryRecord(pkg string, r rpmout.RPM, data []byte, mtime time.Time) buildstore.Binary {
	b := buildstore.Binary{Package: pkg, Filename: rpmout.Filename(r), MTime: mtime,
		Name: r.Name, Epoch: r.Epoch, Version: r.Version, Release: r.Release, Arch: r.Arch,
		Summary: r.Summary, Description: r.Description, Provides: StoredDeps(r.Provides), Requires: StoredDeps(r.Requires)}
	SetDigests(&b, data)
	b.Files = make([]string, len(r.Files))
	for i, f := range r.Files {
		b.Files[i] = f.Path
	}
	return b
}

// StoredDeps are deps as a binary record keeps them (the store reads its records without the
// spec library), and SpecDeps reads a record's back for the resolver and the RPM writer. The
// two Dep types have the same fields — the conversion below does not compile otherwise — so
// they have the same layout, and each slice is the other viewed as its own type: a record's
// dependencies reach the resolver without a copy, as they did before the store had its type.
func StoredDeps(deps []specfile.Dep) []buildstore.Dep {
	return unsafe.Slice((*buildstore.Dep)(unsafe.Pointer(unsafe.SliceData(deps))), len(deps))
}

// SpecDeps is StoredDeps the other way.
func SpecDeps(deps []buildstore.Dep) []specfile.Dep {
	return unsafe.Slice((*specfile.Dep)(unsafe.Pointer(unsafe.SliceData(deps))), len(deps))
}

var _ = specfile.Dep(buildstore.Dep{}) // the same fields, in the same order: the same layout

// SetDigests sets b's size and digests to data's (a file signed again, a shipped copy).
func SetDigests(b *buildstore.Binary, data []byte) {
	m, sh := md5.Sum(data), sha256.Sum256(data)
	b.Size, b.MD5, b.SHA256 = int64(len(data)), hex.EncodeToString(m[:]), hex.EncodeToString(sh[:])
}

// SplitRPMName splits name-version-release.arch.rpm as OBS's backend reads a published
// file's name (the arch has no '.', version and release no '-'); ok is false for any other
// name.
func SplitRPMName(file string) (name, version, release, arch string, ok bool) {
	return buildstore.SplitRPMName(file) // the published name index splits names the same way
}
