package rpmout

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

var (
	buildTime   = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	publishTime = time.Date(2026, 3, 4, 5, 10, 0, 0, time.UTC)
)

// demoBinary is a binary package with a bit of everything: an epoch, XML specials and UTF-8 in
// its texts, a versioned dependency of each kind, a directory, a file name with a space.
func demoBinary() RPM {
	return RPM{
		Name: "demo-tools", Epoch: "2", Version: "1.2", Release: "3.1", Arch: "x86_64",
		Summary:     `Demo <tools> & "friends"`,
		Description: "Tools for the démo.\nSecond line.",
		License:     "MIT", Group: "Development/Tools", URL: "https://example.org/demo?a=1&b=2",
		Vendor: "Pocket", Packager: "Alice <alice@example.org>",
		DistURL:   "obs://pocketforge/devel:tools/openSUSE_Tumbleweed/0123456789abcdef0123456789abcdef-demo",
		SourceRPM: "demo-1.2-3.1.src.rpm", BuildHost: "worker-1", BuildTime: buildTime,
		Provides:  []specfile.Dep{{Name: "libdemo.so.1()(64bit)"}, {Name: "demo-compat", Op: "=", Version: "1.2"}},
		Requires:  []specfile.Dep{{Name: "bash", Op: ">=", Version: "5.1"}, {Name: "libc.so.6()(64bit)"}},
		Conflicts: []specfile.Dep{{Name: "demo-old", Op: "<", Version: "1:0.9-2"}},
		Obsoletes: []specfile.Dep{{Name: "demo-legacy", Op: "<=", Version: "1.0"}},
		Files: []File{
			{Path: "/usr/bin/demo", Body: []byte("#!/bin/sh\necho demo\n"), Mode: 0o755},
			{Path: "/etc/demo", Dir: true},
			{Path: "/etc/demo/demo.conf", Body: []byte("level=1\n")},
			{Path: "/usr/share/doc/demo/read me & <notes>.txt", Body: []byte("hello")},
			{Path: "/usr/share/doc/demo", Dir: true},
		},
	}
}

// demoSource is the source package demoBinary was built from.
func demoSource() RPM {
	r := demoBinary()
	r.Name, r.Arch, r.SourceRPM = "demo", "src", ""
	r.Provides, r.Conflicts, r.Obsoletes = nil, nil, nil
	r.Requires = []specfile.Dep{{Name: "gcc", Op: ">=", Version: "12"}, {Name: "make"}}
	r.Files = []File{
		{Path: "demo.spec", Body: []byte("Name: demo\nVersion: 1.2\n")},
		{Path: "demo-1.2.tar.gz", Body: []byte("not really a tarball")},
	}
	return r
}

// written is an RPM written to bytes.
type written struct {
	rpm   RPM
	bytes []byte
}

func writeRPM(t testing.TB, r RPM) written {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatalf("Write %s: %v", Filename(r), err)
	}
	return written{r, buf.Bytes()}
}

// writeTree writes files (path → content) below dir and sets every mtime to publishTime, as
// a published tree would have them.
func writeTree(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, publishTime, publishTime); err != nil {
			t.Fatal(err)
		}
	}
}

// needTool skips the test when a command is not installed.
func needTool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (apt-get install -y %s)", name, pkg)
	}
	return p
}

// run runs a command and returns its standard output, failing the test on an error.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s%s", name, args, err, out, stderr.Bytes())
	}
	return string(out)
}
