package spdx

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// ParseDocument reads one product SBOM: SPDX 2.3 JSON as OBS's generate_sbom writes it, or
// SPDX 3.0 JSON-LD (an @context naming SPDX 3 and an @graph of elements). Which one is decided
// by content, not by file name, because both are published as *.spdx.json. source names the
// input in every error ("Leap.spdx.json: packages[12]: no name"), so an importer can log the
// error as it is.
//
// The product is the root package: SPDXRef-DOCUMENT-ROOT, else the first package that
// documentDescribes, a DESCRIBES relationship (SPDX 2) or the SpdxDocument's rootElement and
// describes relationships (SPDX 3) point at; its name is FullName, split by ParseProductName.
// Without a root the document's name is the product, so SBOMs of other producers still import.
// The root itself, the rpm-md "repository" pseudo-package (sourceInfo "acquired package info
// from repomd.xml") and packages whose purpose is operating system are not RPMs of the product
// and are left out; the rest keep document order. Per package: Name is the package name, Arch
// the purl's arch qualifier, Version the version without an "epoch:" prefix, Filename
// name-version.arch.rpm (for rpm purls with both parts known), the VCS fields come from the vcs
// reference (ParseVCS) and DistURL is the obs-disturl reference.
//
// The document is streamed: memory grows with the packages kept, not with the other arrays
// (files, relationships), and it stops with an error at MaxDocumentBytes or
// MaxDocumentPackages. A malformed or truncated document is an error, never a partial product.
func ParseDocument(r io.Reader, source string) (Product, error) {
	return parseDocument(r, source, defaultLimits)
}

// Kinds of the documents ParseDocument reads, by the top-level key that gives them away.
const (
	docSPDX2 = "SPDX 2"
	docSPDX3 = "SPDX 3"
)

// rootSPDXID is the SPDXID generate_sbom gives the product's own package.
const rootSPDXID = "SPDXRef-DOCUMENT-ROOT"

// docParser holds what one ParseDocument call has read so far. Keys of the top-level object
// may come in any order (sigs.k8s.io/bom writes SPDXID first, generate_sbom spdxVersion), so
// the root and the packages to skip are settled only after the whole document is read.
type docParser struct {
	source string
	lim    limits
	lx     *jsonLexer

	kind      string // docSPDX2 or docSPDX3, once a key told
	docName   string
	chunks    [][]entry // the packages read, in chunks so growing never copies them all
	count     int       // entries in chunks
	skipped   int       // entries with meta.skip
	sawRoot   bool      // a package has rootSPDXID, so DESCRIBES relationships cannot matter
	candidate []string  // ids of described elements, root candidates in order
}

// chunkSize is the largest number of entries per chunk of docParser.chunks; chunks start
// small and double up to it, so a small document allocates little.
const chunkSize = 4096

// entry is one package read, with what the parser needs to know of it beyond the Package.
type entry struct {
	pkg  Package
	meta packageMeta
}

// packageMeta is what the parser needs of a package beyond the Package itself.
type packageMeta struct {
	id   string // SPDXID or spdxId
	skip bool   // not an RPM of the product (repository pseudo-package, operating system)
}

// maxJSONDepth bounds nesting; SPDX needs 5 levels, the rest is room for extensions.
const maxJSONDepth = 512

func parseDocument(r io.Reader, source string, lim limits) (Product, error) {
	p := &docParser{source: source, lim: lim}
	p.lx = newJSONLexer(&capReader{r: r, max: lim.docBytes}, maxJSONDepth)
	if err := p.readDocument(); err != nil {
		return Product{}, err
	}
	return p.product()
}

// readDocument walks the top-level object, handing each key it knows to its reader and
// skipping the rest.
func (p *docParser) readDocument() error {
	l := p.lx
	c := l.peek()
	var trunc *truncatedError
	if errors.As(l.err, &trunc) { // nothing but white space
		return fmt.Errorf("%s: not an SPDX document: empty input", p.source)
	}
	if l.err == nil && c != '{' {
		return fmt.Errorf("%s: not an SPDX document: the top level is %s, not an object", p.source, valueKind(c))
	}
	for n := 0; l.nextMember(&n); {
		if err := p.readKey(); err != nil {
			return err
		}
	}
	if l.err != nil {
		return p.fail("", l.err)
	}
	if !l.atEOF() {
		return fmt.Errorf("%s: invalid JSON: data after the document at byte %d", p.source, l.off+int64(l.pos))
	}
	if l.err != nil {
		return p.fail("", l.err)
	}
	return nil
}

// readKey reads the value of the top-level member whose key is in p.lx.key.
func (p *docParser) readKey() error {
	l := p.lx
	switch key := string(l.key); key {
	case "spdxVersion":
		v := l.text(key)
		if l.err != nil {
			return p.fail("", l.err)
		}
		if !strings.HasPrefix(v, "SPDX-2.") {
			return fmt.Errorf("%s: not an SPDX document: spdxVersion %q is not SPDX-2.x", p.source, v)
		}
		return p.setKind(docSPDX2)
	case "name":
		p.docName = l.text(key)
	case "documentDescribes":
		return p.eachElement(key, func(int) error {
			p.addCandidates(l.text(key))
			return nil
		})
	case "packages":
		return p.eachElement(key, p.readPackage2)
	case "relationships":
		if p.sawRoot {
			l.skip()
			break
		}
		return p.eachElement(key, p.readRelationship2)
	case "@context":
		raw := l.raw()
		if l.err == nil && !strings.Contains(string(raw), "spdx.org/rdf/3") {
			return fmt.Errorf("%s: not an SPDX document: @context %.100s does not name SPDX 3", p.source, raw)
		}
		if l.err == nil {
			return p.setKind(docSPDX3)
		}
	case "@graph":
		return p.eachElement(key, p.readElement3)
	default:
		l.skip()
	}
	if l.err != nil {
		return p.fail("", l.err)
	}
	return nil
}

