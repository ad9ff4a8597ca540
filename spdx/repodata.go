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
	"strings"
	"sync"
	"sync/atomic"
)

// ParseRepodata reads the RPM file lists of an rpm-md repository: dir is its repodata
// directory inside fsys (e.g. "repodata"), holding repomd.xml. The primary and filelists data
// it names are opened relative to the repository root, the parent of dir, as rpm-md hrefs are;
// an href that leaves the root ("../x", "/etc/x") or points elsewhere (xml:base) is refused.
// Each data file is checked against the checksum repomd.xml gives for it (a mismatch means a
// half-synced mirror, and its file lists would be wrong), then decompressed (.gz, or plain
// .xml; .zst, .xz and .bz2 are reported as unsupported) and streamed through a strict XML
// tokenizer (xmlScanner). The two files are read at once, on two goroutines, as each costs
// about as much as the other.
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
// is bounded by MaxRepodataPackages (the <package> entries of each file) and MaxRepodataFiles;
// decompressed input by MaxRepodataXMLBytes.
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
	return readBoth(fsys, root, repomdPath, primary, filelists, lim)
}

// readBoth reads primary and filelists at once, filelists on a goroutine of its own, and joins
// them. When one fails, the other stops at its next read and is closed before readBoth
// returns. Its error is reported, unless primary failed on its own before it was stopped:
// then primary's is, as when the two were read one after the other. The first 64 KiB of each
// are read whatever happens to the other, so a small repository with both files broken
// reports primary's error every time.
func readBoth(fsys fs.FS, root, repomdPath string, primary, filelists *repomdData, lim limits) ([]RPM, error) {
	var (
		stop     atomic.Bool
		wg       sync.WaitGroup
		fl       filelistsResult
		flErr    error
		panicked any
	)
	wg.Go(func() {
		defer func() {
			if p := recover(); p != nil {
				panicked = p
				stop.Store(true)
			}
		}()
		flErr = readData(fsys, root, repomdPath, filelists, lim, &stop, func(r io.Reader) error {
			var err error
			fl, err = parseFilelists(r, lim, &stop)
			return err
		})
		if flErr != nil {
			stop.Store(true)
		}
	})
	defer func() {
		// Neither a panic here nor one passed on from the goroutine leaves it reading.
		if p := recover(); p != nil {
			stop.Store(true)
			wg.Wait()
			panic(p)
		}
	}()
	var pr primaryResult
	prErr := readData(fsys, root, repomdPath, primary, lim, &stop, func(r io.Reader) error {
		var err error
		pr, err = parsePrimary(r, lim, &stop)
		return err
	})
	if prErr != nil {
		stop.Store(true)
	}
	wg.Wait()
	switch {
	case panicked != nil:
		panic(panicked) // in the caller's goroutine, where it would have happened before
	case prErr != nil && !errors.Is(prErr, errStopped):
		return nil, prErr
	case flErr != nil:
		return nil, flErr
	case prErr != nil:
		return nil, prErr
	}
	if err := pr.join(fl, lim); err != nil {
		name, _ := dataPath(root, filelists)
		return nil, fmt.Errorf("%s: %v", name, err)
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
// over the parse error: a corrupt download is the cause, the XML error only its symptom. When
// stop is set (the other file failed), reading ends: a parse error found by then is returned,
// otherwise errStopped.
func readData(fsys fs.FS, root, repomdPath string, d *repomdData, lim limits, stop *atomic.Bool, parse func(io.Reader) error) error {
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
	parseErr := decompressAndParse(raw, name, lim, stop, parse)
	if h == nil || errors.Is(parseErr, errStopped) {
		return parseErr
	}
	if _, err := io.Copy(io.Discard, stopReader{raw, stop}); err != nil {
		switch {
		case errors.Is(err, errStopped) && parseErr != nil:
			return parseErr
		case errors.Is(err, errStopped):
			return errStopped
		}
		return fmt.Errorf("%s: %v", name, err)
	}
	want := strings.ToLower(strings.TrimSpace(d.Checksum.Value))
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("%s: %s checksum mismatch: repomd.xml says %s, the file has %s", name, d.Checksum.Type, want, got)
	}
	return parseErr
}

// stopReader reads r until stop is set, then fails with errStopped.
type stopReader struct {
	r    io.Reader
	stop *atomic.Bool
}

func (s stopReader) Read(b []byte) (int, error) {
	if s.stop.Load() {
		return 0, errStopped
	}
	return s.r.Read(b)
}

// decompressAndParse picks the decompressor by file name and runs parse over the XML, reading
// the stream to its end so gzip verifies its own CRC.
func decompressAndParse(raw io.Reader, name string, lim limits, stop *atomic.Bool, parse func(io.Reader) error) error {
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
	if _, err := io.Copy(io.Discard, stopReader{capped, stop}); err != nil {
		return describeReadError(name, err, lim)
	}
	return nil
}

// describeReadError names the file in an error and explains the errors of the readers under
// the parser (gzip, the size cap) in words.
func describeReadError(name string, err error, lim limits) error {
	switch {
	case errors.Is(err, errStopped):
		return errStopped
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
