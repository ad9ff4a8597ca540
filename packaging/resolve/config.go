package resolve

import (
	"fmt"
	"slices"
	"strings"
)

// DefaultRelease is the release pattern a configuration without "Release:" gets, as in the
// build service: the source revision's counter, a dot, the build counter.
const DefaultRelease = "<CI_CNT>.<B_CNT>"

// Config is a project build configuration (the project's _config, "prjconf"), or the merge of
// the configurations along a repository's path chain. The exported fields are the values after
// the build service's rules: later lines override or extend earlier ones, "!name" removes an
// entry, "!*" empties a list, %if blocks are evaluated. A Config also keeps the text it came
// from, so Merge can combine texts the way the build service does and Render can show them.
type Config struct {
	// Project and Repository say whose configuration this is. ParseConfig leaves them empty;
	// the caller sets them so Render can write the "### from <project>" headers and the
	// configuration sees %_project and %_repository as in the build service.
	Project, Repository string

	Preinstall    []string // installed first, before anything else (rpm, bash, …)
	VMinstall     []string // installed into the build VM only
	Required      []string // installed for every build, and a build dependency of it
	Support       []string // installed for every build, but no reason to rebuild
	Keep          []string // subpackages a package may still install from older builds
	Runscripts    []string // preinstalls whose scripts run
	IgnoreRebuild []string // binaries whose changes trigger no rebuild
	// Prefer decides among several providers, in order: "name", "-name" (never choose name),
	// "context:name" and "-context:name" (only when the binary context needs it).
	Prefer []string
	// Ignore drops dependencies of installed binaries: "name" (whatever needs it), or
	// "context:name[,name]" (only for binary context).
	Ignore []string
	// Substitute replaces a dependency by others: "Substitute: a b c" maps a to [b c].
	Substitute map[string][]string
	// ExportFilter maps a binary file pattern to the architectures it is exported to.
	ExportFilter map[string][]string
	Type         string   // recipe type ("spec", "dsc", "kiwi", …); guessed from Preinstall
	BinaryType   string   // binary format ("rpm", "deb", …); follows from Type
	Repotype     []string // published repository formats ("rpm-md", …)
	Release      string   // release pattern; DefaultRelease when not given
	// Defines holds the %define and %global lines (and DistMacro:) of the configuration.
	Defines map[string]string
	// Macros is the verbatim text of the Macros: … :Macros blocks, for spec parsing; MacroMap
	// turns it into name → value.
	Macros string
	// Other keeps the lines with keywords this package does not interpret, verbatim and in
	// order: the build service accepts and ignores unknown keywords, and so does this.
	Other []string

	sources []configSource // base first, as the build service combines them
	arch    string         // the architecture the fields were evaluated for
}

// configSource is one project's configuration text in a chain.
type configSource struct {
	project, repository, text string
}

// ParseConfig reads a project configuration. Keywords are case-insensitive. It refuses only
// what the build service cannot read either: an %if without %endif (or %else/%endif without
// %if), an %if expression that does not parse, and FromScratch: after other keywords.
func ParseConfig(text string) (Config, error) {
	if err := checkConfig(text); err != nil {
		return Config{}, err
	}
	c := Config{sources: []configSource{{text: text}}}
	return c.evaluate(""), nil
}

