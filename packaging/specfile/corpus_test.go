package specfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// corpusOptions are the project settings the demo world's specs are parsed with.
func corpusOptions(arch string) Options {
	return Options{Arch: arch, Macros: map[string]string{"dist": ".pocket1", "pocket_version": "100"}}
}

// TestCorpus checks what the farm reads from the demo-world specs in testdata/.
func TestCorpus(t *testing.T) {
	type want struct {
		nvr      string
		binaries []string // packages with %files, and their arch on x86_64
		brs      int      // BuildRequires on x86_64
		excluded string   // Excluded's reason on aarch64, "" when it builds there
		failure  string   // "%section:line:status", "" when the build succeeds
	}
	cases := map[string]want{
		"libpocket.spec":          {"libpocket-2.4.1-1.pocket1", []string{"libpocket1.x86_64", "libpocket-devel.x86_64"}, 6, "", ""},
		"pocket-cli.spec":         {"pocket-cli-0.9.3-0", []string{"pocket-cli.x86_64"}, 4, "", ""},
		"python-pockettools.spec": {"python-pockettools-1.4.0-2.pocket1", []string{"python3-pockettools.noarch"}, 4, "", ""},
		"pocket-simd.spec":        {"pocket-simd-0.3.1-1", []string{"pocket-simd.x86_64", "pocket-simd-devel.x86_64"}, 3, "Architecture is not included: aarch64", ""},
		"pocket-flaky.spec":       {"pocket-flaky-1.0.0-1", []string{"pocket-flaky.x86_64"}, 2, "", "%check:34:1"},
		"pocket-server.spec":      {"pocket-server-3.2.0-0", []string{"pocket-server.x86_64", "pocket-server-config.noarch"}, 6, "", ""},
		"pocket-ghost.spec":       {"pocket-ghost-0.1-1", []string{"pocket-ghost.x86_64"}, 3, "", ""},
	}
	files, _ := filepath.Glob("testdata/*.spec")
	if len(files) != len(cases) {
		t.Errorf("testdata has %d specs, the table %d", len(files), len(cases))
	}
	for _, f := range files {
		name := filepath.Base(f)
		w, ok := cases[name]
		t.Run(name, func(t *testing.T) {
			if !ok {
				t.Fatal("no expectations for this spec")
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			golden := map[string]any{}
			for _, arch := range []string{"x86_64", "aarch64"} {
				s, err := Parse(data, corpusOptions(arch))
				if err != nil {
					t.Fatalf("%s: %v", arch, err)
				}
				ex, why := s.Excluded(arch)
				golden[arch] = map[string]any{"spec": s, "failure": s.Failure(), "excluded": ex, "why": why}
				if arch == "aarch64" {
					if why != w.excluded {
						t.Errorf("Excluded(aarch64) = %v %q, want %q", ex, why, w.excluded)
					}
					continue
				}
				if got := s.Name + "-" + s.VersionRelease(); got != w.nvr {
					t.Errorf("NVR = %q, want %q", got, w.nvr)
				}
				var bins []string
				for _, p := range s.Packages {
					if p.HasFiles {
						bins = append(bins, p.Name+"."+p.Arch)
					}
				}
				if !reflect.DeepEqual(bins, w.binaries) {
					t.Errorf("binaries = %q, want %q", bins, w.binaries)
				}
				if len(s.BuildRequires) != w.brs {
					t.Errorf("BuildRequires = %v, want %d", s.BuildRequires, w.brs)
				}
				got := ""
				if f := s.Failure(); f != nil {
					got = f.Section + ":" + itoa(f.Line) + ":" + itoa(f.Status)
				}
				if got != w.failure {
					t.Errorf("failure = %q, want %q", got, w.failure)
				}
			}
			checkGolden(t, strings.TrimSuffix(f, ".spec")+".golden.json", golden)
		})
	}
}

// checkGolden compares v, as indented JSON, with the golden file; UPDATE_GOLDEN=1 rewrites it.
func checkGolden(t *testing.T, path string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1 to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the parse (run with UPDATE_GOLDEN=1 and review the diff)", path)
	}
}

// TestCorpusVariants checks the specs' switches: project macros that turn tests off, and the
// arch-dependent parts.
func TestCorpusVariants(t *testing.T) {
	read := func(name string) []byte {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	server := read("pocket-server.spec")
	opt := corpusOptions("x86_64")
	opt.Macros["_without_tests"] = "1"
	s, err := Parse(server, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.BuildRequires) != 4 || len(s.Check) != 0 {
		t.Errorf("without tests: BuildRequires %v, check %v", s.BuildRequires, s.Check)
	}
	if got := s.Build[0].Text; !strings.HasSuffix(got, "-Dtests=false") {
		t.Errorf("meson line = %q", got)
	}
	s, _ = Parse(server, corpusOptions("x86_64"))
	if got := s.Build[0].Text; !strings.HasSuffix(got, "-Dtests=true") || len(s.Check) != 1 {
		t.Errorf("with tests: meson line %q, check %v", got, s.Check)
	}

	simd := read("pocket-simd.spec")
	s, _ = Parse(simd, corpusOptions("aarch64"))
	if len(s.BuildRequires) != 2 || len(s.Build) != 1 {
		t.Errorf("aarch64: BuildRequires %v, build %v", s.BuildRequires, s.Build)
	}

	lib := read("libpocket.spec")
	s, _ = Parse(lib, corpusOptions("i586"))
	if got := s.Package("libpocket1").Files[1]; got != "/usr/lib/libpocket.so.1*" {
		t.Errorf("i586 library path = %q", got)
	}
	if got := s.Package("libpocket-devel").Requires[0].Name; got != "libpocket1(x86-32)" {
		t.Errorf("i586 isa requires = %q", got)
	}
}

// TestBrokenCorpus checks the errors the farm shows for specs that do not parse.
func TestBrokenCorpus(t *testing.T) {
	cases := map[string]string{
		"unknown-tag.spec": "line 6: Unknown tag: BuildRequire: gcc",
		"unclosed-if.spec": "line 6: Unclosed %if",
		"macro-loop.spec":  "line 3: Too many levels of recursion in macro expansion. It is likely caused by recursive macro declaration.",
		"no-name.spec":     "Name field must be present in package: (main package)",
	}
	files, _ := filepath.Glob("testdata/broken/*.spec")
	if len(files) != len(cases) {
		t.Errorf("testdata/broken has %d specs, the table %d", len(files), len(cases))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Parse(data, corpusOptions("x86_64"))
		if want := cases[filepath.Base(f)]; err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %q", f, err, want)
		}
	}
}
