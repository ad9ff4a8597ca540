package resolve

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// bin builds a binary: "name-version-release", then "P:cap", "P:cap>=1.0", "R:dep" entries.
func bin(nvr string, deps ...string) Binary {
	parts := strings.Split(nvr, "-")
	b := Binary{Name: strings.Join(parts[:len(parts)-2], "-"), Version: parts[len(parts)-2], Release: parts[len(parts)-1], Arch: "x86_64"}
	b.Package = b.Name
	for _, d := range deps {
		kind, text, _ := strings.Cut(d, ":")
		if kind == "P" {
			b.Provides = append(b.Provides, parseDep(text))
		} else {
			b.Requires = append(b.Requires, parseDep(text))
		}
	}
	return b
}

func parseDep(s string) specfile.Dep {
	for _, op := range []string{">=", "<=", "=", "<", ">"} {
		if n, v, ok := strings.Cut(s, op); ok {
			return specfile.Dep{Name: strings.TrimSpace(n), Op: op, Version: strings.TrimSpace(v)}
		}
	}
	return specfile.Dep{Name: s}
}

func deps(list ...string) []specfile.Dep {
	out := make([]specfile.Dep, len(list))
	for i, s := range list {
		out[i] = parseDep(s)
	}
	return out
}

func binNames(bins []*Binary) []string {
	out := make([]string, len(bins))
	for i, b := range bins {
		out[i] = b.Name + "@" + b.Project
	}
	return out
}

func layer(project string, bins ...Binary) Layer {
	return Layer{Project: project, Repository: "standard", Binaries: bins}
}

var baseLayer = layer("Pocket:1.0",
	bin("glibc-2.38-1", "P:libc.so.6()(64bit)"),
	bin("bash-5.2-1", "R:glibc", "R:/bin/sh"),
	bin("sh-utils-1-1", "P:/bin/sh"),
	bin("gcc-13.2-1", "R:glibc-devel", "R:binutils"),
	bin("glibc-devel-2.38-1", "R:glibc = 2.38"),
	bin("binutils-2.41-1", "R:libc.so.6()(64bit)", "R:rpmlib(PayloadIsZstd)"),
	bin("make-4.4-1", "R:glibc"),
	bin("zlib-devel-1.3-1", "P:pkgconfig(zlib) = 1.3"),
	bin("libfoo1-1.0-1", "P:libfoo = 1.0"),
	bin("libfoo2-2.1-1", "P:libfoo = 2.1"),
	bin("mta-postfix-3-1", "P:smtp_daemon"),
	bin("mta-exim-4-1", "P:smtp_daemon"),
	bin("mta-sendmail-8-1", "P:smtp_daemon"),
	bin("python3-3.11-1", "P:python = 3.11"),
	bin("python3-devel-3.11-1", "R:python3"),
	bin("perl-5.38-1", "R:perl-doc"),
	bin("rpm-4.19-1", "R:bash", "R:missing-lib >= 2"),
)

