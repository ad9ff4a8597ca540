package spdx

import (
	"errors"
	"fmt"
	"io"
	"path"
)

// The two rpm-md documents ParseRepodata reads, parsed with xmlScanner.

// root reads up to the document's root element and checks its name.
func (s *xmlScanner) root(want string) error {
	for {
		if err := s.next(); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("no <%s> element", want)
			}
			return err
		}
		if s.kind == xmlStart {
			if string(s.local) != want {
				return fmt.Errorf("not a %s document: the root element is <%s>", want, s.local)
			}
			return nil
		}
	}
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
	x := newXMLScanner(r, lim)
	res := primaryResult{byID: map[string][]int{}}
	fail := func(err error) (primaryResult, error) { return primaryResult{}, err }
	if err := x.root("metadata"); err != nil {
		return fail(err)
	}
	var pkg primaryPackage
	var cur *primaryPackage // &pkg inside a <package>
	for {
		if err := x.next(); err != nil {
			return fail(unexpectedEOF(err))
		}
		switch x.kind {
		case xmlStart:
			switch {
			case x.depth == 2 && string(x.local) == "package":
				if len(res.rpms) >= lim.rpms {
					return fail(fmt.Errorf("more than %d packages (MaxRepodataPackages)", lim.rpms))
				}
				pkg = primaryPackage{line: x.currentLine()}
				cur = &pkg
			case x.depth == 3 && cur != nil:
				cur.start(x)
			}
		case xmlText:
			if cur != nil && cur.text != nil {
				*cur.text += string(x.text)
			}
		case xmlEnd:
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
func (p *primaryPackage) start(x *xmlScanner) {
	switch string(x.local) {
	case "name":
		p.text = &p.rpm.Name
	case "arch":
		p.text = &p.rpm.Arch
	case "version":
		p.rpm.Version = string(x.attr("ver"))
		if rel := x.attr("rel"); len(rel) > 0 {
			p.rpm.Version += "-" + string(rel)
		}
	case "checksum":
		if p.pkgid == "" {
			p.text = &p.pkgid
		}
	case "location":
		p.href = string(x.attr("href"))
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
	x := newXMLScanner(r, lim)
	if err := x.root("filelists"); err != nil {
		return err
	}
	var targets []int // the rpms the current package's files go to
	inFile := false
	var text []byte // the current <file>'s path
	for {
		if err := x.next(); err != nil {
			return unexpectedEOF(err)
		}
		switch x.kind {
		case xmlStart:
			switch {
			case x.depth == 2 && string(x.local) == "package":
				pkgid := x.attr("pkgid")
				targets = pr.byID[string(pkgid)]
				if targets == nil {
					return fmt.Errorf("line %d: package %s: pkgid %q is not in primary.xml", x.currentLine(), x.attr("name"), pkgid)
				}
			case x.depth == 3 && targets != nil && string(x.local) == "file" && string(x.attr("type")) != "dir":
				text, inFile = text[:0], true
			}
		case xmlText:
			if inFile {
				text = append(text, x.text...)
			}
		case xmlEnd:
			switch {
			case x.depth == 0:
				return nil
			case x.depth == 1:
				targets = nil
			case x.depth == 2 && inFile:
				if pr.files += len(targets); pr.files > lim.files {
					return fmt.Errorf("more than %d files (MaxRepodataFiles)", lim.files)
				}
				file := string(text)
				for _, i := range targets {
					pr.rpms[i].Files = append(pr.rpms[i].Files, file)
				}
				inFile = false
			}
		}
	}
}
