package spdx

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
)

// xmlReader streams the tokens of a primary or filelists document with bounds encoding/xml
// does not have: it buffers a whole text node or tag, so one endless token would fill memory,
// and it keeps a stack of open elements. xmlReader fails past lim.xmlToken bytes in one token
// and lim.xmlDepth open elements. encoding/xml expands no external entities and, as the
// decoder is strict, refuses undefined ones, so a DOCTYPE cannot smuggle content in.
type xmlReader struct {
	dec   *xml.Decoder
	guard *tokenGuard
	depth int
	lim   limits
}

// errTokenTooLarge is what tokenGuard returns inside an oversized token.
var errTokenTooLarge = errors.New("token too large")

// tokenGuard counts the bytes encoding/xml reads since the last token ended. The decoder
// reads through io.ByteReader when it has one, so the count is exact.
type tokenGuard struct {
	r    *bufio.Reader
	n    int64 // bytes read
	mark int64 // n when the last token ended
	max  int64
}

func (g *tokenGuard) ReadByte() (byte, error) {
	if g.n-g.mark > g.max {
		return 0, errTokenTooLarge
	}
	c, err := g.r.ReadByte()
	if err == nil {
		g.n++
	}
	return c, err
}

func (g *tokenGuard) Read(b []byte) (int, error) {
	if g.n-g.mark > g.max {
		return 0, errTokenTooLarge
	}
	b = b[:min(int64(len(b)), g.max+1-(g.n-g.mark))]
	n, err := g.r.Read(b)
	g.n += int64(n)
	return n, err
}

func newXMLReader(r io.Reader, lim limits) *xmlReader {
	g := &tokenGuard{r: bufio.NewReaderSize(r, 64<<10), max: lim.xmlToken}
	return &xmlReader{dec: xml.NewDecoder(g), guard: g, lim: lim}
}

// next returns the next token, tracking the depth. At the end of the document it returns
// io.EOF.
func (x *xmlReader) next() (xml.Token, error) {
	tok, err := x.dec.Token()
	x.guard.mark = x.guard.n
	if err != nil {
		if errors.Is(err, errTokenTooLarge) {
			return nil, fmt.Errorf("line %d: a token longer than %d bytes", x.line(), x.lim.xmlToken)
		}
		return nil, err
	}
	switch tok.(type) {
	case xml.StartElement:
		x.depth++
		if x.depth > x.lim.xmlDepth {
			return nil, fmt.Errorf("line %d: elements nested deeper than %d", x.line(), x.lim.xmlDepth)
		}
	case xml.EndElement:
		x.depth--
	}
	return tok, nil
}

// line is the current input line, for error messages.
func (x *xmlReader) line() int {
	line, _ := x.dec.InputPos()
	return line
}

// root reads up to the document's root element and checks its name.
func (x *xmlReader) root(want string) error {
	for {
		tok, err := x.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("no <%s> element", want)
			}
			return err
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local != want {
				return fmt.Errorf("not a %s document: the root element is <%s>", want, se.Name.Local)
			}
			return nil
		}
	}
}

// attr returns the attribute of se with the local name, or "".
func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// unexpectedEOF turns the end of input inside the document into an error.
func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return errors.New("unexpected end of input inside the document (truncated?)")
	}
	return err
}

// primaryResult is what parsePrimary hands to parseFilelists: the packages and the index of
// each pkgid, the key filelists.xml joins on.
type primaryResult struct {
	rpms  []RPM
	byID  map[string][]int // pkgid → indexes into rpms (a pkgid may repeat in odd repos)
	files int              // file entries attached so far, for the cap
}

// primaryPackage collects the fields of one <package> of primary.xml.
type primaryPackage struct {
	rpm   RPM
	pkgid string
	href  string
	line  int     // where the <package> starts, for errors
	text  *string // the field the current character data belongs to
}

