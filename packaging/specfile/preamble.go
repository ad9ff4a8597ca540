package specfile

import (
	"strconv"
	"strings"
)

// tagDef is one preamble tag rpm knows. kind 1 takes an optional "(lang)", kind 2 optional
// "(qualifiers)"; macro tags also define %{tag} (and %{TAG} in the main package); single tags
// take one token.
type tagDef struct {
	token  string
	kind   int
	macro  bool
	single bool
}

// preambleTags is rpm's preambleList in its order: a line's tag is the first entry its text
// starts with (case-insensitive), so longer tokens come before their prefixes.
var preambleTags = [...]tagDef{
	{"name", 0, true, true}, {"version", 0, true, true}, {"release", 0, true, true},
	{"epoch", 0, true, true}, {"summary", 1, true, false}, {"license", 0, true, false},
	{"sourcelicense", 0, true, false}, {"distribution", 0, true, false},
	{"disturl", 0, true, false}, {"vendor", 0, true, false}, {"group", 1, true, false},
	{"packager", 0, true, false}, {"url", 0, true, true}, {"vcs", 0, true, true},
	{"source", 0, false, false}, {"patch", 0, false, false}, {"nosource", 0, false, false},
	{"nopatch", 0, false, false}, {"excludearch", 0, false, false},
	{"exclusivearch", 0, false, false}, {"excludeos", 0, false, false},
	{"exclusiveos", 0, false, false}, {"icon", 0, false, true}, {"provides", 0, false, false},
	{"requires", 2, false, false}, {"recommends", 2, false, false},
	{"suggests", 2, false, false}, {"supplements", 2, false, false},
	{"enhances", 2, false, false}, {"prereq", 2, false, false}, {"conflicts", 0, false, false},
	{"obsoletes", 0, false, false}, {"prefixes", 0, true, false}, {"prefix", 0, true, false},
	{"buildroot", 0, false, false}, {"buildarchitectures", 0, false, false},
	{"buildarch", 0, false, false}, {"buildconflicts", 0, false, false},
	{"buildoption", 2, false, false}, {"buildprereq", 0, false, false},
	{"buildrequires", 0, false, false}, {"buildsystem", 0, true, true},
	{"autoreqprov", 0, false, false}, {"autoreq", 0, false, false},
	{"autoprov", 0, false, false}, {"docdir", 0, false, true}, {"disttag", 0, true, true},
	{"bugurl", 0, true, true}, {"translationurl", 0, true, false},
	{"upstreamreleases", 0, true, false}, {"orderwithrequires", 2, false, false},
	{"removepathpostfixes", 0, true, false}, {"modularitylabel", 0, true, true},
}

// qualifiedTags are the tags whose "(…)" qualifiers rpm checks, with the header tag name its
// error message uses.
var qualifiedTags = map[string]string{
	"requires": "Requirename", "recommends": "Recommendname", "suggests": "Suggestname",
	"supplements": "Supplementname", "enhances": "Enhancename", "orderwithrequires": "Ordername",
}

// scriptBits are the qualifiers rpm accepts in "Requires(…)".
var scriptBits = map[string]bool{
	"interp": true, "preun": true, "pre": true, "postun": true, "post": true, "rpmlib": true,
	"verify": true, "pretrans": true, "posttrans": true, "preuntrans": true,
	"postuntrans": true, "hint": true, "strong": true, "meta": true,
}

