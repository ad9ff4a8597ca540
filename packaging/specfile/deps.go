package specfile

import (
	"fmt"
	"strings"
)

// String renders d as rpm prints a dependency: "name" or "name op version".
func (d Dep) String() string {
	if d.Op == "" {
		return d.Name
	}
	return d.Name + " " + d.Op + " " + d.Version
}

// IsRich reports whether d is a rich (boolean) dependency such as "(foo or bar)". ParseDeps keeps
// a rich dependency whole, normalised, as one Dep whose Name is the parenthesised expression and
// whose Op is empty; a resolver that does not evaluate them can still show them verbatim.
func (d Dep) IsRich() bool { return strings.HasPrefix(d.Name, "(") }

// ParseDeps parses a dependency list in the syntax of rpm's Requires/Provides/BuildRequires
// lines: entries separated by whitespace and/or commas, each a name optionally followed by an
// operator (<, <=, =, ==, >=, >, and rpm's =< and =>) and a version, all separated by
// whitespace — "a, b >= 1.2 c = 2:3-4". "==" reads as "=", "=<" as "<=", "=>" as ">=". As in rpm,
// an operator must stand apart: "b>=1.2" is one name. The checks are rpm's: a name begins with
// an ASCII letter or digit, '_' or '/' (or any non-ASCII byte); a file name takes no version; a
// version holds only letters, digits and "._+%{}~^-:", at most one '-' and one ':', and a
// numeric epoch. A rich dependency "(a or b)" is kept as one Dep (see IsRich) after a check of
// its shape; whether a tag allows it is Parse's business.
func ParseDeps(s string) ([]Dep, error) {
	deps, msg := parseDeps(s)
	if msg != "" {
		return nil, fmt.Errorf("%s: %s", msg, strings.TrimSpace(s))
	}
	return deps, nil
}

// depOps maps rpm's operator spellings to the Dep.Op spelling.
var depOps = map[string]string{
	"<": "<", "<=": "<=", "=<": "<=", "=": "=", "==": "=", ">=": ">=", "=>": ">=", ">": ">",
}

// isDepSpace is rpm's SKIPWHITE class for dependency lists: whitespace or a comma.
func isDepSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ','
}

// parseDeps does ParseDeps' work and returns rpm's message (without the line) on error.
func parseDeps(s string) ([]Dep, string) {
	var deps []Dep
	next := func(i int) (tok string, end int) {
		for i < len(s) && isDepSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isDepSpace(s[j]) {
			j++
		}
		return s[i:j], j
	}
	for i := 0; ; {
		for i < len(s) && isDepSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return deps, ""
		}
		if s[i] == '(' {
			name, end, msg := parseRich(s, i)
			if msg != "" {
				return nil, msg
			}
			deps = append(deps, Dep{Name: name})
			i = end
			continue
		}
		name, end := next(i)
		d := Dep{Name: name}
		i = end
		if tok, opEnd := next(i); tok != "" {
			if op, ok := depOps[tok]; ok {
				evr, evrEnd := next(opEnd)
				if evr == "" {
					return nil, "Version required"
				}
				d.Op, d.Version, i = op, evr, evrEnd
			}
		}
		if msg := checkDep(d); msg != "" {
			return nil, msg
		}
		deps = append(deps, d)
	}
}

// checkDep applies rpm's checkDep to one simple dependency.
func checkDep(d Dep) string {
	c := d.Name[0]
	if c < 0x80 && !isAlnum(c) && c != '_' && c != '/' {
		return "Dependency tokens must begin with alpha-numeric, '_' or '/'"
	}
	if d.Op == "" {
		return ""
	}
	if c == '/' {
		return "Versioned file name not permitted"
	}
	if msg := charCheck(d.Version, "._+%{}~^-:", ""); msg != "" {
		return msg
	}
	if strings.Count(d.Version, "-") > 1 {
		return fmt.Sprintf("Invalid version (double separator '-'): %s", d.Version)
	}
	if strings.Count(d.Version, ":") > 1 {
		return fmt.Sprintf("Invalid version (double separator ':'): %s", d.Version)
	}
	if k := strings.IndexByte(d.Version, ':'); k >= 0 {
		for i := 0; i < k; i++ {
			if !isDigit(d.Version[i]) {
				return fmt.Sprintf("Invalid version (epoch must be unsigned integer): %s", d.Version)
			}
		}
	}
	return ""
}

// charCheck is rpm's rpmCharCheck: every byte must be an ASCII letter or digit or one of allowed
// (the first byte, when first is not "", a letter, digit or one of first), and ".." may not
// occur. Like rpm it names the last offending byte.
func charCheck(field, allowed, first string) string {
	msg := ""
	for i := 0; i < len(field); i++ {
		c := field[i]
		ok := isAlnum(c)
		if i == 0 && first != "" {
			ok = ok || strings.IndexByte(first, c) >= 0
		} else {
			ok = ok || strings.IndexByte(allowed, c) >= 0
		}
		if !ok {
			shown := c
			if c < 0x20 || c >= 0x7f {
				shown = '?'
			}
			msg = fmt.Sprintf("Illegal char '%c' (0x%x)", shown, c)
		}
	}
	if msg == "" && strings.Contains(field, "..") {
		msg = `Illegal sequence ".."`
	}
	return msg
}

// richOps are the operators rpm's rich dependencies know.
var richOps = map[string]bool{
	"and": true, "or": true, "if": true, "else": true, "with": true, "without": true, "unless": true,
}

