package rpmout

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// Entry is one published RPM as rpm-md describes it: its metadata and where and what its
// file is. NewEntry fills it from the written file.
type Entry struct {
	// RPM is the package's metadata, as passed to Write. Only file paths and kinds are read
	// from RPM.Files, so the bodies may be dropped once the file is written.
	RPM RPM
	// Href is the file's location relative to the repository root, e.g.
	// "x86_64/foo-1-1.x86_64.rpm".
	Href string
	// Size is the file's size in bytes; Checksum its SHA-256 in hex, the package's pkgid.
	Size     int64
	Checksum string
	// Time is the file's modification time (primary's time/@file).
	Time time.Time
	// HeaderStart and HeaderEnd are the byte range of the main header in the file
	// (rpm:header-range), which lets a client fetch only the header.
	HeaderStart, HeaderEnd int64
	// InstalledSize and ArchiveSize are what the file's header says (the SIZE tag and the
	// signature's PAYLOADSIZE), which is what createrepo_c reports.
	InstalledSize, ArchiveSize int64
}

// NewEntry describes the RPM file content (as Write wrote it for r) published at href with the
// modification time mtime: size, SHA-256, header range and sizes are read from the bytes.
func NewEntry(href string, r RPM, file []byte, mtime time.Time) (Entry, error) {
	l, err := layout(file)
	if err != nil {
		return Entry{}, fmt.Errorf("%s: %w", href, err)
	}
	hdr, err := parseHeader(l.hdr)
	if err != nil {
		return Entry{}, fmt.Errorf("%s: main header: %w", href, err)
	}
	sig, err := parseHeader(l.sig)
	if err != nil {
		return Entry{}, fmt.Errorf("%s: signature header: %w", href, err)
	}
	// Which paths are directories is the file's to say: a caller may pass r with bare paths
	// (what a store kept of them), and filelists must still mark directories.
	byTag := map[uint32]hdrEntry{}
	for _, e := range hdr {
		byTag[e.tag] = e
	}
	dirs := map[string]bool{}
	for _, f := range filesOf(byTag) {
		if f.Dir {
			dirs[f.Path] = true
		}
	}
	if len(dirs) > 0 {
		r.Files = slices.Clone(r.Files)
		for i := range r.Files {
			if dirs[strings.TrimSuffix(r.Files[i].Path, "/")] {
				r.Files[i].Dir = true
			}
		}
	}
	// What the caller's record may not keep, the header says: rpm-md's vendor, license, group
	// and URL must be the package's own (zypper refuses an update whose vendor changes, and a
	// vendor missing from the metadata is one).
	str := func(tag uint32) string {
		if list := stringsOf(byTag[tag]); len(list) > 0 {
			return list[0]
		}
		return ""
	}
	for _, f := range []struct {
		field *string
		tag   uint32
	}{{&r.Vendor, tagVendor}, {&r.License, tagLicense}, {&r.Group, tagGroup}, {&r.URL, tagURL}} {
		if *f.field == "" {
			*f.field = str(f.tag)
		}
	}
	installed, _ := int32Value(hdr, tagSize)
	archive, _ := int32Value(sig, sigPayloadSize)
	sum := sha256.Sum256(file)
	return Entry{
		RPM: r, Href: href, Size: int64(len(file)), Checksum: hex.EncodeToString(sum[:]), Time: mtime,
		HeaderStart: int64(l.hdrStart), HeaderEnd: int64(l.hdrStart + len(l.hdr)),
		InstalledSize: installed, ArchiveSize: archive,
	}, nil
}

// arch is the package's rpm-md arch: "src" for every source package, as createrepo_c writes it.
func (e *Entry) arch() string {
	if e.RPM.IsSource() {
		return "src"
	}
	return e.RPM.Arch
}

// sourceRPM is what the header's SOURCERPM says: Write's default for a binary package, nothing
// for a source package.
func (e *Entry) sourceRPM() string {
	switch {
	case e.RPM.IsSource():
		return ""
	case e.RPM.SourceRPM != "":
		return e.RPM.SourceRPM
	}
	return e.RPM.Name + "-" + e.RPM.Version + "-" + e.RPM.Release + ".src.rpm"
}

// RepodataDir is where the metadata lives below the repository root.
const RepodataDir = "repodata"

