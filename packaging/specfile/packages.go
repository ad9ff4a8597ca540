package specfile

import "strings"

// lookup returns the index of the package named name, or -1.
func (p *parser) lookup(name string) int {
	if i, ok := p.pkgIndex[name]; ok {
		return i
	}
	if name != "" && name == p.spec.Packages[0].Name {
		return 0
	}
	return -1
}

// newPackage starts the preamble of "%package [-n] name".
func (p *parser) newPackage(no int, text string, args []string) error {
	names, vals, bad := sectionArgs(args, "n:")
	full := vals.get('n')
	if bad != "" || len(names)+len(full) != 1 {
		return errorf(no, "Bad package specification: %s", text)
	}
	name := ""
	if len(full) == 1 {
		name = full[0]
		if msg := charCheck(name, ".-_+%{}", "_%"); msg != "" {
			return errorf(no, "%s in: %s", msg, text)
		}
	} else {
		if msg := charCheck(names[0], ".-_+%{}", ""); msg != "" {
			return errorf(no, "%s in: %s", msg, text)
		}
		name = p.spec.Packages[0].Name + "-" + names[0]
	}
	if p.lookup(name) >= 0 {
		return errorf(no, "%s: package %s already exists", text, name)
	}
	p.spec.Packages = append(p.spec.Packages, Package{Name: name})
	p.pkg = len(p.spec.Packages) - 1
	p.pkgIndex[name] = p.pkg
	return nil
}

// checkMain ends the main preamble: rpm needs Name, Version and Release before anything else.
func (p *parser) checkMain() error {
	p.mainDone = true
	main := &p.spec.Packages[0]
	for _, f := range [...]struct{ tag, v string }{{"Name", main.Name}, {"Version", main.Version}, {"Release", main.Release}} {
		if f.v == "" {
			return errorf(0, "%s field must be present in package: (main package)", f.tag)
		}
	}
	return nil
}

// finish ends the last section and fills in what rpm derives: inherited tags, arches, and the
// spec-wide fields of the main package.
func (p *parser) finish() error {
	p.endSection()
	if !p.mainDone {
		if err := p.checkMain(); err != nil {
			return err
		}
	}
	s := p.spec
	for pt := partPrep; pt <= partCheck; pt++ {
		if len(p.appends[pt])+len(p.prepends[pt]) > 0 {
			dst := p.scriptOf(pt)
			*dst = append(append(p.prepends[pt], *dst...), p.appends[pt]...)
		}
	}
	main := &s.Packages[0]
	if main.Group == "" {
		main.Group = "Unspecified"
	}
	for i := range s.Packages {
		pkg := &s.Packages[i]
		if i > 0 {
			inherit(&pkg.Epoch, main.Epoch)
			inherit(&pkg.Version, main.Version)
			inherit(&pkg.Release, main.Release)
			inherit(&pkg.License, main.License)
			inherit(&pkg.Group, main.Group)
			inherit(&pkg.URL, main.URL)
		}
		pkg.Arch, pkg.ISA = p.target, knownArchs[p.arch].isa
		if p.pkgNoarch[i] || p.target == "noarch" {
			pkg.Arch, pkg.ISA = "noarch", ""
		}
	}
	s.BuildError = buildError(s.Packages, p.described)
	s.Name, s.Epoch, s.Version, s.Release = main.Name, main.Epoch, main.Version, main.Release
	s.Summary, s.License, s.URL, s.Group = main.Summary, main.License, main.URL, main.Group
	return nil
}

// buildError is rpm's check when it finalises a spec: each package, in order, needs a Summary
// and a License (inherited from the main package) and a %description.
func buildError(pkgs []Package, described map[int]bool) string {
	for i, pkg := range pkgs {
		switch {
		case pkg.Summary == "":
			return "Summary field must be present in package: " + pkg.Name
		case pkg.License == "":
			return "License field must be present in package: " + pkg.Name
		case !described[i]:
			return "Package has no %description: " + pkg.Name
		}
	}
	return ""
}

func inherit(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// scriptlet checks a scriptlet's interpreter (-p) and, as rpm does, makes the package require it
// ("/bin/sh" unless -p names another; none for "<lua>"). The body is not kept.
func (p *parser) scriptlet(no int, text, kw string, idx int, vals optVals) error {
	prog := "/bin/sh"
	if v := vals.get('p'); len(v) > 0 {
		prog = v[len(v)-1]
	}
	if kw == "%sepolicy" {
		return nil
	}
	if !strings.Contains(kw, "trigger") {
		key := kw + " " + p.spec.Packages[idx].Name
		if p.seen[key] {
			return errorf(no, "Second %s", kw)
		}
		p.seen[key] = true
	}
	switch {
	case prog == "<lua>":
		return nil
	case prog[0] == '<' && prog[len(prog)-1] != '>':
		return errorf(no, "internal script must end with '>': %s", prog)
	case prog[0] == '<':
		return errorf(no, "unsupported internal script: %s", prog)
	case prog[0] != '/':
		return errorf(no, "script program must begin with '/': %s", prog)
	}
	pkg := &p.spec.Packages[idx]
	for _, d := range pkg.Requires {
		if d.Name == prog && d.Op == "" {
			return nil
		}
	}
	pkg.Requires = append(pkg.Requires, Dep{Name: prog})
	return nil
}
