package product

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The bounds Parse keeps: a definition is written by a user and read by the farm on every
// scheduling pass, so neither its size nor its shape may cost more than a spec file's.
const (
	MaxSize          = 256 << 10 // bytes in the file
	MaxDepth         = 8         // nesting of mappings and lists (a package entry is at 4)
	MaxPackages      = 10000     // package entries over all package sets
	MaxPackageSets   = 256       // package set entries
	MaxArchitectures = 16        // in architectures and in one package set's architectures
	MaxRepositories  = 32        // in repositories
	MaxNameLen       = 200       // bytes in a name: OBS's limit for project and package names
	MaxTextLen       = 1000      // bytes in vendor and summary
)

// knownArches are the architectures a product may be built for, as OBS, rpm and
// product-composer spell them; the explorer's product-name parser knows the same names.
var knownArches = map[string]bool{
	"x86_64": true, "x86_64_v2": true, "x86_64_v3": true, "x86_64_v4": true,
	"i386": true, "i486": true, "i586": true, "i686": true,
	"aarch64": true, "aarch64_ilp32": true,
	"armv5tel": true, "armv6l": true, "armv6hl": true, "armv7l": true, "armv7hl": true,
	"ppc": true, "ppc64": true, "ppc64le": true, "ppc64p7": true,
	"s390": true, "s390x": true,
	"riscv64": true, "loongarch64": true, "ia64": true, "sparc64": true, "m68k": true,
}

// KnownArch tells whether arch is an architecture a product may be built for. noarch is not
// one: noarch packages go onto every architecture's medium.
func KnownArch(arch string) bool { return knownArches[arch] }

// Error is a problem with a product definition: where it is and what it is.
type Error struct {
	Line  int    `json:"line,omitempty"`  // 1-based line in the file; 0 for the whole file
	Where string `json:"where,omitempty"` // the element, as "packagesets[1].packages[3]"
	Msg   string `json:"msg"`
}

