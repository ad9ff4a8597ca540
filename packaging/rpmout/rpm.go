package rpmout

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/rpmpack"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// RPM is one package a build produces: the header fields rpm -qi shows, the dependencies, and
// the files of the payload. Arch "src" or "nosrc" makes it a source package (IsSource).
type RPM struct {
	Name, Epoch, Version, Release, Arch string
	Summary, Description, License       string
	Group, URL, Vendor, Packager        string
	// DistURL is what OBS stamps into every package it builds,
	// obs://<instance>/<project>/<repository>/<srcmd5>-<package>; the explorer and osc read
	// the package's origin from it.
	DistURL string
	// VCS is the RPM VCS tag OBS stamps into what it builds from git (scmsync):
	// <server>/<org>/<repo>?trackingbranch=<branch>#<commit>; "" for none. generate_sbom
	// writes it as the package's vcs reference.
	VCS string
	// SourceRPM is the file name of the source package a binary package was built from
	// (e.g. "foo-1.0-1.1.src.rpm"; "" → <name>-<version>-<release>.src.rpm). Source packages
	// have none: its absence is what marks a package as a source package for rpm.
	SourceRPM string
	BuildHost string
	// BuildTime is the header's build time and every file's mtime. It is passed in so the
	// package does not read the clock; the zero time leaves the BUILDTIME tag out.
	BuildTime time.Time
	// Provides are written as given, after the package's own "name = [epoch:]version-release",
	// which rpm adds to every package and which is not repeated when already listed.
	Provides, Requires, Conflicts, Obsoletes []specfile.Dep
	Files                                    []File
}

// File is one file or directory of the payload.
type File struct {
	// Path is absolute for a binary package ("/usr/bin/foo"), a bare file name for a source
	// package ("foo.spec"), as rpmbuild lays them out.
	Path string
	Body []byte // the content; ignored for a directory
	// Mode holds the permission bits (0o755); 0 means 0o644 for a file and 0o755 for a
	// directory. File type bits are ignored: Dir decides.
	Mode         uint32
	Dir          bool
	Owner, Group string // "" means root
}

// IsSource reports whether r is a source package (arch "src" or "nosrc"; a nosrc package is
// marked like a src one, without rpmbuild's NOSOURCE list of the sources it leaves out).
func (r RPM) IsSource() bool { return r.Arch == "src" || r.Arch == "nosrc" }

// Filename is the package's file name, <name>-<version>-<release>.<arch>.rpm, the name OBS
// publishes it under (no epoch, as rpmbuild names files).
func Filename(r RPM) string {
	return r.Name + "-" + r.Version + "-" + r.Release + "." + r.Arch + ".rpm"
}

// EVR is the package's [epoch:]version-release, as its self-provide carries it.
func (r RPM) EVR() string {
	evr := r.Version + "-" + r.Release
	if r.Epoch != "" {
		evr = r.Epoch + ":" + evr
	}
	return evr
}

