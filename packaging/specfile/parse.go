package specfile

import (
	"bytes"
	"errors"
	"strings"
)

// part is the kind of spec section a line belongs to.
type part int

const (
	partNone part = iota
	partPreamble
	partPrep
	partConf
	partBuild
	partInstall
	partCheck
	partDescription
	partFiles
	partSourceList
	partPatchList
	partIgnored // %changelog, %clean, scriptlets, triggers, …: read, expanded, not kept
)

// cond is one open %if: reading says whether its current branch is read, readable whether a
// later %elif/%else branch may still be taken (rpm's ReadLevelEntry).
type cond struct {
	line              int
	reading, readable bool
	last              string
}

// parser is the state of one pass over a spec.
type parser struct {
	e      *expander
	spec   *Spec
	arch   string // the repository's arch (Options.Arch)
	target string // %{_target_cpu}: the arch, or the BuildArch parsed for
	data   []byte
	pos    int // next byte of data to read
	lineNo int // number of the last physical line read

	conds []cond

	part      part
	pkg       int     // package the current preamble, %description or %files belongs to
	script    *[]Line // current build script
	pending   []Line  // lines of a %build -a / -p section
	appends   map[part][]Line
	prepends  map[part][]Line
	mode      string          // "-a", "-p" or "" for the current build script
	descr     []string        // lines of the current %description
	descrLang bool            // current %description is for another language: dropped
	mainDone  bool            // the main preamble has ended and passed its checks
	seen      map[string]bool // sections met, for "second %build" and "Second %post"

	mainArch    string          // the main preamble's BuildArch (first token)
	pkgNoarch   map[int]bool    // packages with "BuildArch: noarch" in their own preamble
	pkgIndex    map[string]int  // subpackages by name
	described   map[int]bool    // packages with a %description
	srcNum      map[string]int  // next automatic number, by "source"/"patch"
	srcSeen     map[string]bool // "source3", "patch1": numbers already used
	licensePush bool            // %license is masked as a literal while in %files
	defattr     fileAttrs       // the current %files section's %defattr
	docDir      string          // where its relative %doc files land
	licenseDir  string          // where its relative %license files land
}

