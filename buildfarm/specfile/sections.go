package specfile

import (
	"errors"
	"strings"
)

// sectionParts maps the section keywords rpm knows (partList in build/parseSpec.cc) to the part
// their lines belong to. A section starts only at the very beginning of a line.
var sectionParts = map[string]part{
	"%package": partPreamble, "%prep": partPrep, "%conf": partConf, "%build": partBuild,
	"%install": partInstall, "%check": partCheck, "%description": partDescription,
	"%files": partFiles, "%sourcelist": partSourceList, "%patchlist": partPatchList,
	"%generate_buildrequires": partIgnored, "%clean": partIgnored, "%changelog": partIgnored,
	"%pre": partIgnored, "%post": partIgnored, "%preun": partIgnored, "%postun": partIgnored,
	"%pretrans": partIgnored, "%posttrans": partIgnored, "%preuntrans": partIgnored,
	"%postuntrans": partIgnored, "%triggerprein": partIgnored, "%triggerin": partIgnored,
	"%trigger": partIgnored, "%triggerun": partIgnored, "%triggerpostun": partIgnored,
	"%verifyscript": partIgnored, "%sepolicy": partIgnored, "%filetriggerin": partIgnored,
	"%filetrigger": partIgnored, "%filetriggerun": partIgnored, "%filetriggerpostun": partIgnored,
	"%transfiletriggerin": partIgnored, "%transfiletrigger": partIgnored,
	"%transfiletriggerun": partIgnored, "%transfiletriggerpostun": partIgnored, "%end": partIgnored,
}

// packageSections are the sections that belong to one package and may name it.
var packageSections = map[string]string{
	// keyword: getopt string of the options it takes
	"%description": "n:l:", "%files": "n:f:", "%pre": "n:p:eqf:", "%post": "n:p:eqf:",
	"%preun": "n:p:eqf:", "%postun": "n:p:eqf:", "%pretrans": "n:p:eqf:",
	"%posttrans": "n:p:eqf:", "%preuntrans": "n:p:eqf:", "%postuntrans": "n:p:eqf:",
	"%verifyscript": "n:p:eqf:", "%triggerprein": "n:p:eqf:", "%triggerin": "n:p:eqf:",
	"%trigger": "n:p:eqf:", "%triggerun": "n:p:eqf:", "%triggerpostun": "n:p:eqf:",
	"%filetriggerin": "n:p:eqf:P:", "%filetrigger": "n:p:eqf:P:",
	"%filetriggerun": "n:p:eqf:P:", "%filetriggerpostun": "n:p:eqf:P:",
	"%transfiletriggerin": "n:p:eqf:P:", "%transfiletrigger": "n:p:eqf:P:",
	"%transfiletriggerun": "n:p:eqf:P:", "%transfiletriggerpostun": "n:p:eqf:P:",
	"%sepolicy": "n:",
}

// isPart tells whether a line starts a section and returns its part and keyword.
func isPart(line string) (part, string) {
	if len(line) < 4 || line[0] != '%' {
		return partNone, ""
	}
	end := strings.IndexAny(line, " \t\n")
	if end < 0 {
		end = len(line)
	}
	kw := strings.ToLower(line[:end])
	if pt, ok := sectionParts[kw]; ok {
		return pt, kw
	}
	return partNone, ""
}

// line hands one expanded line to the current section.
func (p *parser) line(no int, text string) error {
	if pt, kw := isPart(text); pt != partNone {
		return p.startSection(no, text, pt, kw)
	}
	switch p.part {
	case partPreamble:
		return p.tag(no, text)
	case partDescription:
		if !p.descrLang {
			p.descr = append(p.descr, strings.TrimRight(text, " \t\r\v\f"))
		}
	case partFiles:
		if t := strings.TrimSpace(text); t != "" && t[0] != '#' {
			pkg := &p.spec.Packages[p.pkg]
			pkg.Files = append(pkg.Files, t)
			pkg.Entries = append(pkg.Entries, parseFileLine(t, &p.defattr, p.docDir, p.licenseDir)...)
		}
	case partPrep, partConf, partBuild, partInstall, partCheck:
		if t := strings.TrimSpace(text); t != "" && t[0] != '#' {
			*p.script = append(*p.script, Line{No: no, Text: strings.TrimRight(text, " \t")})
		}
	case partSourceList, partPatchList:
		if t := strings.TrimSpace(text); t != "" && t[0] != '#' {
			kind := "source"
			if p.part == partPatchList {
				kind = "patch"
			}
			return p.addSource(no, text, kind, "", t)
		}
	}
	return nil
}

