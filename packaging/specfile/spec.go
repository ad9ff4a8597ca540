package specfile

import (
	"fmt"
	"strings"
)

// Spec is a parsed spec file: what the farm schedules, resolves, builds and packages.
type Spec struct {
	Name    string `json:"name"`
	Epoch   string `json:"epoch,omitempty"` // digits, "" when the spec sets none
	Version string `json:"version"`
	Release string `json:"release"`
	Summary string `json:"summary,omitempty"`
	License string `json:"license,omitempty"`
	URL     string `json:"url,omitempty"`
	Group   string `json:"group,omitempty"`

	// BuildArch is the main package's BuildArch ("noarch" for an architecture-independent
	// build); "" when the spec sets none, which means the repository's arch.
	BuildArch string `json:"buildarch,omitempty"`
	// ExclusiveArch and ExcludeArch are the main preamble's lists, macros (%{ix86}, …) expanded.
	ExclusiveArch []string `json:"exclusivearch,omitempty"`
	ExcludeArch   []string `json:"excludearch,omitempty"`

	BuildRequires  []Dep `json:"buildrequires,omitempty"`
	BuildConflicts []Dep `json:"buildconflicts,omitempty"`

	// Sources and Patches are the Source/Patch tag values (and %sourcelist/%patchlist lines) in
	// the order the spec gives them; FileName gives the file each names. SourceNumbers and
	// PatchNumbers are their numbers (Source1 is 1; unnumbered ones count on from the highest),
	// in the same order: %{SOURCEn} and "%patch -P n" refer to them.
	Sources       []string `json:"sources,omitempty"`
	Patches       []string `json:"patches,omitempty"`
	SourceNumbers []int    `json:"sourcenumbers,omitempty"`
	PatchNumbers  []int    `json:"patchnumbers,omitempty"`

	// BuildError is what rpmbuild reports when it finishes reading the spec, before any script
	// runs: a package without Summary or License, or without %description. OBS schedules such a
	// spec and its build fails with this message, so the farm does the same (see Failure)
	// instead of calling it broken. "" when there is none.
	BuildError string `json:"builderror,omitempty"`

	// Packages holds the main package first, then each %package in spec order.
	Packages []Package `json:"packages"`

	// Prep, Conf, Build, Install and Check are the build scripts, macros expanded, without blank
	// and comment-only lines. A line continued with a trailing backslash stays one Line whose
	// Text keeps the backslash-newline.
	Prep    []Line `json:"prep,omitempty"`
	Conf    []Line `json:"conf,omitempty"`
	Build   []Line `json:"build,omitempty"`
	Install []Line `json:"install,omitempty"`
	Check   []Line `json:"check,omitempty"`
}

// Package is one binary package the spec describes: the main package or a %package.
type Package struct {
	Name        string `json:"name"`
	Epoch       string `json:"epoch,omitempty"`
	Version     string `json:"version"`
	Release     string `json:"release"`
	Summary     string `json:"summary,omitempty"`
	Description string `json:"description,omitempty"`
	License     string `json:"license,omitempty"`
	Group       string `json:"group,omitempty"`
	URL         string `json:"url,omitempty"`
	// Arch is "noarch" for an architecture-independent package (BuildArch: noarch in its own
	// preamble or the main one), else the arch the spec was parsed for.
	Arch string `json:"arch"`
	// ISA is the instruction-set tag rpm puts in "name(ISA)" provides ("x86-64"), "" for
	// noarch packages and unknown arches.
	ISA string `json:"isa,omitempty"`

	Provides    []Dep `json:"provides,omitempty"`
	Requires    []Dep `json:"requires,omitempty"` // Requires(…), PreReq, scriptlet interpreters
	Conflicts   []Dep `json:"conflicts,omitempty"`
	Obsoletes   []Dep `json:"obsoletes,omitempty"`
	Recommends  []Dep `json:"recommends,omitempty"`
	Suggests    []Dep `json:"suggests,omitempty"`
	Supplements []Dep `json:"supplements,omitempty"`
	Enhances    []Dep `json:"enhances,omitempty"`

	// Files are the lines of the package's %files sections, macros expanded, trimmed, without
	// blank and comment lines; directives stay in front of the path ("%doc README",
	// "%config(noreplace) /etc/foo.conf", "%dir /usr/share/foo").
	Files []string `json:"files,omitempty"`
	// Entries are the Files lines read as rpm reads them: one entry per path, directives
	// applied, relative %doc/%license files placed in %{_docdir}/NAME and %{_licensedir}/NAME
	// (rpm's layout with %_docdir_fmt %{NAME}, as openSUSE and Fedora set it).
	Entries []FileEntry `json:"entries,omitempty"`
	// FileLists are the file names given with "%files -f NAME" (read at build time in rpm).
	FileLists []string `json:"filelists,omitempty"`
	// HasFiles says the spec has a %files section for this package: rpm builds a binary package
	// only for those.
	HasFiles bool `json:"hasfiles"`
}

// Line is one logical line of a build script.
type Line struct {
	No   int    `json:"no"`   // line number in the spec (of its first physical line)
	Text string `json:"text"` // macros expanded
}

// Options are the parse settings that come from outside the spec.
type Options struct {
	// Arch is the architecture to build for (%{_arch}, %{_target_cpu}, %ifarch, %{_libdir});
	// DefaultArch when empty.
	Arch string
	// Macros come from the project config (e.g. "dist": ".pocket1", "_vendor": "pocket",
	// "_without_tests": "1"); names may carry a leading '%'. They are defined after the built-in
	// defaults and before the spec's own definitions, so the spec can still override them.
	Macros map[string]string
}

// Error is a spec that does not parse; Line is 0 when no single line is at fault (e.g. a
// missing Name). The message reads like rpmbuild's.
type Error struct {
	Line int    `json:"line"`
	Msg  string `json:"msg"`
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

func errorf(line int, format string, args ...any) *Error {
	return &Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// VersionRelease is "version-release", as binary file names and build results show it.
func (s *Spec) VersionRelease() string { return s.Version + "-" + s.Release }

// EVR is "[epoch:]version-release", the version a package provides itself at.
func (p *Package) EVR() string {
	evr := p.Version + "-" + p.Release
	if p.Epoch != "" {
		evr = p.Epoch + ":" + evr
	}
	return evr
}

// AllProvides is what the package offers a resolver: its explicit Provides followed by those
// rpm adds to every package, "name = [epoch:]version-release" and, unless it is noarch,
// "name(ISA) = [epoch:]version-release" (what "Requires: name%{?_isa}" asks for).
func (p *Package) AllProvides() []Dep {
	out := make([]Dep, 0, len(p.Provides)+2)
	out = append(out, p.Provides...)
	out = append(out, Dep{Name: p.Name, Op: "=", Version: p.EVR()})
	if p.ISA != "" {
		out = append(out, Dep{Name: p.Name + "(" + p.ISA + ")", Op: "=", Version: p.EVR()})
	}
	return out
}

// FileName is the name of the file a Source or Patch value refers to: the last path element of
// the URL or path, or, for rpm's "URL#/name" form, the name after "#/".
func FileName(source string) string {
	if k := strings.LastIndex(source, "#/"); k >= 0 {
		source = source[k+2:]
	}
	if k := strings.LastIndexByte(source, '/'); k >= 0 {
		source = source[k+1:]
	}
	return source
}

// Package returns the package named name, or nil.
func (s *Spec) Package(name string) *Package {
	for i := range s.Packages {
		if s.Packages[i].Name == name {
			return &s.Packages[i]
		}
	}
	return nil
}
