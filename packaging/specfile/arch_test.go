package specfile

import "testing"

func TestExcluded(t *testing.T) {
	cases := []struct {
		name, preamble, arch string
		excluded             bool
		why                  string
	}{
		{"no lists", "", "aarch64", false, ""},
		{"exclusive listed", "ExclusiveArch: x86_64 aarch64\n", "aarch64", false, ""},
		{"exclusive not listed", "ExclusiveArch: x86_64\n", "aarch64", true, "Architecture is not included: aarch64"},
		{"exclusive ix86", "ExclusiveArch: %{ix86} x86_64\n", "i586", false, ""},
		{"exclusive arm", "ExclusiveArch: %{arm}\n", "armv7l", false, ""},
		{"exclusive arm64", "ExclusiveArch: %{arm64}\n", "aarch64", false, ""},
		{"exclusive two lines", "ExclusiveArch: x86_64\nExclusiveArch: riscv64\n", "riscv64", false, ""},
		{"exclude listed", "ExcludeArch: %{ix86} s390x\n", "i586", true, "Architecture is excluded: i586"},
		{"exclude not listed", "ExcludeArch: s390x\n", "x86_64", false, ""},
		{"noarch builds everywhere", "BuildArch: noarch\n", "ppc64le", false, ""},
		{"noarch still exclusive", "BuildArch: noarch\nExclusiveArch: x86_64\n", "aarch64", true, "Architecture is not included: aarch64"},
		{"subpackage lists ignored", "%package sub\nSummary: s\nExclusiveArch: s390x\n", "x86_64", false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustParse(t, header+c.preamble, Options{Arch: c.arch})
			ex, why := s.Excluded(c.arch)
			if ex != c.excluded || why != c.why {
				t.Errorf("Excluded(%q) = %v, %q; want %v, %q", c.arch, ex, why, c.excluded, c.why)
			}
		})
	}
}