// setKind records the kind of the document and refuses one that claims to be both.
func (p *docParser) setKind(kind string) error {
	if p.kind != "" && p.kind != kind {
		return fmt.Errorf("%s: not an SPDX document: both %s and %s keys", p.source, p.kind, kind)
	}
	p.kind = kind
	return nil
}

// eachElement streams the array under key, calling read for each element with its index, so
// a large array is never held whole. null is an empty array.
func (p *docParser) eachElement(key string, read func(i int) error) error {
	l := p.lx
	switch c := l.peek(); {
	case c == 'n':
		l.literal("null")
	case c == '[':
		for n := 0; l.nextElem(&n); {
			if err := read(n - 1); err != nil {
				return err
			}
			if l.err != nil {
				return p.fail(fmt.Sprintf("%s[%d]", key, n-1), l.err)
			}
		}
	case l.err == nil:
		return fmt.Errorf("%s: %s: not an array but %s", p.source, key, valueKind(c))
	}
	if l.err != nil {
		return p.fail(key, l.err)
	}
	return nil
}

// addPackage keeps one package, refusing the one past the cap.
func (p *docParser) addPackage(key string, i int, pkg Package, meta packageMeta) error {
	if p.count >= p.lim.docPackages {
		return fmt.Errorf("%s: %s[%d]: more than %d packages (MaxDocumentPackages)", p.source, key, i, p.lim.docPackages)
	}
	if n := len(p.chunks); n == 0 || len(p.chunks[n-1]) == cap(p.chunks[n-1]) {
		p.chunks = append(p.chunks, make([]entry, 0, min(chunkSize, max(16, p.count))))
	}
	last := &p.chunks[len(p.chunks)-1]
	*last = append(*last, entry{pkg: pkg, meta: meta})
	p.count++
	if meta.skip {
		p.skipped++
	}
	return nil
}

// addCandidates records described element ids, up to a cap: only the first that names a
// package is used, and a document describing thousands of elements has no single root anyway.
func (p *docParser) addCandidates(ids ...string) {
	for _, id := range ids {
		if len(p.candidate) < p.lim.described && id != "" {
			p.candidate = append(p.candidate, id)
		}
	}
}

// product settles the root and builds the Product from what readDocument kept.
func (p *docParser) product() (Product, error) {
	if p.kind == "" {
		return Product{}, fmt.Errorf("%s: not an SPDX document: neither spdxVersion nor an SPDX 3 @context", p.source)
	}
	root := p.root()
	prod := Product{FullName: p.docName}
	if root != nil {
		prod.FullName = root.pkg.Name
		prod.DistURL = root.pkg.DistURL
	}
	if prod.FullName == "" {
		return Product{}, fmt.Errorf("%s: no root package and no document name: the product has no name", p.source)
	}
	prod.Name, prod.Version, prod.Arch, prod.BuildNumber = ParseProductName(prod.FullName)
	prod.Packages = make([]Package, 0, p.count-p.skipped)
	for _, chunk := range p.chunks {
		for i := range chunk {
			if e := &chunk[i]; e != root && !e.meta.skip {
				prod.Packages = append(prod.Packages, e.pkg)
			}
		}
	}
	return prod, nil
}

// root returns the root package, or nil: the package with the generate_sbom root id, else the
// first candidate (in the order the document named them) that is a package.
func (p *docParser) root() *entry {
	rank := make(map[string]int, len(p.candidate)+1)
	for i := len(p.candidate) - 1; i >= 0; i-- {
		rank[p.candidate[i]] = i + 1
	}
	if p.kind == docSPDX2 {
		rank[rootSPDXID] = 0
	}
	var best *entry
	bestRank := len(p.candidate) + 1
	for _, chunk := range p.chunks {
		for i := range chunk {
			if r, ok := rank[chunk[i].meta.id]; ok && r < bestRank {
				best, bestRank = &chunk[i], r
			}
		}
	}
	return best
}

// fail turns a lexer error into one that names the source and where in the document it
// happened, in words a person fixing the file can act on.
func (p *docParser) fail(where string, err error) error {
	prefix := p.source + ": "
	if where != "" {
		prefix += where + ": "
	}
	if errors.Is(err, errTooLarge) {
		return fmt.Errorf("%sthe document is larger than %d bytes (MaxDocumentBytes)", prefix, p.lim.docBytes)
	}
	var syntax *syntaxError
	var trunc *truncatedError
	var typ *typeError
	if errors.As(err, &syntax) || errors.As(err, &trunc) || errors.As(err, &typ) {
		return fmt.Errorf("%s%v", prefix, err)
	}
	return fmt.Errorf("%sreading: %w", prefix, err)
}

// errTooLarge is what capReader returns past its cap.
var errTooLarge = errors.New("input too large")

// capReader reads at most max bytes of r and fails with errTooLarge past them, so an endless
// or oversized input stops the parser instead of filling memory.
type capReader struct {
	r      io.Reader
	n, max int64
}

func (c *capReader) Read(b []byte) (int, error) {
	if c.n > c.max {
		return 0, errTooLarge
	}
	if room := c.max - c.n + 1; int64(len(b)) > room {
		b = b[:room]
	}
	n, err := c.r.Read(b)
	c.n += int64(n)
	if c.n > c.max {
		return n, errTooLarge
	}
	return n, err
}
