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