// parseRich reads the rich dependency that opens at s[i] == '(' and returns it normalised
// ("(a >= 1 or (b and c))"), the index after its closing parenthesis, or rpm's message.
func parseRich(s string, i int) (string, int, string) {
	var b strings.Builder
	end, msg := richGroup(s, i, &b, 0)
	return b.String(), end, msg
}

// richGroup parses "( term (op term)* )" from s[i] as rpm's rpmrichParseInternal does and
// writes its normalised form to b: ops may only be chained when they are the same and, then,
// and/or/with; "else" may follow "if" or "unless".
func richGroup(s string, i int, b *strings.Builder, depth int) (int, string) {
	if depth > 32 {
		return 0, "Rich dependency nested too deeply"
	}
	b.WriteByte('(')
	i++
	chain := ""
	for {
		i = skipRichSpace(s, i)
		if i < len(s) && s[i] == ')' {
			if chain != "" {
				return 0, "Missing argument to rich dependency op"
			}
			return 0, "Empty rich dependency"
		}
		if i < len(s) && s[i] == '(' {
			var err string
			if i, err = richGroup(s, i, b, depth+1); err != "" {
				return 0, err
			}
		} else {
			name, j := richWord(s, i)
			if name == "" {
				return 0, "Unterminated rich dependency: " + strings.TrimSpace(s)
			}
			d := Dep{Name: name}
			i = j
			if tok, k := richWord(s, skipRichSpace(s, i)); depOps[tok] != "" {
				evr, l := richWord(s, skipRichSpace(s, k))
				if evr == "" {
					return 0, "Version required"
				}
				d.Op, d.Version, i = depOps[tok], evr, l
			}
			if msg := checkDep(d); msg != "" {
				return 0, msg
			}
			// rpm takes "a(()" as a name; the farm refuses it, as its text would read back
			// differently once normalised.
			if strings.Count(d.Name, "(") != strings.Count(d.Name, ")") {
				return 0, "Unbalanced parenthesis in rich dependency: " + d.String()
			}
			b.WriteString(d.String())
		}
		i = skipRichSpace(s, i)
		if i >= len(s) {
			return 0, "Unterminated rich dependency: " + strings.TrimSpace(s)
		}
		if s[i] == ')' {
			b.WriteByte(')')
			return i + 1, ""
		}
		j := i
		for j < len(s) && !isDepSpace(s[j]) && s[j] != '(' && s[j] != ')' {
			j++
		}
		op := s[i:j]
		if !richOps[op] {
			return 0, fmt.Sprintf("Unknown rich dependency op '%s'", op)
		}
		if op == "else" && (chain == "if" || chain == "unless") {
			chain = ""
		}
		if chain != "" && op != chain {
			return 0, "Cannot chain different ops"
		}
		if chain != "" && op != "and" && op != "or" && op != "with" {
			return 0, "Can only chain and/or/with ops"
		}
		chain = op
		b.WriteString(" " + op + " ")
		i = j
	}
}

func skipRichSpace(s string, i int) int {
	for i < len(s) && isDepSpace(s[i]) {
		i++
	}
	return i
}

// richWord reads a word inside a rich dependency as rpm's SKIPNONWHITEX: up to whitespace, a
// comma, or a ')' that closes no '(' of the word itself, so "pkgconfig(zlib)" is one word.
func richWord(s string, i int) (string, int) {
	j, bl := i, 0
	for ; j < len(s) && !isDepSpace(s[j]); j++ {
		if s[j] == ')' {
			if bl <= 0 {
				break
			}
			bl--
		} else if s[j] == '(' {
			bl++
		}
	}
	return s[i:j], j
}

// Overlap reports whether two dependencies of the same name can be satisfied together, as rpm's
// rpmdsCompare decides whether a capability (e.g. a Provides, or a package's own
// "name = epoch:version-release") meets a requirement: different names never overlap; a side
// without a version always overlaps; otherwise the version ranges must intersect, where a missing
// epoch is 0 unless the other side has a positive one, and a side without a release matches any
// release when the relation includes "=".
func Overlap(a, b Dep) bool {
	if a.Name != b.Name {
		return false
	}
	af, bf := senseOf(a.Op), senseOf(b.Op)
	if af == 0 || bf == 0 || a.Version == "" || b.Version == "" {
		return true
	}
	x, y := ParseEVR(a.Version), ParseEVR(b.Version)
	sense := 0
	switch {
	case x.Epoch != "" && y.Epoch != "":
		sense = Vercmp(x.Epoch, y.Epoch)
	case x.Epoch != "" && epochPositive(x.Epoch):
		sense = 1
	case y.Epoch != "" && epochPositive(y.Epoch):
		sense = -1
	}
	if sense == 0 {
		sense = Vercmp(x.Version, y.Version)
		if sense == 0 {
			if x.Release != "" && y.Release != "" {
				sense = Vercmp(x.Release, y.Release)
			} else if x.Release != "" && bf&senseEQ != 0 || y.Release != "" && af&senseEQ != 0 {
				return true
			}
		}
	}
	switch {
	case sense < 0:
		return af&senseGT != 0 || bf&senseLT != 0
	case sense > 0:
		return af&senseLT != 0 || bf&senseGT != 0
	}
	return af&bf&(senseEQ|senseLT|senseGT) != 0
}

const (
	senseLT = 1 << iota
	senseGT
	senseEQ
)

func senseOf(op string) int {
	switch op {
	case "<":
		return senseLT
	case "<=":
		return senseLT | senseEQ
	case "=":
		return senseEQ
	case ">=":
		return senseGT | senseEQ
	case ">":
		return senseGT
	}
	return 0
}

// epochPositive is atol(e) > 0 for an epoch of digits.
func epochPositive(e string) bool { return strings.TrimLeft(e, "0") != "" }
