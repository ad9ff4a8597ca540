package rpmout

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path"
	"strconv"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// The main header tags ReadHeader reads (rpm's rpmtag.h).
const (
	tagName           = 1000
	tagVersion        = 1001
	tagRelease        = 1002
	tagEpoch          = 1003
	tagSummary        = 1004
	tagDescription    = 1005
	tagArch           = 1022
	tagRequireFlags   = 1048
	tagRequireName    = 1049
	tagRequireVersion = 1050
	tagProvideName    = 1047
	tagProvideFlags   = 1112
	tagProvideVersion = 1113
	tagDirIndexes     = 1116
	tagBaseNames      = 1117
	tagDirNames       = 1118
	tagFileModes      = 1030
	tagVendor         = 1011
	tagLicense        = 1014
	tagGroup          = 1016
	tagURL            = 1020
)

// rpmsense flag bits of a dependency's comparison.
const (
	senseLess    = 0x02
	senseGreater = 0x04
	senseEqual   = 0x08
	// senseRpmlib marks rpmlib(...) requirements rpm adds itself; they are no dependency a
	// repository can provide, so ReadHeader leaves them out.
	senseRpmlib = 1 << 24
)

// ReadHeader reads what a repository needs to know of an RPM file someone uploads (PUT
// /build/<project>/<repository>/<arch>/_repository/<file>): name, epoch, version, release,
// arch, summary, description, DISTURL, provides, requires and file paths. A source package comes back
// with Arch "src" (rpm keeps the build arch in its header; the missing SOURCERPM tag is what
// marks it). The file must be an RPM whose headers parse; the payload is not read.
func ReadHeader(file []byte) (RPM, error) {
	l, err := layout(file)
	if err != nil {
		return RPM{}, err
	}
	entries, err := parseHeader(l.hdr)
	if err != nil {
		return RPM{}, err
	}
	byTag := map[uint32]hdrEntry{}
	for _, e := range entries {
		byTag[e.tag] = e
	}
	str := func(tag uint32) string {
		list := stringsOf(byTag[tag])
		if len(list) == 0 {
			return ""
		}
		return list[0]
	}
	r := RPM{Name: str(tagName), Version: str(tagVersion), Release: str(tagRelease), Arch: str(tagArch),
		Summary: str(tagSummary), Description: str(tagDescription), DistURL: str(tagDistURL), VCS: str(tagVCS),
		License: str(tagLicense), Group: str(tagGroup), URL: str(tagURL), Vendor: str(tagVendor), SourceRPM: str(tagSourceRPM)}
	if r.Name == "" || r.Version == "" {
		return RPM{}, errors.New("not an RPM package header: no name or version")
	}
	if v, ok := int32Value(entries, tagEpoch); ok {
		r.Epoch = strconv.FormatInt(v, 10)
	}
	if _, ok := byTag[tagSourceRPM]; !ok {
		r.Arch = "src"
	}
	r.Provides = depsOf(byTag[tagProvideName], byTag[tagProvideFlags], byTag[tagProvideVersion])
	r.Requires = depsOf(byTag[tagRequireName], byTag[tagRequireFlags], byTag[tagRequireVersion])
	r.Files = filesOf(byTag)
	return r, nil
}

// filesOf reads a header's file list: each path, and from FILEMODES its permission bits and
// whether it is a directory (what rpm-md's filelists mark type="dir").
func filesOf(byTag map[uint32]hdrEntry) []File {
	dirs, bases, idx := stringsOf(byTag[tagDirNames]), stringsOf(byTag[tagBaseNames]), int32sOf(byTag[tagDirIndexes])
	modes := int16sOf(byTag[tagFileModes])
	var out []File
	for i, b := range bases {
		if i < len(idx) && int(idx[i]) < len(dirs) && idx[i] >= 0 {
			f := File{Path: path.Join(dirs[idx[i]], b)}
			if i < len(modes) {
				f.Mode, f.Dir = uint32(modes[i])&0o7777, uint32(modes[i])&0o170000 == 0o040000
			}
			out = append(out, f)
		}
	}
	return out
}

// int16sOf reads an INT16 entry's values.
func int16sOf(e hdrEntry) []uint16 {
	if e.typ != typeInt16 {
		return nil
	}
	out := make([]uint16, 0, len(e.data)/2)
	for i := 0; i+2 <= len(e.data); i += 2 {
		out = append(out, binary.BigEndian.Uint16(e.data[i:]))
	}
	return out
}

// stringsOf splits a STRING, STRING_ARRAY or I18NSTRING entry's data into its strings.
func stringsOf(e hdrEntry) []string {
	if e.typ != typeString && e.typ != typeStringArray && e.typ != typeI18NString {
		return nil
	}
	parts := bytes.Split(bytes.TrimSuffix(e.data, []byte{0}), []byte{0})
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		out = append(out, string(p))
	}
	if e.typ == typeI18NString && len(out) > 1 {
		out = out[:1] // the C locale's text comes first
	}
	return out
}

// int32sOf reads an INT32 entry's values.
func int32sOf(e hdrEntry) []int32 {
	if e.typ != typeInt32 {
		return nil
	}
	out := make([]int32, 0, len(e.data)/4)
	for i := 0; i+4 <= len(e.data); i += 4 {
		out = append(out, int32(binary.BigEndian.Uint32(e.data[i:])))
	}
	return out
}

// depsOf pairs the name, flags and version arrays of a dependency list.
func depsOf(names, flags, versions hdrEntry) []specfile.Dep {
	ns, fs, vs := stringsOf(names), int32sOf(flags), stringsOf(versions)
	var out []specfile.Dep
	for i, n := range ns {
		var f int32
		if i < len(fs) {
			f = fs[i]
		}
		if f&senseRpmlib != 0 {
			continue
		}
		d := specfile.Dep{Name: n}
		if i < len(vs) && vs[i] != "" {
			switch f & (senseLess | senseGreater | senseEqual) {
			case senseLess:
				d.Op = "<"
			case senseGreater:
				d.Op = ">"
			case senseEqual:
				d.Op = "="
			case senseLess | senseEqual:
				d.Op = "<="
			case senseGreater | senseEqual:
				d.Op = ">="
			}
			if d.Op != "" {
				d.Version = vs[i]
			}
		}
		out = append(out, d)
	}
	return out
}
