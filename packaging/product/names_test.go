package product

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/spdx"
)

// TestProductNameRoundTrip: the explorer splits every product name the farm gives back into
// the definition's name and version, the arch and the build label.
func TestProductNameRoundTrip(t *testing.T) {
	for _, c := range []struct{ name, version, arch, build string }{
		{"Pocket", "1.0", "x86_64", "Build1.1"},
		{"Pocket", "1.0", "aarch64", BuildLabel(12, 3)},
		{"openSUSE-Addon-NonOss", "16.0", "aarch64-ppc64le-s390x-x86_64", "Build50.2"},
		{"Pocket-2", "1.0~rc1", "riscv64", "Snapshot20240401"},
		{"x86_64", "1", "i586", "Media1"},
	} {
		d := &Definition{Name: c.name, Version: c.version}
		full := d.ProductName(c.arch, c.build)
		n, v, a, b := spdx.ParseProductName(full)
		if n != c.name || v != c.version || a != c.arch || b != c.build {
			t.Errorf("%s splits into %q %q %q %q", full, n, v, a, b)
		}
	}
	if got := BuildLabel(1, 1); got != "Build1.1" {
		t.Errorf("BuildLabel(1, 1) = %s", got)
	}
}

// TestNames: the charsets the farm checks names with.
func TestNames(t *testing.T) {
	ok := func(err error) bool { return err == nil }
	for _, c := range []struct {
		check func(string) error
		s     string
		want  bool
	}{
		{CheckProject, "Pocket:1.0", true}, {CheckProject, "home:alice:branches:devel:tools", true},
		{CheckProject, "devel:libs+x", true}, {CheckProject, "0", false}, {CheckProject, "a:", false},
		{CheckProject, ":a", false}, {CheckProject, "_a", false}, {CheckProject, "a:_b", false},
		{CheckProject, "a b", false}, {CheckProject, "", false}, {CheckProject, strings.Repeat("a", 201), false},
		{CheckRepository, "standard", true}, {CheckRepository, "openSUSE_Tumbleweed", true},
		{CheckRepository, "a/b", false}, {CheckRepository, "a:b", false}, {CheckRepository, "_b", false},
		{CheckPackage, "libstdc++6", true}, {CheckPackage, "perl-Mail-SPF_XS", true}, {CheckPackage, "gcc-c++", true},
		{CheckPackage, "patterns-base-minimal", true}, {CheckPackage, "a%{x}", false}, {CheckPackage, ".hidden", false},
		{CheckName, "Pocket", true}, {CheckName, "openSUSE-Tumbleweed", true}, {CheckName, "Pocket-", false},
		{CheckName, "-Pocket", false}, {CheckName, "Pocket OS", false},
		{CheckVersion, "1.0", true}, {CheckVersion, "16.1", true}, {CheckVersion, "20240401", true},
		{CheckVersion, "1.0-1", false}, {CheckVersion, "v1", false}, {CheckVersion, "", false},
	} {
		if got := ok(c.check(c.s)); got != c.want {
			t.Errorf("%q: valid = %v, want %v (%v)", c.s, got, c.want, c.check(c.s))
		}
	}
	for _, b := range []string{"Build1.1", "Build50.2", "Snapshot20240401", "Media1"} {
		if !ValidBuild(b) {
			t.Errorf("ValidBuild(%q) = false", b)
		}
	}
	for _, b := range []string{"", "Build", "Build.1", "build1", "Build1-1", "Beta1", "Build1 x"} {
		if ValidBuild(b) {
			t.Errorf("ValidBuild(%q) = true", b)
		}
	}
	if !KnownArch("aarch64") || KnownArch("noarch") || KnownArch("amd64") {
		t.Error("KnownArch")
	}
}
