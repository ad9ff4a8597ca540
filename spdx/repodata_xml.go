package spdx

import (
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"sync/atomic"
)

// The two rpm-md documents ParseRepodata reads, each parsed on its own (the two run at once)
// with xmlScanner, and joined by pkgid once both are read.

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

// primaryResult is what parsePrimary reads: the packages and the index of each pkgid, the key
// filelists.xml joins on.
type primaryResult struct {
	rpms []RPM
	byID map[string][]int // pkgid → indexes into rpms (a pkgid may repeat in odd repos)
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
// read past. It gives up with errStopped when stop is set.
func parsePrimary(r io.Reader, lim limits, stop *atomic.Bool) (primaryResult, error) {
	x := newXMLScanner(r, lim, stop)
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

// filelistsResult is what parseFilelists reads: the packages of filelists.xml in their order
// and all their files, one after the other.
type filelistsResult struct {
	pkgs  []filelistsPackage
	files []string
}

// filelistsPackage is one <package> of filelists.xml; its files are files[start:end].
type filelistsPackage struct {
	pkgid, name string
	line        int // where the <package> starts, for errors
	start, end  int
}

// parseFilelists reads filelists.xml: per <package>, its pkgid and the paths of its files
// that are not directories. It needs nothing from primary.xml, so the two are read at once;
// join attaches the files. Memory is bounded as for primary.xml: at most lim.rpms packages and
// lim.files files. It gives up with errStopped when stop is set.
func parseFilelists(r io.Reader, lim limits, stop *atomic.Bool) (filelistsResult, error) {
	x := newXMLScanner(r, lim, stop)
	var res filelistsResult
	fail := func(err error) (filelistsResult, error) { return filelistsResult{}, err }
	if err := x.root("filelists"); err != nil {
		return fail(err)
	}
	inPackage, inFile := false, false
	var text []byte // the current <file>'s path
	for {
		if err := x.next(); err != nil {
			return fail(unexpectedEOF(err))
		}
		switch x.kind {
		case xmlStart:
			switch {
			case x.depth == 2 && string(x.local) == "package":
				if len(res.pkgs) >= lim.rpms {
					return fail(fmt.Errorf("more than %d packages (MaxRepodataPackages)", lim.rpms))
				}
				res.pkgs = append(res.pkgs, filelistsPackage{pkgid: string(x.attr("pkgid")), name: string(x.attr("name")),
					line: x.currentLine(), start: len(res.files), end: len(res.files)})
				inPackage = true
			case x.depth == 3 && inPackage && string(x.local) == "file" && string(x.attr("type")) != "dir":
				text, inFile = text[:0], true
			}
		case xmlText:
			if inFile {
				text = append(text, x.text...)
			}
		case xmlEnd:
			switch {
			case x.depth == 0:
				return res, nil
			case x.depth == 1:
				inPackage = false
			case x.depth == 2 && inFile:
				if len(res.files) >= lim.files {
					return fail(fmt.Errorf("more than %d files (MaxRepodataFiles)", lim.files))
				}
				res.files = append(res.files, string(text))
				res.pkgs[len(res.pkgs)-1].end = len(res.files)
				inFile = false
			}
		}
	}
}

// join attaches the files of each filelists package to the primary packages with its pkgid,
// then sorts each package's files and drops duplicates. A pkgid primary does not know means
// the two files are from different runs of createrepo, and is an error. MaxRepodataFiles
// counts a file once per package it is attached to, as the memory it takes grows so.
func (pr *primaryResult) join(fl filelistsResult, lim limits) error {
	attached := 0
	for _, p := range fl.pkgs {
		targets := pr.byID[p.pkgid]
		if targets == nil {
			return fmt.Errorf("line %d: package %s: pkgid %q is not in primary.xml", p.line, p.name, p.pkgid)
		}
		files := fl.files[p.start:p.end:p.end]
		if attached += len(files) * len(targets); attached > lim.files {
			return fmt.Errorf("more than %d files (MaxRepodataFiles)", lim.files)
		}
		for k, i := range targets {
			switch rpm := &pr.rpms[i]; {
			case len(files) == 0:
			case k == 0 && rpm.Files == nil:
				// The first package with this pkgid takes the files where they are: its
				// slice is capped at their end, so nothing else writes there.
				rpm.Files = files
			default:
				rpm.Files = append(rpm.Files, files...)
			}
		}
	}
	for i := range pr.rpms {
		slices.Sort(pr.rpms[i].Files)
		pr.rpms[i].Files = slices.Compact(pr.rpms[i].Files)
	}
	return nil
}
