package rpmout

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

func TestFilename(t *testing.T) {
	for _, tc := range []struct {
		r    RPM
		want string
	}{
		{RPM{Name: "bash", Version: "5.2.37", Release: "1.1", Arch: "x86_64"}, "bash-5.2.37-1.1.x86_64.rpm"},
		{RPM{Name: "bash", Epoch: "1", Version: "5.2", Release: "2", Arch: "src"}, "bash-5.2-2.src.rpm"},
		{RPM{Name: "perl-Foo-Bar", Version: "0.1", Release: "lp156.3.1", Arch: "noarch"}, "perl-Foo-Bar-0.1-lp156.3.1.noarch.rpm"},
	} {
		if got := Filename(tc.r); got != tc.want {
			t.Errorf("Filename(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}

func TestWriteRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*RPM)
		want   string
	}{
		{"no name", func(r *RPM) { r.Name = "" }, "no name"},
		{"no version", func(r *RPM) { r.Version = "" }, "no version"},
		{"no release", func(r *RPM) { r.Release = "" }, "no release"},
		{"no arch", func(r *RPM) { r.Arch = "" }, "no arch"},
		{"space in name", func(r *RPM) { r.Name = "my tool" }, "contains a space"},
		{"dash in version", func(r *RPM) { r.Version = "1-2" }, "contains '-'"},
		{"dash in release", func(r *RPM) { r.Release = "1-2" }, "contains '-'"},
		{"slash in arch", func(r *RPM) { r.Arch = "x86/64" }, "slash"},
		{"bad epoch", func(r *RPM) { r.Epoch = "one" }, "epoch"},
		{"NUL in summary", func(r *RPM) { r.Summary = "a\x00b" }, "NUL"},
		{"dep without name", func(r *RPM) { r.Requires = []specfile.Dep{{Op: ">=", Version: "1"}} }, "no name"},
		{"dep with unknown op", func(r *RPM) { r.Requires = []specfile.Dep{{Name: "a", Op: "=>", Version: "1"}} }, "unknown operator"},
		{"dep op without version", func(r *RPM) { r.Provides = []specfile.Dep{{Name: "a", Op: "="}} }, "operator"},
		{"dep version without op", func(r *RPM) { r.Conflicts = []specfile.Dep{{Name: "a", Version: "1"}} }, "operator"},
		{"relative file", func(r *RPM) { r.Files = []File{{Path: "usr/bin/x"}} }, "not a clean absolute path"},
		{"unclean file", func(r *RPM) { r.Files = []File{{Path: "/usr/../bin/x"}} }, "not a clean absolute path"},
		{"root dir", func(r *RPM) { r.Files = []File{{Path: "/", Dir: true}} }, "not a clean absolute path"},
		{"file twice", func(r *RPM) { r.Files = []File{{Path: "/a"}, {Path: "/a"}} }, "listed twice"},
		{"source file with slash", func(r *RPM) { r.Arch = "src"; r.Files = []File{{Path: "/x.spec"}} }, "bare file name"},
		{"NUL in path", func(r *RPM) { r.Files = []File{{Path: "/a\x00"}} }, "NUL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := demoBinary()
			tc.change(&r)
			var buf bytes.Buffer
			err := Write(&buf, r)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Write = %v, want an error with %q", err, tc.want)
			}
			if buf.Len() != 0 {
				t.Errorf("Write wrote %d bytes before failing", buf.Len())
			}
		})
	}
}

// TestWriteEmpty writes the smallest packages: no files, no dependencies, no texts, no build
// time (a meta package), binary and source.
func TestWriteEmpty(t *testing.T) {
	for _, arch := range []string{"noarch", "src"} {
		w := writeRPM(t, RPM{Name: "meta", Version: "1", Release: "0", Arch: arch})
		l, err := layout(w.bytes)
		if err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
		if l.hdrStart <= leadSize || len(l.hdr) == 0 || len(l.payload) == 0 {
			t.Errorf("%s: header at %d, %d bytes, payload %d bytes", arch, l.hdrStart, len(l.hdr), len(l.payload))
		}
	}
}