// Parse parses a spec file for one architecture. Errors are *Error values worded like
// rpmbuild's. A spec whose main preamble says "BuildArch: noarch" (or another arch) is read a
// second time with %{_target_cpu} set to it, as rpmbuild does, so %ifarch sees "noarch" there.
// Parse is safe for concurrent use.
func Parse(data []byte, opt Options) (*Spec, error) {
	arch := opt.Arch
	if arch == "" {
		arch = DefaultArch
	}
	s, p, err := parseOnce(data, opt, arch, arch)
	if err != nil {
		return nil, err
	}
	if t := buildTarget(p.mainArchList(), arch); t != "" && t != arch {
		if s, _, err = parseOnce(data, opt, arch, t); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// buildTarget picks the arch a BuildArch list builds for: the repository's arch when listed,
// else noarch when listed, else the first; "" when the list is empty.
func buildTarget(list []string, arch string) string {
	if len(list) == 0 {
		return ""
	}
	for _, a := range list {
		if a == arch {
			return arch
		}
	}
	for _, a := range list {
		if a == "noarch" {
			return a
		}
	}
	return list[0]
}

func (p *parser) mainArchList() []string { return strings.Fields(p.spec.BuildArch) }

func parseOnce(data []byte, opt Options, arch, target string) (*Spec, *parser, error) {
	p := &parser{
		e:         newExpander(len(data)),
		spec:      &Spec{Packages: make([]Package, 1, 1+bytes.Count(data, []byte("%package")))},
		arch:      arch,
		target:    target,
		data:      data,
		part:      partPreamble,
		seen:      map[string]bool{},
		appends:   map[part][]Line{},
		prepends:  map[part][]Line{},
		pkgNoarch: map[int]bool{},
		pkgIndex:  map[string]int{},
		described: map[int]bool{},
		srcNum:    map[string]int{},
		srcSeen:   map[string]bool{},
	}
	p.e.loadDefaults(arch, opt.Macros)
	p.e.define("_target_cpu", target, nil)
	if err := p.run(); err != nil {
		return nil, nil, err
	}
	return p.spec, p, nil
}

// run reads every logical line, follows the conditionals and hands the lines read on.
func (p *parser) run() error {
	for {
		no, text, ok, err := p.logicalLine()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if err := p.conditional(no, text); err != nil {
			return err
		}
	}
	if n := len(p.conds); n > 0 {
		return errorf(p.conds[n-1].line, "Unclosed %%if")
	}
	return p.finish()
}

// logicalLine reads the next logical line: physical lines joined (with "\n") while one ends in
// a backslash or leaves a %{, %( or %[ open, as rpm joins them before expanding.
func (p *parser) logicalLine() (int, string, bool, error) {
	if p.pos >= len(p.data) {
		return 0, "", false, nil
	}
	start := p.lineNo + 1
	var b strings.Builder
	var open openCount
	for first := true; p.pos < len(p.data); first = false {
		end := bytes.IndexByte(p.data[p.pos:], '\n')
		if end < 0 {
			end = len(p.data)
		} else {
			end += p.pos
		}
		line := p.data[p.pos:end]
		p.pos = end + 1
		p.lineNo++
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		done := open.scan(line)
		if first && done {
			return start, string(line), true, nil // the common case: one physical line
		}
		if !first {
			b.WriteByte('\n')
		}
		b.Write(line)
		if done {
			return start, b.String(), true, nil
		}
	}
	return 0, "", false, errorf(start, "unclosed macro or bad line continuation")
}

// openCount counts the %{, %( and %[ a logical line leaves open, as rpm's
// copyNextLineFromOFI does.
type openCount struct{ bc, pc, xc int }

// scan counts one physical line and reports whether the logical line ends with it: nothing is
// left open and it does not end in a backslash.
func (o *openCount) scan(line []byte) bool {
	if bytes.IndexByte(line, '%') < 0 && bytes.IndexByte(line, '\\') < 0 && o.bc == 0 && o.pc == 0 && o.xc == 0 {
		return true
	}
	nc := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			if i+1 == len(line) {
				nc = true
			} else {
				i++
			}
		case '%':
			if i+1 < len(line) {
				switch line[i+1] {
				case '{':
					o.bc++
					i++
				case '(':
					o.pc++
					i++
				case '[':
					o.xc++
					i++
				case '%':
					i++
				}
			}
		case '{':
			if o.bc > 0 {
				o.bc++
			}
		case '}':
			if o.bc > 0 {
				o.bc--
			}
		case '(':
			if o.pc > 0 {
				o.pc++
			}
		case ')':
			if o.pc > 0 {
				o.pc--
			}
		case '[':
			if o.xc > 0 {
				o.xc++
			}
		case ']':
			if o.xc > 0 {
				o.xc--
			}
		}
	}
	return !nc && o.bc == 0 && o.pc == 0 && o.xc == 0
}

// expandLine expands a line that is read and hands each resulting line to the current section.
// A macro may expand to several lines; in a build script a line ending in a backslash stays
// joined with the next.
func (p *parser) expandLine(no int, text string) error {
	out, err := p.e.Expand(text)
	if err != nil {
		var pe *Error
		if errors.As(err, &pe) {
			return pe
		}
		return errorf(no, "%v", err)
	}
	for {
		k := strings.IndexByte(out, '\n')
		if p.isScript() {
			for k >= 0 && k > 0 && out[k-1] == '\\' {
				n := strings.IndexByte(out[k+1:], '\n')
				if n < 0 {
					k = -1
					break
				}
				k += n + 1
			}
		}
		if k < 0 {
			return p.line(no, out)
		}
		if err := p.line(no, out[:k]); err != nil {
			return err
		}
		out = out[k+1:]
	}
}

func (p *parser) isScript() bool {
	return p.part >= partPrep && p.part <= partCheck
}