// parsePrimary reads primary.xml: per <package>, name, arch, version (ver-rel, no epoch), the
// pkgid checksum and location href. Everything else (descriptions, provides, requires) is
// read past.
func parsePrimary(r io.Reader, lim limits) (primaryResult, error) {
	x := newXMLReader(r, lim)
	res := primaryResult{byID: map[string][]int{}}
	fail := func(err error) (primaryResult, error) { return primaryResult{}, err }
	if err := x.root("metadata"); err != nil {
		return fail(err)
	}
	var cur *primaryPackage
	for {
		tok, err := x.next()
		if err != nil {
			return fail(unexpectedEOF(err))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case x.depth == 2 && t.Name.Local == "package":
				if len(res.rpms) >= lim.rpms {
					return fail(fmt.Errorf("more than %d packages (MaxRepodataPackages)", lim.rpms))
				}
				cur = &primaryPackage{line: x.line()}
			case x.depth == 3 && cur != nil:
				cur.start(t)
			}
		case xml.CharData:
			if cur != nil && cur.text != nil {
				*cur.text += string(t)
			}
		case xml.EndElement:
			switch {
			case x.depth == 0:
				return res, nil
			case x.depth == 1 && cur != nil:
				if err := res.add(cur); err != nil {
					return fail(err)
				}
				cur = nil
			case x.depth == 2 && cur != nil:
				cur.text = nil
			}
		}
	}
}

// start handles a child element of <package>.
func (p *primaryPackage) start(se xml.StartElement) {
	switch se.Name.Local {
	case "name":
		p.text = &p.rpm.Name
	case "arch":
		p.text = &p.rpm.Arch
	case "version":
		p.rpm.Version = attr(se, "ver")
		if rel := attr(se, "rel"); rel != "" {
			p.rpm.Version += "-" + rel
		}
	case "checksum":
		if p.pkgid == "" {
			p.text = &p.pkgid
		}
	case "location":
		p.href = attr(se, "href")
	}
}

// add checks a finished package and appends it.
func (res *primaryResult) add(p *primaryPackage) error {
	switch {
	case p.rpm.Name == "":
		return fmt.Errorf("line %d: package without a name", p.line)
	case p.pkgid == "":
		return fmt.Errorf("line %d: package %s without a checksum (pkgid)", p.line, p.rpm.Name)
	case p.href == "":
		return fmt.Errorf("line %d: package %s without a location href", p.line, p.rpm.Name)
	}
	p.rpm.Filename = path.Base(p.href)
	res.byID[p.pkgid] = append(res.byID[p.pkgid], len(res.rpms))
	res.rpms = append(res.rpms, p.rpm)
	return nil
}

// parseFilelists reads filelists.xml and attaches each package's files to the primary
// packages with the same pkgid. A pkgid primary does not know means the two files are from
// different runs of createrepo, and is an error.
func parseFilelists(r io.Reader, pr *primaryResult, lim limits) error {
	x := newXMLReader(r, lim)
	fail := func(err error) error { return err }
	if err := x.root("filelists"); err != nil {
		return fail(err)
	}
	var targets []int // the rpms the current package's files go to
	var file *string  // the current <file>'s text, nil for a directory
	var text string
	for {
		tok, err := x.next()
		if err != nil {
			return fail(unexpectedEOF(err))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case x.depth == 2 && t.Name.Local == "package":
				pkgid := attr(t, "pkgid")
				targets = pr.byID[pkgid]
				if targets == nil {
					return fail(fmt.Errorf("line %d: package %s: pkgid %q is not in primary.xml", x.line(), attr(t, "name"), pkgid))
				}
			case x.depth == 3 && targets != nil && t.Name.Local == "file" && attr(t, "type") != "dir":
				text = ""
				file = &text
			}
		case xml.CharData:
			if file != nil {
				*file += string(t)
			}
		case xml.EndElement:
			switch {
			case x.depth == 0:
				return nil
			case x.depth == 1:
				targets = nil
			case x.depth == 2 && file != nil:
				if pr.files += len(targets); pr.files > lim.files {
					return fail(fmt.Errorf("more than %d files (MaxRepodataFiles)", lim.files))
				}
				for _, i := range targets {
					pr.rpms[i].Files = append(pr.rpms[i].Files, text)
				}
				file = nil
			}
		}
	}
}