// provides is the provides list the header carries: the self-provide, then r.Provides without
// duplicates. Write and the rpm-md writers both use it, so primary.xml lists what the file holds.
func (r RPM) provides() []specfile.Dep {
	self := specfile.Dep{Name: r.Name, Op: "=", Version: r.EVR()}
	out := []specfile.Dep{self}
	for _, d := range r.Provides {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// Write writes r as an RPM file (format version 3 lead, SHA-256 header and payload digests,
// gzip-compressed cpio payload) with github.com/google/rpmpack. For a source package it then
// rewrites the header without SOURCERPM and with SOURCEPACKAGE, and the lead's type, because
// rpmpack always writes a SOURCERPM tag and rpm, createrepo_c and dnf tell a source package by
// that tag being absent.
//
// Write refuses (with an error naming the field) what would make a broken package: a missing
// name, version, release or arch; a version or release with "-"; a non-numeric epoch; a NUL
// byte in any string (header strings are NUL-terminated); a dependency without a name, with an
// unknown operator, or with an operator and no version; a file path that is not clean and
// absolute (binary) or a bare name (source); the same path twice.
func Write(w io.Writer, r RPM) error {
	if err := validate(r); err != nil {
		return err
	}
	pkg, err := newRPMPack(r)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := pkg.Write(&buf); err != nil {
		return fmt.Errorf("rpmpack: %w", err)
	}
	out := buf.Bytes()
	if r.IsSource() {
		if out, err = markSource(out); err != nil {
			return fmt.Errorf("marking %s as a source package: %w", Filename(r), err)
		}
	}
	_, err = w.Write(out)
	return err
}

// newRPMPack builds the rpmpack package for a validated r.
func newRPMPack(r RPM) (*rpmpack.RPM, error) {
	epoch := rpmpack.NoEpoch
	if r.Epoch != "" {
		e, _ := strconv.ParseUint(r.Epoch, 10, 32) // validated
		epoch = uint32(e)
	}
	pkg, err := rpmpack.NewRPM(rpmpack.RPMMetaData{
		Name: r.Name, Version: r.Version, Release: r.Release, Epoch: epoch, Arch: r.Arch,
		Summary: r.Summary, Description: r.Description, Licence: r.License, Group: r.Group,
		URL: r.URL, Vendor: r.Vendor, Packager: r.Packager, BuildHost: r.BuildHost,
		BuildTime: r.BuildTime,
	})
	if err != nil {
		return nil, fmt.Errorf("rpmpack: %w", err)
	}
	// NewRPM appended "name = version-release" without the epoch; the list is set whole so the
	// header holds exactly r.provides().
	pkg.Provides = relations(r.provides())
	pkg.Requires = relations(r.Requires)
	pkg.Conflicts = relations(r.Conflicts)
	pkg.Obsoletes = relations(r.Obsoletes)
	if r.DistURL != "" {
		pkg.AddCustomTag(tagDistURL, rpmpack.EntryString(r.DistURL))
	}
	if r.VCS != "" {
		pkg.AddCustomTag(tagVCS, rpmpack.EntryString(r.VCS))
	}
	if r.SourceRPM != "" && !r.IsSource() {
		pkg.AddCustomTag(tagSourceRPM, rpmpack.EntryString(r.SourceRPM))
	}
	var mtime uint32
	if u := r.BuildTime.Unix(); !r.BuildTime.IsZero() && u > 0 && u <= 1<<32-1 {
		mtime = uint32(u)
	}
	for _, f := range r.Files {
		pkg.AddFile(packFile(f, mtime))
	}
	return pkg, nil
}

// packFile turns a File into rpmpack's.
func packFile(f File, mtime uint32) rpmpack.RPMFile {
	mode, body := uint(f.Mode&0o7777), f.Body
	switch {
	case f.Dir:
		if mode == 0 {
			mode = 0o755
		}
		mode |= 0o40000
		body = nil
	case mode == 0:
		mode = 0o644
	}
	owner, group := f.Owner, f.Group
	if owner == "" {
		owner = "root"
	}
	if group == "" {
		group = "root"
	}
	return rpmpack.RPMFile{Name: f.Path, Body: body, Mode: mode, Owner: owner, Group: group, MTime: mtime}
}

// senses maps a Dep's operator to rpm's RPMSENSE flags.
var senses = map[string]uint32{"": 0, "<": 2, ">": 4, "=": 8, "<=": 10, ">=": 12}

func relations(deps []specfile.Dep) rpmpack.Relations {
	out := make(rpmpack.Relations, 0, len(deps))
	for _, d := range deps {
		rel := &rpmpack.Relation{Name: d.Name, Version: d.Version}
		// rpmpack's sense type is unexported; its constants carry rpm's values.
		switch senses[d.Op] {
		case 2:
			rel.Sense = rpmpack.SenseLess
		case 4:
			rel.Sense = rpmpack.SenseGreater
		case 8:
			rel.Sense = rpmpack.SenseEqual
		case 10:
			rel.Sense = rpmpack.SenseLess | rpmpack.SenseEqual
		case 12:
			rel.Sense = rpmpack.SenseGreater | rpmpack.SenseEqual
		}
		out = append(out, rel)
	}
	return out
}

// validate checks r for what would make Write produce a broken package.
func validate(r RPM) error {
	for _, f := range []struct{ name, v string }{{"name", r.Name}, {"version", r.Version}, {"release", r.Release}, {"arch", r.Arch}} {
		switch {
		case f.v == "":
			return fmt.Errorf("rpm: no %s", f.name)
		case strings.ContainsFunc(f.v, func(c rune) bool { return unicode.IsSpace(c) || unicode.IsControl(c) || c == '/' }):
			return fmt.Errorf("rpm: %s %q contains a space, control character or slash", f.name, f.v)
		case f.name != "name" && strings.Contains(f.v, "-"):
			return fmt.Errorf("rpm: %s %q contains '-'", f.name, f.v)
		}
	}
	if r.Epoch != "" {
		if _, err := strconv.ParseUint(r.Epoch, 10, 32); err != nil {
			return fmt.Errorf("rpm %s: epoch %q is not a number", r.Name, r.Epoch)
		}
	}
	for _, s := range []string{r.Summary, r.Description, r.License, r.Group, r.URL, r.Vendor, r.Packager, r.DistURL, r.VCS, r.SourceRPM, r.BuildHost} {
		if strings.IndexByte(s, 0) >= 0 {
			return fmt.Errorf("rpm %s: a header string contains a NUL byte", r.Name)
		}
	}
	for i, deps := range [][]specfile.Dep{r.Provides, r.Requires, r.Conflicts, r.Obsoletes} {
		for _, d := range deps {
			if err := validateDep(d); err != nil {
				return fmt.Errorf("rpm %s: %s: %v", r.Name, []string{"provides", "requires", "conflicts", "obsoletes"}[i], err)
			}
		}
	}
	return validateFiles(r)
}

func validateDep(d specfile.Dep) error {
	_, known := senses[d.Op]
	switch {
	case d.Name == "" || strings.IndexByte(d.Name+d.Version, 0) >= 0:
		return fmt.Errorf("dependency %q: no name, or a NUL byte", d.Name)
	case !known:
		return fmt.Errorf("dependency %q: unknown operator %q", d.Name, d.Op)
	case (d.Op == "") != (d.Version == ""):
		return fmt.Errorf("dependency %q: operator %q with version %q", d.Name, d.Op, d.Version)
	}
	return nil
}

func validateFiles(r RPM) error {
	seen := make(map[string]bool, len(r.Files))
	for _, f := range r.Files {
		p := f.Path
		switch {
		case strings.IndexByte(p+f.Owner+f.Group, 0) >= 0:
			return fmt.Errorf("rpm %s: file %q: a NUL byte", r.Name, p)
		case r.IsSource() && (p == "" || strings.Contains(p, "/") || p == "." || p == ".."):
			return fmt.Errorf("rpm %s: source file %q is not a bare file name", r.Name, p)
		case !r.IsSource() && (p == "/" || !strings.HasPrefix(p, "/") || path.Clean(p) != p):
			return fmt.Errorf("rpm %s: file %q is not a clean absolute path", r.Name, p)
		case seen[p]:
			return fmt.Errorf("rpm %s: file %q listed twice", r.Name, p)
		}
		seen[p] = true
	}
	return nil
}

// markSource turns rpmpack's output into a source package: SOURCERPM removed, SOURCEPACKAGE
// set, the signature's header digest and size recomputed, and the lead's type set to source.
func markSource(file []byte) ([]byte, error) {
	l, err := layout(file)
	if err != nil {
		return nil, err
	}
	hdr, err := parseHeader(l.hdr)
	if err != nil {
		return nil, fmt.Errorf("main header: %w", err)
	}
	sig, err := parseHeader(l.sig)
	if err != nil {
		return nil, fmt.Errorf("signature header: %w", err)
	}
	hdr = slices.DeleteFunc(hdr, func(e hdrEntry) bool { return e.tag == tagSourceRPM })
	hdr = setEntry(hdr, int32Entry(tagSourcePackage, 1))
	newHdr := encodeHeader(regionImmutable, hdr)
	if int64(len(newHdr))+int64(len(l.payload)) > 1<<31-1 {
		return nil, errors.New("package larger than 2 GiB")
	}
	sum := sha256.Sum256(newHdr)
	sig = setEntry(sig, hdrEntry{tag: sigSHA256, typ: typeString, count: 1, data: append([]byte(hex.EncodeToString(sum[:])), 0)})
	sig = setEntry(sig, int32Entry(sigSize, int32(len(newHdr)+len(l.payload))))
	newSig := encodeHeader(regionSignatures, sig)

	out := make([]byte, 0, leadSize+len(newSig)+8+len(newHdr)+len(l.payload))
	out = append(out, l.lead...)
	out[6], out[7] = 0, 1 // lead type: source
	out = append(out, newSig...)
	out = append(out, make([]byte, (8-len(newSig)%8)%8)...)
	out = append(out, newHdr...)
	return append(out, l.payload...), nil
}
