package specfile

import (
	"path"
	"strings"
)

// FileEntry is one path a %files line puts into its package, with the directives that apply.
type FileEntry struct {
	Path    string `json:"path"`
	Dir     bool   `json:"dir,omitempty"`     // %dir: the directory alone, not its contents
	Doc     bool   `json:"doc,omitempty"`     // %doc (a relative source lands in the doc dir)
	License bool   `json:"license,omitempty"` // %license (likewise, in the license dir)
	Config  bool   `json:"config,omitempty"`  // %config or %config(noreplace|missingok)
	Ghost   bool   `json:"ghost,omitempty"`   // %ghost: owned but not shipped
	Exclude bool   `json:"exclude,omitempty"` // %exclude: left out of the package
	// Mode, User and Group come from %attr, or else the section's %defattr; "" is rpm's default
	// ("-" in the spec).
	Mode  string `json:"mode,omitempty"`
	User  string `json:"user,omitempty"`
	Group string `json:"group,omitempty"`
	// Source is, for a relative %doc or %license file, the path in the build directory it is
	// copied from; Path is then where it lands.
	Source string `json:"source,omitempty"`
}

// Glob reports whether the path has wildcards, which rpm expands against the build root.
func (f FileEntry) Glob() bool { return strings.ContainsAny(f.Path, "*?[") }

// fileAttrs is the %defattr in force in a %files section.
type fileAttrs struct{ mode, user, group string }

// fileTokens splits a %files line at blanks, keeping "%attr(0644, root, root)" and "a b"
// (quoted, quotes dropped) one token each.
func fileTokens(line string) []string {
	var toks []string
	var b strings.Builder
	depth, quoted, inTok := 0, false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"':
			quoted, inTok = !quoted, true
			continue
		case c == '(' && !quoted:
			depth++
		case c == ')' && !quoted && depth > 0:
			depth--
		case (c == ' ' || c == '\t') && depth == 0 && !quoted:
			if inTok {
				toks = append(toks, b.String())
				b.Reset()
				inTok = false
			}
			continue
		}
		b.WriteByte(c)
		inTok = true
	}
	if inTok {
		toks = append(toks, b.String())
	}
	return toks
}

// attrArgs reads "(a, b, c)" after a directive into its comma-separated parts, "-" as "".
func attrArgs(tok, directive string) []string {
	inner := strings.TrimSuffix(strings.TrimPrefix(tok[len(directive):], "("), ")")
	parts := strings.Split(inner, ",")
	for i, p := range parts {
		if p = strings.TrimSpace(p); p == "-" {
			p = ""
		}
		parts[i] = p
	}
	return parts
}

// parseFileLine reads one %files line into entries; a %defattr line changes def instead.
// docDir and licenseDir are where relative %doc and %license files land.
func parseFileLine(line string, def *fileAttrs, docDir, licenseDir string) []FileEntry {
	cur := FileEntry{Mode: def.mode, User: def.user, Group: def.group}
	var paths []string
	for _, tok := range fileTokens(line) {
		switch {
		case strings.HasPrefix(tok, "%defattr"):
			a := attrArgs(tok, "%defattr")
			for len(a) < 3 {
				a = append(a, "")
			}
			*def = fileAttrs{a[0], a[1], a[2]}
			return nil
		case strings.HasPrefix(tok, "%attr"):
			a := attrArgs(tok, "%attr")
			for len(a) < 3 {
				a = append(a, "")
			}
			if a[0] != "" {
				cur.Mode = a[0]
			}
			if a[1] != "" {
				cur.User = a[1]
			}
			if a[2] != "" {
				cur.Group = a[2]
			}
		case tok == "%dir":
			cur.Dir = true
		case tok == "%doc" || tok == "%readme":
			cur.Doc = true
		case tok == "%license":
			cur.License = true
		case strings.HasPrefix(tok, "%config"):
			cur.Config = true
		case tok == "%ghost":
			cur.Ghost = true
		case tok == "%exclude":
			cur.Exclude = true
		case strings.HasPrefix(tok, "%"):
			// %verify(…), %lang(…), %caps(…), %docdir, %missingok, %artifact: no effect here.
		default:
			paths = append(paths, tok)
		}
	}
	var out []FileEntry
	for _, p := range paths {
		e := cur
		e.Path = p
		if !strings.HasPrefix(p, "/") && (e.Doc || e.License) {
			dir := docDir
			if e.License {
				dir = licenseDir
			}
			e.Source, e.Path = p, dir+"/"+path.Base(p)
		}
		out = append(out, e)
	}
	return out
}