// Repodata writes the rpm-md metadata of a repository holding entries: it returns the files
// of repodata/, keyed by their path relative to the repository root ("repodata/repomd.xml",
// "repodata/<sha256>-primary.xml.gz", "…-filelists.xml.gz", "…-other.xml.gz"), as
// createrepo_c names them. Each data file is gzip-compressed; repomd.xml gives its SHA-256
// and size, compressed and open. revision is repomd's revision and every timestamp (the time
// the repository was published; createrepo_c uses the clock).
//
// The packages are listed in createrepo_c's order, by file name and then by Href, so the same
// entries give the same bytes. Repodata
// fails on an entry without a name, version, release or arch, with an href that is not a clean
// relative path, with a checksum that is not SHA-256 hex, or on two entries with one href;
// every other text (summaries, file names with spaces or "<&>") is escaped. The sqlite
// databases (primary_db, …) createrepo_c adds by default are not written: dnf and zypper read
// the XML.
func Repodata(entries []Entry, revision time.Time) (map[string][]byte, error) {
	entries = slices.Clone(entries)
	slices.SortStableFunc(entries, func(a, b Entry) int {
		return cmp.Or(strings.Compare(path.Base(a.Href), path.Base(b.Href)), strings.Compare(a.Href, b.Href))
	})
	for i := range entries {
		if err := checkEntry(&entries[i]); err != nil {
			return nil, err
		}
		// The documents list files in header order; sorted once here for both of them (the
		// entries are a copy, the caller's file slices are left alone).
		if files := entries[i].RPM.Files; !slices.IsSortedFunc(files, compareFiles) {
			entries[i].RPM.Files = slices.Clone(files)
			slices.SortStableFunc(entries[i].RPM.Files, compareFiles)
		}
		if i > 0 && entries[i].Href == entries[i-1].Href {
			return nil, fmt.Errorf("repodata: two packages at %q", entries[i].Href)
		}
	}
	files := make(map[string][]byte, 4)
	var repomd bytes.Buffer
	x := xmlWriter{w: bufio.NewWriter(&repomd)}
	x.raw(xmlDecl + `<repomd xmlns="` + nsRepo + `" xmlns:rpm="` + nsRPM + `">` + "\n  <revision>")
	x.text(fmt.Sprint(unix(revision)))
	x.raw("</revision>\n")
	for _, d := range []struct {
		typ   string
		write func(xmlWriter, []Entry)
	}{{"primary", writePrimary}, {"filelists", writeFilelists}, {"other", writeOther}} {
		gz, info, err := compressed(func(x xmlWriter) { d.write(x, entries) })
		if err != nil {
			return nil, fmt.Errorf("repodata: %s: %v", d.typ, err)
		}
		href := RepodataDir + "/" + info.checksum + "-" + d.typ + ".xml.gz"
		files[href] = gz
		writeRepomdData(x, d.typ, href, info, revision)
	}
	x.raw("</repomd>\n")
	if err := x.w.Flush(); err != nil {
		return nil, err
	}
	files[RepodataDir+"/repomd.xml"] = repomd.Bytes()
	return files, nil
}

func checkEntry(e *Entry) error {
	r := &e.RPM
	switch {
	case r.Name == "" || r.Version == "" || r.Release == "" || r.Arch == "":
		return fmt.Errorf("repodata: %s: no name, version, release or arch", e.Href)
	case !fs.ValidPath(e.Href) || e.Href == "." || strings.Contains(e.Href, `\`):
		return fmt.Errorf("repodata: package %s: href %q is not a clean relative path", r.Name, e.Href)
	case len(e.Checksum) != sha256.Size*2 || strings.Trim(e.Checksum, "0123456789abcdef") != "":
		return fmt.Errorf("repodata: %s: checksum %q is not lower-case SHA-256 hex", e.Href, e.Checksum)
	}
	return nil
}

// dataInfo is what repomd.xml says about one data file.
type dataInfo struct {
	checksum, openChecksum string
	size, openSize         int64
}

// compressed runs write into a gzip stream, hashing and counting the XML and the compressed
// bytes on the way.
func compressed(write func(xmlWriter)) ([]byte, dataInfo, error) {
	var out bytes.Buffer
	gzHash, openHash := sha256.New(), sha256.New()
	zw := gzip.NewWriter(io.MultiWriter(&out, gzHash))
	open := &countingWriter{w: io.MultiWriter(zw, openHash)}
	bw := bufio.NewWriterSize(open, 64<<10)
	write(xmlWriter{w: bw})
	if err := bw.Flush(); err != nil {
		return nil, dataInfo{}, err
	}
	if err := zw.Close(); err != nil {
		return nil, dataInfo{}, err
	}
	return out.Bytes(), dataInfo{
		checksum: hexSum(gzHash), openChecksum: hexSum(openHash),
		size: int64(out.Len()), openSize: open.n,
	}, nil
}

func writeRepomdData(x xmlWriter, typ, href string, info dataInfo, revision time.Time) {
	x.raw(`  <data type="` + typ + `">` + "\n")
	x.raw(`    <checksum type="sha256">` + info.checksum + "</checksum>\n")
	x.raw(`    <open-checksum type="sha256">` + info.openChecksum + "</open-checksum>\n")
	x.raw("    <location")
	x.attr("href", href)
	x.raw("/>\n")
	x.element("    ", "timestamp", fmt.Sprint(unix(revision)))
	x.element("    ", "size", fmt.Sprint(info.size))
	x.element("    ", "open-size", fmt.Sprint(info.openSize))
	x.raw("  </data>\n")
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

func hexSum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

// unix is t in Unix seconds, 0 for the zero time.
func unix(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}