func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		name    string
		layers  []Layer
		config  string
		deps    []string
		install []string // names@project; nil when unresolvable
		errs    []string
	}{
		{name: "transitive closure, file and rpmlib requires",
			layers: []Layer{baseLayer}, deps: []string{"gcc", "make"},
			install: []string{"binutils@Pocket:1.0", "gcc@Pocket:1.0", "glibc@Pocket:1.0", "glibc-devel@Pocket:1.0", "make@Pocket:1.0"}},
		{name: "file require provided is installed",
			layers: []Layer{baseLayer}, deps: []string{"bash"},
			install: []string{"bash@Pocket:1.0", "glibc@Pocket:1.0", "sh-utils@Pocket:1.0"}},
		{name: "versioned provides",
			layers: []Layer{baseLayer}, deps: []string{"libfoo >= 2"},
			install: []string{"libfoo2@Pocket:1.0"}},
		{name: "versioned pkgconfig",
			layers: []Layer{baseLayer}, deps: []string{"pkgconfig(zlib) >= 1.2"},
			install: []string{"zlib-devel@Pocket:1.0"}},
		{name: "nothing provides",
			layers: []Layer{baseLayer}, deps: []string{"gcc", "nosuchthing", "libfoo >= 3"},
			errs: []string{"nothing provides nosuchthing", "nothing provides libfoo >= 3"}},
		{name: "missing dep names the requiring binary",
			layers: []Layer{baseLayer}, deps: []string{"rpm"},
			errs: []string{"nothing provides missing-lib >= 2 needed by rpm"}},
		{name: "ignore for one binary",
			layers: []Layer{baseLayer}, config: "Ignore: rpm:missing-lib", deps: []string{"rpm"},
			install: []string{"bash@Pocket:1.0", "glibc@Pocket:1.0", "rpm@Pocket:1.0", "sh-utils@Pocket:1.0"}},
		{name: "ignore everywhere",
			layers: []Layer{baseLayer}, config: "Ignore: perl-doc", deps: []string{"perl"},
			install: []string{"perl@Pocket:1.0"}},
		{name: "ignore does not drop a build dependency",
			layers: []Layer{baseLayer}, config: "Ignore: nosuchthing", deps: []string{"nosuchthing"},
			errs: []string{"nothing provides nosuchthing"}},
		{name: "choice",
			layers: []Layer{baseLayer}, deps: []string{"smtp_daemon"},
			errs: []string{"have choice for smtp_daemon: mta-exim mta-postfix mta-sendmail"}},
		{name: "choice needed by",
			layers: []Layer{baseLayer, layer("devel:mail", bin("mailer-1-1", "R:smtp_daemon"))}, deps: []string{"mailer"},
			errs: []string{"have choice for smtp_daemon needed by mailer: mta-exim mta-postfix mta-sendmail"}},
		{name: "prefer decides",
			layers: []Layer{baseLayer}, config: "Prefer: mta-exim", deps: []string{"smtp_daemon"},
			install: []string{"mta-exim@Pocket:1.0"}},
		{name: "negative prefers narrow to one",
			layers: []Layer{baseLayer}, config: "Prefer: -mta-exim -mta-sendmail", deps: []string{"smtp_daemon"},
			install: []string{"mta-postfix@Pocket:1.0"}},
		{name: "first of several prefers wins",
			layers: []Layer{baseLayer}, config: "Prefer: mta-sendmail mta-postfix", deps: []string{"smtp_daemon"},
			install: []string{"mta-sendmail@Pocket:1.0"}},
		{name: "context prefer",
			layers: []Layer{baseLayer, layer("devel:mail", bin("mailer-1-1", "R:smtp_daemon"))}, config: "Prefer: mailer:mta-postfix", deps: []string{"mailer"},
			install: []string{"mailer@devel:mail", "mta-postfix@Pocket:1.0"}},
		{name: "context prefer does not apply to others",
			layers: []Layer{baseLayer}, config: "Prefer: mailer:mta-postfix", deps: []string{"smtp_daemon"},
			errs: []string{"have choice for smtp_daemon: mta-exim mta-postfix mta-sendmail"}},
		{name: "exact name breaks a tie",
			layers: []Layer{baseLayer, layer("home:x", bin("smtp_daemon-1-1"))}, deps: []string{"smtp_daemon"},
			install: []string{"smtp_daemon@home:x"}},
		{name: "installed provider satisfies a choice",
			layers: []Layer{baseLayer}, deps: []string{"mta-exim", "smtp_daemon"},
			install: []string{"mta-exim@Pocket:1.0"}},
		{name: "substitute",
			layers: []Layer{baseLayer}, config: "Substitute: python-devel python3-devel", deps: []string{"python-devel"},
			install: []string{"python3@Pocket:1.0", "python3-devel@Pocket:1.0"}},
		{name: "substitute to nothing drops",
			layers: []Layer{baseLayer}, config: "Substitute: nosuchthing", deps: []string{"nosuchthing", "make"},
			install: []string{"glibc@Pocket:1.0", "make@Pocket:1.0"}},
		{name: "first layer wins for a name",
			layers: []Layer{layer("devel:tools", bin("make-4.5-1", "R:glibc")), baseLayer}, deps: []string{"make"},
			install: []string{"glibc@Pocket:1.0", "make@devel:tools"}},
		{name: "own layer wins even when older",
			layers: []Layer{layer("home:alice", bin("make-3.0-1")), baseLayer}, deps: []string{"make >= 4"},
			errs: []string{"nothing provides make >= 4"}},
		{name: "dependency only a later layer provides",
			layers: []Layer{layer("home:alice", bin("app-1-1", "R:zlib-devel")), layer("devel:libs"), baseLayer}, deps: []string{"app"},
			install: []string{"app@home:alice", "zlib-devel@Pocket:1.0"}},
		{name: "negative build dependency drops what a binary needs from it",
			layers: []Layer{baseLayer, layer("devel:mail", bin("mailer-1-1", "R:smtp_daemon"))}, deps: []string{"mailer", "-mta-exim"},
			install: []string{"mailer@devel:mail"}},
		{name: "negative build dependency does not decide a direct choice",
			layers: []Layer{baseLayer}, deps: []string{"-mta-exim", "-mta-sendmail", "smtp_daemon"},
			errs: []string{"have choice for smtp_daemon: mta-exim mta-postfix mta-sendmail"}},
		{name: "required and support join, preinstall too",
			layers: []Layer{baseLayer}, config: "Preinstall: glibc\nRequired: make\nSupport: sh-utils", deps: nil,
			install: []string{"glibc@Pocket:1.0", "make@Pocket:1.0", "sh-utils@Pocket:1.0"}},
		{name: "unresolvable support",
			layers: []Layer{baseLayer}, config: "Support: nosuchtool", deps: []string{"make"},
			errs: []string{"nothing provides nosuchtool"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := mustConfig(t, "home:alice", "standard", tc.config)
			r := Expand(tc.layers, cfg, "x86_64", deps(tc.deps...))
			if tc.errs != nil {
				if r.OK || !reflect.DeepEqual(r.Unresolvable, tc.errs) || r.Install != nil {
					t.Fatalf("got OK %v %q %v, want %q", r.OK, r.Unresolvable, binNames(r.Install), tc.errs)
				}
				return
			}
			if !r.OK || !reflect.DeepEqual(binNames(r.Install), tc.install) {
				t.Fatalf("got OK %v %v %q, want %v", r.OK, binNames(r.Install), r.Unresolvable, tc.install)
			}
		})
	}
}