// Error is "line 7: packagesets[0].packages[2]: …", leaving out what is unknown.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Where != "" {
		b.WriteString(e.Where + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func errorf(line int, where, format string, args ...any) *Error {
	return &Error{Line: line, Where: where, Msg: fmt.Sprintf(format, args...)}
}

// quote shows a user's value in a message: Go-quoted, so control characters and invalid UTF-8
// show as escapes, and cut to 60 bytes, so a hostile value cannot flood a build log.
func quote(s string) string {
	if len(s) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q…", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}

// isWord is Ruby's \w, which OBS's name rules use: an ASCII letter, digit or "_".
func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// char names a byte of a rejected name: the character, or its value when it is not ASCII.
func char(c byte) string {
	if c < utf8.RuneSelf {
		return quote(string(rune(c)))
	}
	return fmt.Sprintf("the byte 0x%02x", c)
}

func isAlnum(c byte) bool { return isWord(c) && c != '_' }

// CheckProject checks a project name by OBS's rule (Project.valid_name?): 1 to MaxNameLen of
// letters, digits, "_", "-", "+", "." and ":", not "0", not starting with ":", "." or "_", not
// ending with ":", and no ":" followed by ":", "." or "_".
func CheckProject(name string) error {
	if err := checkLen(name); err != nil {
		return err
	}
	if name == "0" || strings.ContainsAny(name[:1], ":._") || strings.HasSuffix(name, ":") {
		return fmt.Errorf("%s is not a valid project name", quote(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isWord(c) && !strings.ContainsRune("-+.:", rune(c)) {
			return fmt.Errorf("%s is not a valid project name: %s is not allowed", quote(name), char(c))
		}
		if c == ':' && i+1 < len(name) && strings.ContainsRune(":._", rune(name[i+1])) {
			return fmt.Errorf("%s is not a valid project name", quote(name))
		}
	}
	return nil
}

// CheckRepository checks a repository name. OBS allows any character but "/", ":" and control
// characters, and no leading "_"; the farm also uses the name in paths and URLs, so it takes
// the package-name charset: a letter or digit, then letters, digits, "_", "-", "+" and ".".
func CheckRepository(name string) error { return checkName("repository", name) }

// CheckPackage checks a binary package name: a letter or digit, then letters, digits, "_",
// "-", "+" and "." (libstdc++6, perl-Mail-SPF_XS), at most MaxNameLen bytes. These are the
// names rpm and OBS give binary packages; the farm puts them in file names and URLs.
func CheckPackage(name string) error { return checkName("package", name) }

func checkName(kind, name string) error {
	if err := checkLen(name); err != nil {
		return err
	}
	if !isAlnum(name[0]) {
		return fmt.Errorf("%s is not a valid %s name: it must start with a letter or digit", quote(name), kind)
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !isWord(c) && c != '-' && c != '+' && c != '.' {
			return fmt.Errorf("%s is not a valid %s name: %s is not allowed", quote(name), kind, char(c))
		}
	}
	return nil
}

func checkLen(name string) error {
	if name == "" {
		return fmt.Errorf("the name is empty")
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("%s is longer than %d bytes", quote(name), MaxNameLen)
	}
	return nil
}

// CheckName checks a product name: parts of letters, digits, "_", "+" and "." joined by single
// "-" (openSUSE-Addon-NonOss), at most 100 bytes, so the full product name stays a file name.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("the name is empty")
	}
	if len(name) > 100 {
		return fmt.Errorf("%s is longer than 100 bytes", quote(name))
	}
	for _, part := range strings.Split(name, "-") {
		if part == "" {
			return fmt.Errorf("%s is not a valid product name: it has an empty part between \"-\"", quote(name))
		}
		for i := 0; i < len(part); i++ {
			if c := part[i]; !isWord(c) && c != '+' && c != '.' {
				return fmt.Errorf("%s is not a valid product name: %s is not allowed", quote(name), char(c))
			}
		}
	}
	return nil
}

// CheckVersion checks a product version: a digit, then letters, digits, ".", "_", "+" and "~",
// at most 64 bytes. Without "-" and with its leading digit it is the segment the explorer takes
// for the version when it splits a product name.
func CheckVersion(v string) error {
	if v == "" {
		return fmt.Errorf("the version is empty")
	}
	if len(v) > 64 {
		return fmt.Errorf("%s is longer than 64 bytes", quote(v))
	}
	if v[0] < '0' || v[0] > '9' {
		return fmt.Errorf("%s must start with a digit, so that the product name's version is found", quote(v))
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isWord(c) && c != '.' && c != '+' && c != '~' {
			return fmt.Errorf("%s is not a valid version: %s is not allowed", quote(v), char(c))
		}
	}
	return nil
}

// ValidBuild tells whether build is a build label the explorer recognises at the end of a
// product name: "Build", "Snapshot" or "Media", a digit, then digits and "." (Build1.1).
func ValidBuild(build string) bool {
	for _, p := range []string{"Build", "Snapshot", "Media"} {
		if rest, ok := strings.CutPrefix(build, p); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return strings.Trim(rest, "0123456789.") == "" && len(build) <= 64
		}
	}
	return false
}

// checkText checks free text (vendor, summary): one line of printable characters.
func checkText(s string) error {
	if len(s) > MaxTextLen {
		return fmt.Errorf("longer than %d bytes", MaxTextLen)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("not valid UTF-8")
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("%s holds the character %U, which is not printable", quote(s), r)
		}
	}
	return nil
}

// checkEVR checks a version constraint's "[epoch:]version[-release]".
func checkEVR(evr string) error {
	if evr == "" {
		return fmt.Errorf("the version is empty")
	}
	if len(evr) > 128 {
		return fmt.Errorf("%s is longer than 128 bytes", quote(evr))
	}
	rest := evr
	if e, v, ok := strings.Cut(evr, ":"); ok {
		if e == "" || strings.Trim(e, "0123456789") != "" {
			return fmt.Errorf("%s: the epoch must be a number", quote(evr))
		}
		rest = v
	}
	ver, rel, hasRel := strings.Cut(rest, "-")
	if ver == "" || hasRel && (rel == "" || strings.Contains(rel, "-")) {
		return fmt.Errorf("%s is not [epoch:]version[-release]", quote(evr))
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !isWord(c) && !strings.ContainsRune(".+~^-", rune(c)) {
			return fmt.Errorf("%s is not a valid version: %s is not allowed", quote(evr), char(c))
		}
	}
	return nil
}
