package rpmout

import (
	"slices"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// TestReadHeader: what Write puts in, ReadHeader reads back; a source package reads as src;
// what is no RPM is refused.
func TestReadHeader(t *testing.T) {
	bin := demoBinary()
	got, err := ReadHeader(writeRPM(t, bin).bytes)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != bin.Name || got.Epoch != "2" || got.Version != "1.2" || got.Release != "3.1" || got.Arch != "x86_64" ||
		got.Summary != bin.Summary || got.Description != bin.Description {
		t.Errorf("header %+v", got)
	}
	for _, want := range bin.Provides {
		if !slices.Contains(got.Provides, want) {
			t.Errorf("provides %v lack %v", got.Provides, want)
		}
	}
	if !slices.Contains(got.Provides, specfile.Dep{Name: "demo-tools", Op: "=", Version: "2:1.2-3.1"}) {
		t.Errorf("provides %v lack the package's own", got.Provides)
	}
	for _, want := range bin.Requires {
		if !slices.Contains(got.Requires, want) {
			t.Errorf("requires %v lack %v", got.Requires, want)
		}
	}
	for _, r := range got.Requires {
		if len(r.Name) > 7 && r.Name[:7] == "rpmlib(" {
			t.Errorf("requires keep %v", r)
		}
	}
	var paths []string
	for _, f := range got.Files {
		paths = append(paths, f.Path)
	}
	if !slices.Contains(paths, "/usr/bin/demo") || !slices.Contains(paths, "/etc/demo/demo.conf") {
		t.Errorf("files %v", paths)
	}
	if got.License != "MIT" || got.Group != bin.Group || got.URL != bin.URL || got.Vendor != "Pocket" ||
		got.DistURL != bin.DistURL || got.SourceRPM != bin.SourceRPM || got.VCS != "" {
		t.Errorf("header tags %+v", got)
	}
	withVCS := demoBinary()
	withVCS.VCS = "https://src.pocketforge.test/pool/demo?trackingbranch=pocket-1.0#" + strings.Repeat("ab", 32)
	if got, err := ReadHeader(writeRPM(t, withVCS).bytes); err != nil || got.VCS != withVCS.VCS {
		t.Errorf("the VCS tag read back as %q (%v)", got.VCS, err)
	}
	src, err := ReadHeader(writeRPM(t, demoSource()).bytes)
	if err != nil || src.Arch != "src" || src.Name != "demo" {
		t.Errorf("source package: %+v %v", src, err)
	}
	for _, bad := range [][]byte{nil, []byte("not an rpm"), writeRPM(t, bin).bytes[:200]} {
		if _, err := ReadHeader(bad); err == nil {
			t.Errorf("ReadHeader(%d bytes) took it", len(bad))
		}
	}
}

// FuzzReadHeader: whatever an uploader sends, ReadHeader answers an RPM or an error, and never
// panics or loops.
func FuzzReadHeader(f *testing.F) {
	f.Add(writeRPM(f, demoBinary()).bytes)
	f.Add(writeRPM(f, demoSource()).bytes)
	f.Add([]byte("\xed\xab\xee\xdb"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ReadHeader(b)
	})
}
