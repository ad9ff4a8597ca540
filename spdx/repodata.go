package spdx

import (
	"compress/gzip"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// ParseRepodata reads the RPM file lists of an rpm-md repository: dir is its repodata
// directory inside fsys (e.g. "repodata"), holding repomd.xml. The primary and filelists data
// it names are opened relative to the repository root, the parent of dir, as rpm-md hrefs are;
// an href that leaves the root ("../x", "/etc/x") or points elsewhere (xml:base) is refused.
// Each data file is checked against the checksum repomd.xml gives for it (a mismatch means a
// half-synced mirror, and its file lists would be wrong), then decompressed (.gz, or plain
// .xml; .zst, .xz and .bz2 are reported as unsupported) and streamed.
//
// The files of each package are joined to its primary entry by pkgid: Filename is the basename
// of primary's location href, the name the explorer's file search answers with. Files keeps
// files and leaves out directories (<file type="dir">): the explorer answers "which RPM ships
// /usr/bin/bash", and a directory such as /usr/bin is owned by hundreds of packages, so it
// would only flood the index. Ghost entries are kept, as packages do own them. Files are sorted
// and unique; the RPMs keep primary's order. Every error names the file it is about.
//
// The checks on hrefs are lexical: pass the FS of an os.Root (os.OpenRoot(dir).FS()) rather
// than os.DirFS when symbolic links in the repository must not lead out of it either. Memory
// is bounded by MaxRepodataPackages and MaxRepodataFiles; decompressed input by
// MaxRepodataXMLBytes.
func ParseRepodata(fsys fs.FS, dir string) ([]RPM, error) {
	return parseRepodata(fsys, dir, defaultLimits)
}

// repomdData is one <data> entry of repomd.xml.
type repomdData struct {
	Type     string `xml:"type,attr"`
	Checksum struct {
		Type  string `xml:"type,attr"`
		Value string `xml:",chardata"`
	} `xml:"checksum"`
	Location struct {
		Href string `xml:"href,attr"`
		Base string `xml:"base,attr"`
	} `xml:"location"`
}

func parseRepodata(fsys fs.FS, dir string, lim limits) ([]RPM, error) {
	dir = path.Clean(dir)
	if !fs.ValidPath(dir) || dir == "." {
		return nil, fmt.Errorf("%s: not a repodata directory below a repository root", dir)
	}
	repomdPath := path.Join(dir, "repomd.xml")
	data, err := readRepomd(fsys, repomdPath, lim)
	if err != nil {
		return nil, err
	}
	root := path.Dir(dir)
	var primary, filelists *repomdData
	for i := range data {
		switch {
		case data[i].Type == "primary" && primary == nil:
			primary = &data[i]
		case data[i].Type == "filelists" && filelists == nil:
			filelists = &data[i]
		}
	}
	if primary == nil {
		return nil, fmt.Errorf("%s: no primary data", repomdPath)
	}
	if filelists == nil {
		return nil, fmt.Errorf("%s: no filelists data", repomdPath)
	}
	var pr primaryResult
	err = readData(fsys, root, repomdPath, primary, lim, func(r io.Reader) error {
		var err error
		pr, err = parsePrimary(r, lim)
		return err
	})
	if err != nil {
		return nil, err
	}
	err = readData(fsys, root, repomdPath, filelists, lim, func(r io.Reader) error {
		return parseFilelists(r, &pr, lim)
	})
	if err != nil {
		return nil, err
	}
	for i := range pr.rpms {
		slices.Sort(pr.rpms[i].Files)
		pr.rpms[i].Files = slices.Compact(pr.rpms[i].Files)
	}
	return pr.rpms, nil
}

// readRepomd reads the <data> entries of repomd.xml.
func readRepomd(fsys fs.FS, name string, lim limits) ([]repomdData, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var doc struct {
		XMLName xml.Name
		Data    []repomdData `xml:"data"`
	}
	dec := xml.NewDecoder(&capReader{r: f, max: lim.repomdBytes})
	if err := dec.Decode(&doc); err != nil {
		switch {
		case errors.Is(err, errTooLarge):
			return nil, fmt.Errorf("%s: larger than %d bytes", name, lim.repomdBytes)
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%s: not a repomd.xml: no XML element", name)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if doc.XMLName.Local != "repomd" {
		return nil, fmt.Errorf("%s: not a repomd.xml: the root element is <%s>", name, doc.XMLName.Local)
	}
	return doc.Data, nil
}

// readData opens the data file d names, hands its decompressed stream to parse, and checks
// the file's checksum. The whole file is hashed even when parse fails, and a mismatch wins
// over the parse error: a corrupt download is the cause, the XML error only its symptom.
func readData(fsys fs.FS, root, repomdPath string, d *repomdData, lim limits, parse func(io.Reader) error) error {
	name, err := dataPath(root, d)
	if err != nil {
		return fmt.Errorf("%s: %s data: %v", repomdPath, d.Type, err)
	}
	var h hash.Hash
	if d.Checksum.Value != "" {
		if h = newHash(d.Checksum.Type); h == nil {
			return fmt.Errorf("%s: %s data: unsupported checksum type %q", repomdPath, d.Type, d.Checksum.Type)
		}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	var raw io.Reader = f
	if h != nil {
		raw = io.TeeReader(f, h)
	}
	parseErr := decompressAndParse(raw, name, lim, parse)
	if h == nil {
		return parseErr
	}
	if _, err := io.Copy(io.Discard, raw); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	want := strings.ToLower(strings.TrimSpace(d.Checksum.Value))
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("%s: %s checksum mismatch: repomd.xml says %s, the file has %s", name, d.Checksum.Type, want, got)
	}
	return parseErr
}

// decompressAndParse picks the decompressor by file name and runs parse over the XML, reading
// the stream to its end so gzip verifies its own CRC.
func decompressAndParse(raw io.Reader, name string, lim limits, parse func(io.Reader) error) error {
	var xmlStream io.Reader
	switch ext := path.Ext(name); ext {
	case ".gz":
		gz, err := gzip.NewReader(raw)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err) // "gzip: invalid header"
		}
		defer gz.Close()
		xmlStream = gz
	case ".xml":
		xmlStream = raw
	case ".zst", ".zstd", ".xz", ".bz2", ".lzma":
		return fmt.Errorf("%s: unsupported compression %s (only gzip and plain XML are read)", name, ext)
	default:
		return fmt.Errorf("%s: unknown compression %q (only .xml.gz and .xml are read)", name, ext)
	}
	capped := &capReader{r: xmlStream, max: lim.xmlBytes}
	if err := parse(capped); err != nil {
		return describeReadError(name, err, lim)
	}
	if _, err := io.Copy(io.Discard, capped); err != nil {
		return describeReadError(name, err, lim)
	}
	return nil
}

