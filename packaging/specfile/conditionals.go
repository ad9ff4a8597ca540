package specfile

import "strings"

// condKinds are the conditional directives, longest first so "%ifarch" is not read as "%if".
var condKinds = [...]string{"%ifarch", "%ifnarch", "%ifnos", "%ifos", "%if", "%elifarch", "%elifos", "%elif", "%else", "%endif", "%include"}

// condType classifies a line as a conditional directive and returns the text after it.
func condType(text string) (string, string) {
	s := strings.TrimLeft(text, " \t")
	if len(s) < 3 || s[0] != '%' {
		return "", ""
	}
	for _, k := range condKinds {
		if !strings.HasPrefix(s, k) {
			continue
		}
		rest := s[len(k):]
		if k == "%else" || k == "%endif" {
			if rest == "" || !isNameByte(rest[0]) {
				return k, rest
			}
			continue
		}
		if rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' {
			return k, rest
		}
	}
	return "", ""
}

func (p *parser) reading() bool {
	return len(p.conds) == 0 || p.conds[len(p.conds)-1].reading
}

// conditional handles %if/%elif/%else/%endif as rpm's readLine does, and hands every other line
// that is read on to expansion.
func (p *parser) conditional(no int, text string) error {
	kind, rest := condType(text)
	reading := p.reading()
	if kind == "" && reading {
		return p.expandLine(no, text)
	}
	if p.part == partDescription && !p.descrLang {
		// rpm reads a directive, and a line it skips, as an empty line of the description.
		p.descr = append(p.descr, "")
	}
	if kind == "" {
		return nil
	}
	rest = strings.ReplaceAll(rest, "\\\n", "  ")
	n := len(p.conds)
	last := "%endif"
	if n > 0 {
		last = p.conds[n-1].last
	}
	switch kind {
	case "%else", "%endif":
		if r := strings.TrimSpace(rest); r != "" && r[0] != '#' {
			return errorf(no, "extra tokens at the end of %s directive: %s", kind, strings.TrimSpace(text))
		}
		if n == 0 {
			return errorf(no, "%s with no %%if", kind)
		}
		if kind == "%endif" {
			p.conds = p.conds[:n-1]
			return nil
		}
		if last == "%else" {
			return errorf(no, "%%else after %%else")
		}
		c := &p.conds[n-1]
		parent := n == 1 || p.conds[n-2].reading
		c.reading, c.readable, c.last = parent && c.readable, false, kind
		return nil
	case "%include":
		if reading {
			return errorf(no, "%%include is not supported by the build farm: %s", strings.TrimSpace(text))
		}
		return nil
	case "%elif", "%elifarch", "%elifos":
		if n == 0 {
			return errorf(no, "%s with no %%if", kind)
		}
		if last == "%else" {
			return errorf(no, "%s after %%else", kind)
		}
		c := &p.conds[n-1]
		c.last = kind
		if !c.readable {
			c.reading = false
			return nil
		}
		match, err := p.test(no, strings.TrimPrefix(kind, "%el"), rest)
		if err != nil {
			return err
		}
		c.reading = match
		c.readable = !match
		return nil
	}
	match := false
	if reading {
		var err error
		if match, err = p.test(no, strings.TrimPrefix(kind, "%"), rest); err != nil {
			return err
		}
	}
	p.conds = append(p.conds, cond{line: no, reading: reading && match, readable: reading && !match, last: kind})
	return nil
}

// test evaluates the condition of %if (kind "if"), %ifarch, %ifnarch, %ifos or %ifnos.
func (p *parser) test(no int, kind, rest string) (bool, error) {
	if kind == "if" {
		v, err := p.e.evalExpr(rest, 0)
		if err != nil {
			return false, errorf(no, "bad %%if condition: %s: %v", strings.TrimSpace(rest), err)
		}
		return v.bool(), nil
	}
	args, err := p.e.Expand(rest)
	if err != nil {
		return false, errorf(no, "%v", err)
	}
	toks := strings.Fields(args)
	if len(toks) == 0 {
		return false, errorf(no, "Argument expected for %%%s", kind)
	}
	want := "%{_target_cpu}"
	if strings.HasSuffix(kind, "os") {
		want = "%{_target_os}"
	}
	if want, err = p.e.Expand(want); err != nil {
		return false, errorf(no, "%v", err)
	}
	match := false
	for _, t := range toks {
		if strings.EqualFold(t, want) {
			match = true
			break
		}
	}
	if strings.HasPrefix(kind, "ifn") {
		match = !match
	}
	return match, nil
}