// findTag finds the tag a preamble line starts with: its definition, the text in "(…)" and, for
// Source/Patch, the number between the tag and the ':'.
func findTag(line string) (t *tagDef, qual, num string, ok bool) {
	s := strings.TrimLeft(line, " \t")
	for i := range preambleTags {
		d := &preambleTags[i]
		if len(s) < len(d.token) || !strings.EqualFold(s[:len(d.token)], d.token) {
			continue
		}
		rest := strings.TrimLeft(s[len(d.token):], " \t")
		switch {
		case d.token == "source" || d.token == "patch":
			k := strings.IndexByte(rest, ':')
			if k < 0 {
				return d, "", "", true // rpm: Malformed tag
			}
			return d, "", strings.TrimSpace(rest[:k]), true
		case d.kind != 0 && strings.HasPrefix(rest, "("):
			k := strings.IndexByte(rest, ')')
			if k < 0 {
				return nil, "", "", false
			}
			qual = strings.TrimSpace(rest[1:k])
			rest = strings.TrimLeft(rest[k+1:], " \t")
		}
		if !strings.HasPrefix(rest, ":") {
			return nil, "", "", false
		}
		return d, qual, "", true
	}
	return nil, "", "", false
}

// tag handles one line of a preamble.
func (p *parser) tag(no int, text string) error {
	t := strings.TrimSpace(text)
	if t == "" || t[0] == '#' {
		return nil
	}
	d, qual, num, ok := findTag(text)
	if !ok {
		return errorf(no, "Unknown tag: %s", text)
	}
	colon := strings.IndexByte(text, ':')
	if colon < 0 {
		return errorf(no, "Malformed tag: %s", text)
	}
	field := strings.TrimSpace(text[colon+1:])
	if field == "" {
		return errorf(no, "Empty tag: %s", text)
	}
	if d.single && strings.ContainsAny(field, " \t\n") {
		return errorf(no, "Tag takes single token only: %s", text)
	}
	if d.kind == 1 && qual != "" && qual != "C" {
		return nil // a translation: the farm keeps the C text only
	}
	if tagName, ok := qualifiedTags[d.token]; ok && qual != "" {
		for _, b := range strings.FieldsFunc(qual, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			if !scriptBits[b] {
				return errorf(no, "Bad %s: qualifiers: %s", tagName, text)
			}
		}
	}
	if err := p.setTag(no, text, d, num, field); err != nil {
		return err
	}
	if d.macro {
		p.e.define(d.token, field, nil)
		if p.pkg == 0 {
			p.e.define(strings.ToUpper(d.token), field, nil)
		}
	}
	return nil
}

// setTag stores one tag's value.
func (p *parser) setTag(no int, text string, d *tagDef, num, field string) error {
	pkg := &p.spec.Packages[p.pkg]
	switch d.token {
	case "name":
		if msg := charCheck(field, ".-_+%{}", "_%"); msg != "" {
			return errorf(no, "%s in: %s", msg, text)
		}
		pkg.Name = field
	case "version", "release":
		if msg := charCheck(field, "._+%{}~^", ""); msg != "" {
			return errorf(no, "%s in: %s", msg, text)
		}
		if d.token == "version" {
			pkg.Version = field
		} else {
			pkg.Release = field
		}
	case "epoch":
		n, err := strconv.ParseUint(field, 10, 32)
		if err != nil {
			return errorf(no, "Epoch field must be an unsigned number: %s", text)
		}
		pkg.Epoch = strconv.FormatUint(n, 10)
	case "summary":
		pkg.Summary = field
	case "license":
		pkg.License = field
	case "group":
		pkg.Group = field
	case "url":
		pkg.URL = field
	case "source", "patch":
		return p.addSource(no, text, d.token, num, field)
	case "docdir":
		if field[0] != '/' {
			return errorf(no, "Docdir must begin with '/': %s", text)
		}
		p.e.define("_docdir", field, nil)
	case "buildarch", "buildarchitectures":
		return p.buildArch(no, text, field)
	case "exclusivearch":
		if p.pkg == 0 {
			p.spec.ExclusiveArch = append(p.spec.ExclusiveArch, strings.Fields(field)...)
		}
	case "excludearch":
		if p.pkg == 0 {
			p.spec.ExcludeArch = append(p.spec.ExcludeArch, strings.Fields(field)...)
		}
	case "buildrequires", "buildprereq":
		return p.deps(no, text, field, true, &p.spec.BuildRequires)
	case "buildconflicts":
		return p.deps(no, text, field, true, &p.spec.BuildConflicts)
	case "requires", "prereq":
		return p.deps(no, text, field, true, &pkg.Requires)
	case "recommends":
		return p.deps(no, text, field, true, &pkg.Recommends)
	case "suggests":
		return p.deps(no, text, field, true, &pkg.Suggests)
	case "supplements":
		return p.deps(no, text, field, true, &pkg.Supplements)
	case "enhances":
		return p.deps(no, text, field, true, &pkg.Enhances)
	case "conflicts":
		return p.deps(no, text, field, true, &pkg.Conflicts)
	case "provides":
		return p.deps(no, text, field, false, &pkg.Provides)
	case "obsoletes":
		return p.obsoletes(no, text, field, &pkg.Obsoletes)
	case "orderwithrequires":
		var ignored []Dep
		return p.deps(no, text, field, false, &ignored)
	}
	return nil
}

