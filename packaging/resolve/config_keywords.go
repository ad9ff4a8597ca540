package resolve

import (
	"slices"
	"strings"
)

// applyLine applies one keyword line (raw as written, expanded with its macros) onto c.
func (c *Config) applyLine(raw, expanded string, defs map[string]string) {
	fields := strings.Fields(expanded)
	if len(fields) == 0 {
		return
	}
	args := fields[1:]
	switch strings.ToLower(fields[0]) {
	case "preinstall:":
		applyList(&c.Preinstall, args)
	case "vminstall:":
		applyList(&c.VMinstall, args)
	case "required:":
		applyList(&c.Required, args)
	case "support:":
		applyList(&c.Support, args)
	case "keep:":
		applyList(&c.Keep, args)
	case "runscripts:":
		applyList(&c.Runscripts, args)
	case "ignorerebuild:":
		applyList(&c.IgnoreRebuild, args)
	case "prefer:":
		applyList(&c.Prefer, args)
	case "ignore:":
		applyList(&c.Ignore, args)
	case "substitute:":
		applyMap(c.Substitute, args, func(s string) string { return strings.TrimSuffix(s, "=") })
	case "exportfilter:":
		if len(args) > 0 {
			c.ExportFilter[args[0]] = slices.Clone(args[1:])
		}
	case "type:":
		c.Type = first(args)
	case "binarytype:":
		c.BinaryType = first(args)
	case "repotype:":
		c.Repotype = slices.Clone(args)
	case "release:":
		c.Release = first(args)
	case "distmacro:":
		if name, body := defineParts(strings.TrimSpace(expanded[len(fields[0]):])); name != "" {
			defs[name], c.Defines[name] = body, body
		}
	case "fromscratch:":
		// Handled where the texts are combined: it discards what came before.
	default:
		c.Other = append(c.Other, raw)
	}
}

// applyList applies the arguments of a list keyword: "!*" empties the list, "!name" removes
// name, anything else is appended.
func applyList(list *[]string, args []string) {
	for _, a := range args {
		switch {
		case a == "!*":
			*list = nil
		case strings.HasPrefix(a, "!"):
			*list = slices.DeleteFunc(*list, func(e string) bool { return e == a[1:] })
		default:
			*list = append(*list, a)
		}
	}
}

// applyMap applies a "key values…" keyword such as Substitute: "!*" empties the map, "!key"
// deletes key, otherwise key maps to the (cleaned) values, replacing what it had.
func applyMap(m map[string][]string, args []string, clean func(string) string) {
	if len(args) == 0 {
		return
	}
	switch key := args[0]; {
	case key == "!*":
		clear(m)
	case strings.HasPrefix(key, "!"):
		delete(m, key[1:])
	default:
		vals := make([]string, 0, len(args)-1)
		for _, v := range args[1:] {
			if v = clean(v); v != "" {
				vals = append(vals, v)
			}
		}
		m[key] = unique(vals)
	}
}

func first(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// unique drops repeated entries, keeping the first of each.
func unique(list []string) []string {
	if len(list) < 2 {
		return list
	}
	seen := make(map[string]bool, len(list))
	out := list[:0:0]
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// MacroMap returns the macros a spec file of this configuration sees, name (without "%") to
// value, for the specfile parser: the build service's built-in ones (%_project, %_repository,
// %_target_cpu when an architecture is set, the %ix86-style architecture lists), then the
// %define lines, then the Macros: blocks, later ones winning.
func (c Config) MacroMap() map[string]string {
	m := c.builtinMacros(c.arch)
	sources := c.chain()
	for i := len(sources) - 1; i >= 0; i-- {
		if r := sources[i].repository; r != "" {
			m["_repository"] = r
			break
		}
	}
	for k, v := range c.Defines {
		m[k] = v
	}
	name, body := "", ""
	flush := func() {
		if name != "" {
			m[name] = strings.TrimSpace(body)
		}
		name, body = "", ""
	}
	for _, line := range strings.Split(c.Macros, "\n") {
		line = strings.TrimRight(line, "\r")
		if name != "" && strings.HasSuffix(body, "\\") {
			body = strings.TrimSuffix(body, "\\") + "\n" + line
			continue
		}
		flush()
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "%") {
			continue
		}
		n := 1
		for n < len(t) && isNameByte(t[n]) {
			n++
		}
		if n == 1 {
			continue
		}
		rest := t[n:]
		if strings.HasPrefix(rest, "(") { // parametric: "%name(opts) body"
			if i := strings.IndexByte(rest, ')'); i >= 0 {
				rest = rest[i+1:]
			}
		}
		name, body = t[1:n], strings.TrimSpace(rest)
	}
	flush()
	return m
}

// Render returns the configuration as GET /build/<project>/<repository>/_buildconfig answers
// it: the texts of the path chain combined the way the build service combines them, base first,
// each under a "### from <project>" header that defines %_repository, headed by the %_project
// define, with the Macros: sections gathered at the end.
func (c Config) Render() string {
	var out, macros strings.Builder
	if c.Project != "" {
		out.WriteString("%define _project " + c.Project + "\n")
	}
	sources := c.chain()
	for _, s := range sources[lastFromScratch(sources):] {
		text := s.text
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		header := ""
		if s.project != "" {
			header = "\n### from " + s.project + "\n"
			if s.repository != "" {
				header += "%define _repository " + s.repository + "\n"
			}
		}
		if end := lastLineEnd(text, ":macros"); end >= 0 {
			// Closed Macros: sections stay where they are; gathered ones so far go first.
			if macros.Len() > 0 {
				out.WriteString("\nMacros:\n" + macros.String() + ":Macros\n\n")
				macros.Reset()
			}
			out.WriteString(header + text[:end])
			text, header = text[end:], ""
		}
		if start, end := lineBounds(text, "macros:"); start >= 0 {
			// An open Macros: section at the end of a text is gathered.
			macros.WriteString(header + text[end:])
			text = text[:start]
		}
		out.WriteString(header + text)
	}
	if macros.Len() > 0 {
		out.WriteString("\nMacros:\n" + macros.String())
	}
	return out.String()
}

// lineBounds finds the first line of text that is word (case-insensitive, ignoring spaces) and
// returns where it starts and where the next line starts, or -1, -1.
func lineBounds(text, word string) (start, end int) {
	for pos := 0; pos < len(text); {
		next := strings.IndexByte(text[pos:], '\n')
		if next < 0 {
			next = len(text)
		} else {
			next += pos + 1
		}
		if strings.EqualFold(strings.TrimSpace(text[pos:next]), word) {
			return pos, next
		}
		pos = next
	}
	return -1, -1
}

// lastLineEnd returns where the line after the last line that is word starts, or -1.
func lastLineEnd(text, word string) int {
	last := -1
	for pos := 0; pos < len(text); {
		_, end := lineBounds(text[pos:], word)
		if end < 0 {
			break
		}
		last, pos = pos+end, pos+end
	}
	return last
}