// describeReadError names the file in an error and explains the errors of the readers under
// the parser (gzip, the size cap) in words.
func describeReadError(name string, err error, lim limits) error {
	switch {
	case errors.Is(err, errTooLarge):
		return fmt.Errorf("%s: decompresses to more than %d bytes (MaxRepodataXMLBytes)", name, lim.xmlBytes)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: truncated: %v", name, err)
	}
	return fmt.Errorf("%s: %v", name, err)
}

// dataPath resolves a data href against the repository root, refusing every href that would
// read outside it or from elsewhere.
func dataPath(root string, d *repomdData) (string, error) {
	href := d.Location.Href
	switch {
	case href == "":
		return "", errors.New("no location href")
	case d.Location.Base != "":
		return "", fmt.Errorf("location with xml:base %q: only local repositories are read", d.Location.Base)
	case strings.Contains(href, "://"):
		return "", fmt.Errorf("href %q is a URL: only local repositories are read", href)
	}
	clean := path.Clean(href)
	if !fs.ValidPath(clean) || clean == "." {
		return "", fmt.Errorf("href %q leaves the repository", href)
	}
	return path.Join(root, clean), nil
}

// newHash returns the hash repomd.xml names, or nil for an unknown one. "sha" is the old
// createrepo name of SHA-1.
func newHash(typ string) hash.Hash {
	switch strings.ToLower(typ) {
	case "sha", "sha1":
		return sha1.New()
	case "sha224":
		return sha256.New224()
	case "sha256":
		return sha256.New()
	case "sha384":
		return sha512.New384()
	case "sha512":
		return sha512.New()
	case "md5":
		return md5.New()
	}
	return nil
}