// checkConfig reports the structural errors ParseConfig refuses, naming the line.
func checkConfig(text string) error {
	depth, inMacros, seenKeyword := 0, false, false
	defs := map[string]string{}
	for n, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		lower := strings.ToLower(t)
		if inMacros {
			inMacros = lower != ":macros"
			continue
		}
		word, rest := directive(t)
		switch word {
		case "%if", "%ifarch", "%ifnarch", "%ifos", "%ifnos":
			depth++
			if word == "%if" {
				if _, err := evalCondition(expandMacros(rest, defs)); err != nil {
					return fmt.Errorf("line %d: %w: %s", n+1, err, t)
				}
			}
			continue
		case "%elif", "%elifarch", "%elifnarch", "%else", "%endif":
			if depth == 0 {
				return fmt.Errorf("line %d: %s without %%if", n+1, word)
			}
			if word == "%endif" {
				depth--
			}
			continue
		case "%define", "%global":
			if name, body := defineParts(rest); name != "" {
				defs[name] = body
			}
			continue
		}
		switch {
		case t == "" || t[0] == '#' || t[0] == '%':
		case lower == "macros:":
			inMacros, seenKeyword = true, true
		case strings.HasPrefix(lower, "fromscratch:"):
			if seenKeyword {
				return fmt.Errorf("line %d: FromScratch directive must come first", n+1)
			}
		default:
			seenKeyword = true
		}
	}
	if depth > 0 {
		return fmt.Errorf("unclosed %%if at end of configuration")
	}
	return nil
}

// directive splits a "%word rest" line into its (lower-case) word and the rest.
func directive(t string) (word, rest string) {
	if !strings.HasPrefix(t, "%") {
		return "", ""
	}
	i := strings.IndexAny(t, " \t")
	if i < 0 {
		return strings.ToLower(t), ""
	}
	return strings.ToLower(t[:i]), strings.TrimSpace(t[i+1:])
}

// Merge combines the configurations of a repository's path chain as the build service does.
// chain is in path order, the same order as the layers given to Expand: chain[0] is the
// repository's own project, then each path element. The build service applies them the other
// way round, base first, so chain[0] comes last and overrides or extends all others. A
// FromScratch: at the top of a configuration discards everything applied before it.
func Merge(chain []Config) Config {
	m := Config{}
	if len(chain) > 0 {
		m.Project, m.Repository = chain[0].Project, chain[0].Repository
	}
	for i := len(chain) - 1; i >= 0; i-- {
		m.sources = append(m.sources, chain[i].chain()...)
	}
	return m.evaluate("")
}

// chain returns the texts of c, base first, labelled with their project and repository: a
// single parsed text takes the labels the caller set on c.
func (c Config) chain() []configSource {
	if len(c.sources) == 1 && c.sources[0].project == "" && c.sources[0].repository == "" {
		return []configSource{{c.Project, c.Repository, c.sources[0].text}}
	}
	return c.sources
}

// ForArch returns the configuration evaluated for an architecture: %ifarch blocks and
// %_target_cpu then see it, and %_project/%_repository the labels set on c. Expand does this
// itself.
func (c Config) ForArch(arch string) Config {
	return c.evaluate(arch)
}

// fromScratch reports whether a configuration text starts over: its first line that is neither
// blank nor a comment is "FromScratch:".
func fromScratch(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		return strings.HasPrefix(strings.ToLower(t), "fromscratch:")
	}
	return false
}

// lastFromScratch returns the index of the last text that starts over, or 0.
func lastFromScratch(sources []configSource) int {
	start := 0
	for i, s := range sources {
		if fromScratch(s.text) {
			start = i
		}
	}
	return start
}

// builtinMacros are the macros every configuration sees, as the build service defines them.
func (c Config) builtinMacros(arch string) map[string]string {
	defs := map[string]string{
		"_target_os": "linux",
		"ix86":       "i386 i486 i586 i686 athlon",
		"x86_64":     "x86_64 amd64",
		"arm":        "armv6l armv6hl armv7l armv7hl",
		"arm64":      "aarch64",
		"power64":    "ppc64 ppc64le",
	}
	if arch != "" {
		defs["_target_cpu"] = arch
	}
	if c.Project != "" {
		defs["_project"] = c.Project
	}
	return defs
}