func TestExpandDepsAndSubpacks(t *testing.T) {
	local := layer("devel:tools", bin("libbar-1-1"), bin("tool-1-1", "R:libbar"))
	cfg := mustConfig(t, "devel:tools", "standard", "Preinstall: glibc bash\nRequired: make tool\nSupport: sh-utils")
	p := NewPool([]Layer{local, baseLayer}, cfg, "x86_64")
	r := p.Expand([]string{"tool"}, deps("libbar"))
	if !r.OK {
		t.Fatal(r.Unresolvable)
	}
	if want := []string{"bash@Pocket:1.0", "glibc@Pocket:1.0", "libbar@devel:tools", "make@Pocket:1.0", "sh-utils@Pocket:1.0"}; !reflect.DeepEqual(binNames(r.Install), want) {
		t.Errorf("Install = %v, want %v (own subpackage tool not taken from Required)", binNames(r.Install), want)
	}
	// Deps leaves out the Preinstall/Support binaries the package does not ask for itself,
	// even glibc that make requires, as the build service does.
	if want := []string{"libbar@devel:tools", "make@Pocket:1.0"}; !reflect.DeepEqual(binNames(r.Deps), want) {
		t.Errorf("Deps = %v, want %v", binNames(r.Deps), want)
	}
	if got := r.LocalPackages("devel:tools", "standard", "tool"); !reflect.DeepEqual(got, []string{"libbar"}) {
		t.Errorf("LocalPackages = %v", got)
	}
	if b, ok := p.Binary("tool"); !ok || b.Project != "devel:tools" {
		t.Errorf("Binary(tool) = %v %v", b, ok)
	}
	if r.Details() != "" {
		t.Errorf("Details of a resolved expansion = %q", r.Details())
	}
	bad := p.Expand(nil, deps("nope", "libfoo > 9"))
	if bad.Details() != "nothing provides nope, nothing provides libfoo > 9" {
		t.Errorf("Details = %q", bad.Details())
	}
}

func TestPoolArchAndVersions(t *testing.T) {
	a := bin("tool-1-1")
	a.Arch = "aarch64"
	src := bin("tool-1-1")
	src.Arch = "src"
	noarch := bin("docs-1-1")
	noarch.Arch = "noarch"
	older, newer := bin("lib-1.0-1"), bin("lib-1.10-1")
	p := NewPool([]Layer{layer("p", a, src, noarch, older, newer)}, Config{}, "x86_64")
	if _, ok := p.Binary("tool"); ok {
		t.Error("aarch64 and src binaries must not be offered to x86_64 builds")
	}
	if _, ok := p.Binary("docs"); !ok {
		t.Error("noarch binary missing")
	}
	if b, _ := p.Binary("lib"); b.Version != "1.10" {
		t.Errorf("lib = %s, want the highest version of the layer", b.Version)
	}
	e := bin("epoch-1-1")
	e.Epoch = "2"
	if e.EVR() != "2:1-1" {
		t.Errorf("EVR = %q", e.EVR())
	}
	r := Expand([]Layer{layer("p", e)}, Config{}, "x86_64", deps("epoch >= 1:5"))
	if !r.OK {
		t.Errorf("epoch 2 must satisfy >= 1:5: %v", r.Unresolvable)
	}
}

func TestExpandDeterministic(t *testing.T) {
	cfg := mustConfig(t, "x", "y", "Prefer: mta-postfix")
	var first []string
	for range 20 {
		r := Expand([]Layer{baseLayer}, cfg, "x86_64", deps("gcc", "smtp_daemon", "bash", "python3-devel"))
		got := binNames(r.Install)
		if first == nil {
			first = got
		} else if !slices.Equal(first, got) {
			t.Fatalf("run differs: %v vs %v", got, first)
		}
	}
}