// buildArch handles BuildArch: the main package's decides what the whole build is for, a
// subpackage may only be noarch.
func (p *parser) buildArch(no int, text, field string) error {
	if p.pkg != 0 {
		if field != "noarch" {
			return errorf(no, "Only noarch subpackages are supported: %s", text)
		}
		p.pkgNoarch[p.pkg] = true
		return nil
	}
	if p.spec.BuildArch != "" {
		return errorf(no, "Duplicate BuildArch entry: %s", text)
	}
	p.spec.BuildArch = strings.Join(strings.Fields(field), " ")
	return nil
}

// deps parses a dependency field into *dst; rich says whether "(a or b)" is allowed, as rpm
// allows it in Requires-like tags but not in Provides, Obsoletes or OrderWithRequires.
func (p *parser) deps(no int, text, field string, rich bool, dst *[]Dep) error {
	list, msg := parseDeps(field)
	if msg != "" {
		return errorf(no, "%s: %s", msg, text)
	}
	if !rich {
		for _, d := range list {
			if d.IsRich() {
				return errorf(no, "No rich dependencies allowed for this type: %s", text)
			}
		}
	}
	*dst = append(*dst, list...)
	return nil
}

// obsoletes parses Obsoletes, which name packages only.
func (p *parser) obsoletes(no int, text, field string, dst *[]Dep) error {
	var list []Dep
	if err := p.deps(no, text, field, false, &list); err != nil {
		return err
	}
	for _, d := range list {
		if msg := charCheck(d.Name, ".-_+%{}", "_%"); msg != "" {
			// rpm reports the character first, then "Only package names are allowed in Obsoletes".
			return errorf(no, "%s in: %s", msg, text)
		}
	}
	*dst = append(*dst, list...)
	return nil
}

// addSource records Source/Patch number num (automatic when "") and defines %{SOURCEn} or
// %{PATCHn} (the file's path in the build root's SOURCES) and %{SOURCEURLn}/%{PATCHURLn}.
func (p *parser) addSource(no int, text, kind, num, value string) error {
	n := p.srcNum[kind]
	if num != "" {
		v, err := strconv.ParseUint(num, 10, 31)
		if err != nil {
			return errorf(no, "Bad %s number: %s", kind, text)
		}
		n = int(v)
	}
	key := kind + strconv.Itoa(n)
	if p.srcSeen[key] {
		return errorf(no, "%s %d defined multiple times", kind, n)
	}
	p.srcSeen[key] = true
	if n+1 > p.srcNum[kind] {
		p.srcNum[kind] = n + 1
	}
	up := strings.ToUpper(kind)
	p.e.define(up+strconv.Itoa(n), "%{_sourcedir}/"+FileName(value), nil)
	p.e.define(up+"URL"+strconv.Itoa(n), value, nil)
	if kind == "source" {
		p.spec.Sources = append(p.spec.Sources, value)
		p.spec.SourceNumbers = append(p.spec.SourceNumbers, n)
	} else {
		p.spec.Patches = append(p.spec.Patches, value)
		p.spec.PatchNumbers = append(p.spec.PatchNumbers, n)
	}
	return nil
}