// evaluate recomputes the exported fields from the sources for an architecture.
func (c Config) evaluate(arch string) Config {
	out := Config{Project: c.Project, Repository: c.Repository, sources: c.sources, arch: arch,
		Substitute: map[string][]string{}, ExportFilter: map[string][]string{}, Defines: map[string]string{}}
	sources := c.chain()
	defs := c.builtinMacros(arch)
	var macros strings.Builder
	for _, s := range sources[lastFromScratch(sources):] {
		if s.repository != "" {
			defs["_repository"] = s.repository
		}
		out.applyText(s.text, arch, defs, &macros)
	}
	out.Macros = macros.String()
	if out.Release == "" {
		out.Release = DefaultRelease
	}
	if out.Type == "" && slices.Contains(out.Preinstall, "rpm") {
		out.Type = "spec"
	}
	if out.BinaryType == "" && out.Type == "spec" {
		out.BinaryType = "rpm"
	}
	for _, l := range []*[]string{&out.Preinstall, &out.VMinstall, &out.Required, &out.Support, &out.Keep, &out.Runscripts, &out.IgnoreRebuild, &out.Repotype} {
		*l = unique(*l)
	}
	return out
}

// condFrame is one open %if: whether its enclosing block is active, and whether a branch of it
// has been taken already.
type condFrame struct{ parent, taken, active bool }

// applyText applies one configuration text onto c.
func (c *Config) applyText(text, arch string, defs map[string]string, macros *strings.Builder) {
	var stack []condFrame
	active := func() bool { return len(stack) == 0 || stack[len(stack)-1].active }
	inMacros := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		t := strings.TrimSpace(line)
		if inMacros {
			if strings.EqualFold(t, ":macros") {
				inMacros = false
			} else if active() {
				macros.WriteString(line + "\n")
			}
			continue
		}
		word, rest := directive(t)
		switch word {
		case "%if", "%ifarch", "%ifnarch", "%ifos", "%ifnos":
			parent := active()
			ok := parent && condition(word, expandMacros(rest, defs), arch)
			stack = append(stack, condFrame{parent: parent, taken: ok, active: ok})
			continue
		case "%elif", "%elifarch", "%elifnarch":
			if len(stack) > 0 {
				f := &stack[len(stack)-1]
				f.active = f.parent && !f.taken && condition(strings.Replace(word, "el", "", 1), expandMacros(rest, defs), arch)
				f.taken = f.taken || f.active
			}
			continue
		case "%else":
			if len(stack) > 0 {
				f := &stack[len(stack)-1]
				f.active = f.parent && !f.taken
				f.taken = true
			}
			continue
		case "%endif":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if !active() || t == "" || t[0] == '#' {
			continue
		}
		switch word {
		case "%define", "%global":
			if name, body := defineParts(rest); name != "" {
				if word == "%global" {
					body = expandMacros(body, defs)
				}
				defs[name], c.Defines[name] = body, body
			}
			continue
		case "%undefine":
			delete(defs, rest)
			delete(c.Defines, rest)
			continue
		}
		if t[0] == '%' {
			continue
		}
		if strings.EqualFold(t, "macros:") {
			inMacros = true
			continue
		}
		c.applyLine(t, expandMacros(t, defs), defs)
	}
}

// defineParts splits the rest of a %define line into the macro name and its body.
func defineParts(rest string) (name, body string) {
	i := strings.IndexAny(rest, " \t")
	if i < 0 {
		return "", ""
	}
	return rest[:i], strings.TrimSpace(rest[i+1:])
}

// condition evaluates one %if/%ifarch line; an expression that does not parse is false.
func condition(word, rest, arch string) bool {
	switch word {
	case "%ifarch":
		return slices.Contains(strings.Fields(rest), arch)
	case "%ifnarch":
		return !slices.Contains(strings.Fields(rest), arch)
	case "%ifos":
		return slices.Contains(strings.Fields(rest), "linux")
	case "%ifnos":
		return !slices.Contains(strings.Fields(rest), "linux")
	}
	ok, _ := evalCondition(rest)
	return ok
}