// TestHeaderCodecMatchesRPMPack re-encodes rpmpack's headers with the codec markSource uses:
// the bytes must come out the same, so the source rewrite changes nothing but what it means to.
func TestHeaderCodecMatchesRPMPack(t *testing.T) {
	w := writeRPM(t, demoBinary())
	l, err := layout(w.bytes)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []struct {
		name   string
		region uint32
		b      []byte
	}{{"signature", regionSignatures, l.sig}, {"main", regionImmutable, l.hdr}} {
		entries, err := parseHeader(h.b)
		if err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
		if got := encodeHeader(h.region, entries); !bytes.Equal(got, h.b) {
			t.Errorf("%s header: re-encoded %d bytes differ from rpmpack's %d", h.name, len(got), len(h.b))
		}
	}
}

// TestWriteWithRPM reads written packages back with the real rpm tool.
func TestWriteWithRPM(t *testing.T) {
	rpmCmd := needTool(t, "rpm", "rpm")
	dir := t.TempDir()
	bin, src := writeRPM(t, demoBinary()), writeRPM(t, demoSource())
	for _, w := range []written{bin, src} {
		if err := os.WriteFile(filepath.Join(dir, Filename(w.rpm)), w.bytes, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	query := func(w written, format string) string {
		t.Helper()
		return run(t, rpmCmd, "-qp", "--queryformat", format, filepath.Join(dir, Filename(w.rpm)))
	}
	for _, tc := range []struct {
		w            written
		format, want string
	}{
		{bin, "%{NAME}|%{EPOCH}|%{VERSION}|%{RELEASE}|%{ARCH}", "demo-tools|2|1.2|3.1|x86_64"},
		{bin, "%{SUMMARY}", `Demo <tools> & "friends"`},
		{bin, "%{DESCRIPTION}", "Tools for the démo.\nSecond line."},
		{bin, "%{LICENSE}|%{GROUP}|%{URL}|%{VENDOR}|%{PACKAGER}|%{BUILDHOST}",
			"MIT|Development/Tools|https://example.org/demo?a=1&b=2|Pocket|Alice <alice@example.org>|worker-1"},
		{bin, "%{BUILDTIME}", "1772600767"},
		{bin, "%{DISTURL}", "obs://pocketforge/devel:tools/openSUSE_Tumbleweed/0123456789abcdef0123456789abcdef-demo"},
		{bin, "%{SOURCERPM}", "demo-1.2-3.1.src.rpm"},
		{bin, "[%{PROVIDES} %{PROVIDEFLAGS:depflags} %{PROVIDEVERSION}\n]",
			"demo-tools = 2:1.2-3.1\nlibdemo.so.1()(64bit)  \ndemo-compat = 1.2\n"},
		{bin, "[%{REQUIRES} %{REQUIREFLAGS:depflags} %{REQUIREVERSION}\n]", "bash >= 5.1\nlibc.so.6()(64bit)  \n"},
		{bin, "[%{CONFLICTS} %{CONFLICTFLAGS:depflags} %{CONFLICTVERSION}\n]", "demo-old < 1:0.9-2\n"},
		{bin, "[%{OBSOLETES} %{OBSOLETEFLAGS:depflags} %{OBSOLETEVERSION}\n]", "demo-legacy <= 1.0\n"},
		{bin, "[%{FILENAMES} %{FILEMODES:perms} %{FILEUSERNAME} %{FILESIZES}\n]",
			"/etc/demo drwxr-xr-x root 4096\n/etc/demo/demo.conf -rw-r--r-- root 8\n/usr/bin/demo -rwxr-xr-x root 20\n" +
				"/usr/share/doc/demo drwxr-xr-x root 4096\n/usr/share/doc/demo/read me & <notes>.txt -rw-r--r-- root 5\n"},
		{src, "%{NAME}|%{VERSION}|%{RELEASE}|%{ARCH}|%{SOURCEPACKAGE}|%{SOURCERPM}", "demo|1.2|3.1|src|1|(none)"},
		{src, "%{DISTURL}", "obs://pocketforge/devel:tools/openSUSE_Tumbleweed/0123456789abcdef0123456789abcdef-demo"},
		{src, "[%{REQUIRES} %{REQUIREFLAGS:depflags} %{REQUIREVERSION}\n]", "gcc >= 12\nmake  \n"},
		{src, "[%{FILENAMES}\n]", "demo-1.2.tar.gz\ndemo.spec\n"},
	} {
		if got := query(tc.w, tc.format); got != tc.want {
			t.Errorf("rpm -qp --queryformat %q %s =\n%q\nwant\n%q", tc.format, Filename(tc.w.rpm), got, tc.want)
		}
	}
	// rpm -qpi says what kind of package it is: a binary names its source package, a source
	// package has none, and plain rpm -qp names it NAME-VERSION-RELEASE.src.
	if info := run(t, rpmCmd, "-qpi", filepath.Join(dir, Filename(src.rpm))); !strings.Contains(info, "Source RPM  : (none)") {
		t.Errorf("rpm -qpi of the source package:\n%s", info)
	}
	if got := run(t, rpmCmd, "-qp", filepath.Join(dir, Filename(src.rpm))); got != "demo-1.2-3.1.src\n" {
		t.Errorf("rpm -qp of the source package = %q", got)
	}
	// rpm -K checks the header and payload digests: the source rewrite must keep them right.
	for _, w := range []written{bin, src} {
		p := filepath.Join(dir, Filename(w.rpm))
		if got := run(t, rpmCmd, "-K", p); got != p+": digests OK\n" {
			t.Errorf("rpm -K: %q", got)
		}
	}
}

// TestWriteInstalls installs the binary package into an empty root with rpm and checks the
// payload's files landed with their content and modes.
func TestWriteInstalls(t *testing.T) {
	rpmCmd := needTool(t, "rpm", "rpm")
	dir, root := t.TempDir(), t.TempDir()
	r := demoBinary()
	w := writeRPM(t, r)
	p := filepath.Join(dir, Filename(r))
	if err := os.WriteFile(p, w.bytes, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, rpmCmd, "--root", root, "--initdb")
	run(t, rpmCmd, "--root", root, "-i", "--nodeps", "--nosignature", p)
	for _, f := range r.Files {
		fi, err := os.Stat(filepath.Join(root, f.Path))
		if err != nil {
			t.Errorf("%s not installed: %v", f.Path, err)
			continue
		}
		if f.Dir {
			if !fi.IsDir() {
				t.Errorf("%s is not a directory", f.Path)
			}
			continue
		}
		got, _ := os.ReadFile(filepath.Join(root, f.Path))
		wantMode := os.FileMode(0o644)
		if f.Mode != 0 {
			wantMode = os.FileMode(f.Mode)
		}
		if !bytes.Equal(got, f.Body) || fi.Mode().Perm() != wantMode {
			t.Errorf("%s: %q mode %v, want %q mode %v", f.Path, got, fi.Mode().Perm(), f.Body, wantMode)
		}
		if !fi.ModTime().Equal(buildTime) {
			t.Errorf("%s: mtime %v, want the build time %v", f.Path, fi.ModTime().UTC(), buildTime)
		}
	}
}

func TestEVR(t *testing.T) {
	r := RPM{Version: "1.0", Release: "2"}
	if got := r.EVR(); got != "1.0-2" {
		t.Errorf("EVR = %q", got)
	}
	r.Epoch = "3"
	if got := r.EVR(); got != "3:1.0-2" {
		t.Errorf("EVR = %q", got)
	}
	// The zero build time leaves BUILDTIME out rather than writing 1970 (rpmpack's rule).
	w := writeRPM(t, RPM{Name: "a", Version: "1", Release: "1", Arch: "noarch"})
	l, err := layout(w.bytes)
	if err != nil {
		t.Fatal(err)
	}
	hdr, err := parseHeader(l.hdr)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := int32Value(hdr, 1006); ok {
		t.Error("BUILDTIME written for the zero time")
	}
}