// endSection closes the current section.
func (p *parser) endSection() {
	switch p.part {
	case partDescription:
		if !p.descrLang {
			p.spec.Packages[p.pkg].Description = strings.TrimRight(strings.Join(p.descr, "\n"), " \t\r\n")
		}
		p.described[p.pkg] = true // a translation alone satisfies rpm too
		p.descr, p.descrLang = nil, false
	case partFiles:
		if p.licensePush {
			p.e.undefine("license")
			p.licensePush = false
		}
	case partPrep, partConf, partBuild, partInstall, partCheck:
		// rpm applies "%build -a/-p" sections once the whole spec is read, wherever they stand.
		switch p.mode {
		case "-a":
			p.appends[p.part] = append(p.appends[p.part], p.pending...)
		case "-p":
			p.prepends[p.part] = append(p.prepends[p.part], p.pending...)
		}
		p.pending, p.mode = nil, ""
	}
}

func (p *parser) scriptOf(pt part) *[]Line {
	switch pt {
	case partPrep:
		return &p.spec.Prep
	case partConf:
		return &p.spec.Conf
	case partBuild:
		return &p.spec.Build
	case partInstall:
		return &p.spec.Install
	}
	return &p.spec.Check
}

// startSection opens the section that text (a line starting with keyword kw) begins.
func (p *parser) startSection(no int, text string, pt part, kw string) error {
	p.endSection()
	if !p.mainDone {
		if err := p.checkMain(); err != nil {
			return err
		}
	}
	args := strings.Fields(text)[1:]
	p.part = pt
	switch {
	case kw == "%package":
		return p.newPackage(no, text, args)
	case pt >= partPrep && pt <= partCheck:
		mode := ""
		for _, a := range args {
			if a != "-a" && a != "-p" || mode != "" {
				return errorf(no, "Bad %s option %s: %s", kw, a, text)
			}
			mode = a
		}
		if mode == "" {
			if p.seen[kw] {
				return errorf(no, "second %s", kw)
			}
			p.seen[kw] = true
			p.script = p.scriptOf(pt)
		} else {
			p.mode, p.pending = mode, nil
			p.script = &p.pending
		}
		return nil
	}
	opts, ok := packageSections[kw]
	if !ok {
		return nil // %changelog, %clean, %sourcelist, …: no package, no options we need
	}
	names, vals, bad := sectionArgs(args, opts)
	if bad != "" {
		return errorf(no, "Bad option %s: %s", bad, text)
	}
	if len(names) > 1 {
		return errorf(no, "Too many names: %s", text)
	}
	idx, name := 0, ""
	if n := vals.get('n'); len(n) > 0 {
		name = n[len(n)-1]
		idx = p.lookup(name)
	} else if len(names) == 1 {
		name = p.spec.Packages[0].Name + "-" + names[0]
		idx = p.lookup(name)
	}
	if idx < 0 {
		return errorf(no, "%s: package %s does not exist", text, name)
	}
	p.pkg = idx
	if kw != "%description" && kw != "%files" {
		return p.scriptlet(no, text, kw, idx, vals)
	}
	switch pt {
	case partDescription:
		if l := vals.get('l'); len(l) > 0 && l[len(l)-1] != "C" {
			p.descrLang = true
		}
	case partFiles:
		pkg := &p.spec.Packages[idx]
		pkg.HasFiles = true
		pkg.FileLists = append(pkg.FileLists, vals.get('f')...)
		// rpm unmasks %license (the License tag's macro) while it reads %files.
		p.e.push("license", &macro{body: "%license", literal: true})
		p.licensePush = true
		p.defattr = fileAttrs{}
		docDir, err1 := p.e.Expand("%{_docdir}")
		licenseDir, err2 := p.e.Expand("%{_licensedir}")
		if err := errors.Join(err1, err2); err != nil {
			return errorf(no, "%v", err)
		}
		p.docDir, p.licenseDir = docDir+"/"+pkg.Name, licenseDir+"/"+pkg.Name
	}
	return nil
}

// optVals are the options a section line gave, in order.
type optVals []struct {
	opt byte
	val string
}

// get returns the values given for option c.
func (o optVals) get(c byte) []string {
	var out []string
	for _, v := range o {
		if v.opt == c {
			out = append(out, v.val)
		}
	}
	return out
}

// sectionArgs splits a section's arguments by getopt string opts ("n:f:" takes -n X and -f Y),
// stopping at "--" (a trigger's condition follows). It returns the plain names, the option
// values, and the first option it does not know.
func sectionArgs(args []string, opts string) ([]string, optVals, string) {
	var names []string
	var vals optVals
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			names = append(names, a)
			continue
		}
		k := strings.IndexByte(opts, a[1])
		if k < 0 || a[1] == ':' {
			return nil, nil, a
		}
		v := ""
		if k+1 < len(opts) && opts[k+1] == ':' {
			if v = a[2:]; v == "" {
				if i+1 >= len(args) {
					return nil, nil, a
				}
				i++
				v = args[i]
			}
		}
		vals = append(vals, struct {
			opt byte
			val string
		}{a[1], v})
	}
	return names, vals, ""
}

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
