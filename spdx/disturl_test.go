package spdx

import "testing"

func TestParseDistURL(t *testing.T) {
	tests := []struct {
		name                                 string
		in                                   string
		instance, project, repo, srcmd5, pkg string
		ok                                   bool
	}{
		{"user guide example",
			"obs://build.opensuse.org/openSUSE:Factory/standard/80d21fdd2299302358246d757b4d8c4f-glibc",
			"build.opensuse.org", "openSUSE:Factory", "standard", "80d21fdd2299302358246d757b4d8c4f", "glibc", true},
		{"project with colons",
			"obs://build.suse.de/SUSE:SLFO:1.2/standard/8b36f59f7e3ff15de5bfeca5c8f7fccd-bash",
			"build.suse.de", "SUSE:SLFO:1.2", "standard", "8b36f59f7e3ff15de5bfeca5c8f7fccd", "bash", true},
		{"multibuild flavor kept in the package",
			"obs://build.suse.de/SUSE:SLFO:Products:SLES:16.0/standard/4e8c58a0b1c2d3e4f5a6b7c8d9e0f1a2-000release-packages:SLES-release",
			"build.suse.de", "SUSE:SLFO:Products:SLES:16.0", "standard", "4e8c58a0b1c2d3e4f5a6b7c8d9e0f1a2", "000release-packages:SLES-release", true},
		{"product repository",
			"obs://build.opensuse.org/openSUSE:Leap:16.0:Products/product/f5bf48aa40cad7891eb709fcf1fde128-000productcompose:leap_oss",
			"build.opensuse.org", "openSUSE:Leap:16.0:Products", "product", "f5bf48aa40cad7891eb709fcf1fde128", "000productcompose:leap_oss", true},
		{"package with dashes",
			"obs://build.opensuse.org/devel:tools/openSUSE_Tumbleweed/0123456789abcdef0123456789abcdef-python-foo-bar",
			"build.opensuse.org", "devel:tools", "openSUSE_Tumbleweed", "0123456789abcdef0123456789abcdef", "python-foo-bar", true},
		{"no obs scheme", "https://build.opensuse.org/openSUSE:Factory/standard/80d21fdd-glibc", "", "", "", "", "", false},
		{"no repository", "obs://build.opensuse.org/80d21fdd-glibc", "", "", "", "", "", false},
		{"no project", "obs://build.opensuse.org/standard/80d21fdd-glibc", "", "", "", "", "", false},
		{"empty instance", "obs:///openSUSE:Factory/standard/80d21fdd-glibc", "", "", "", "", "", false},
		{"no package", "obs://build.opensuse.org/openSUSE:Factory/standard/80d21fdd", "", "", "", "", "", false},
		{"srcmd5 not hex", "obs://build.opensuse.org/openSUSE:Factory/standard/xyz-glibc", "", "", "", "", "", false},
		{"empty", "", "", "", "", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			instance, project, repo, srcmd5, pkg, ok := ParseDistURL(tt.in)
			if instance != tt.instance || project != tt.project || repo != tt.repo || srcmd5 != tt.srcmd5 || pkg != tt.pkg || ok != tt.ok {
				t.Errorf("ParseDistURL(%q) = %q, %q, %q, %q, %q, %v; want %q, %q, %q, %q, %q, %v", tt.in,
					instance, project, repo, srcmd5, pkg, ok, tt.instance, tt.project, tt.repo, tt.srcmd5, tt.pkg, tt.ok)
			}
		})
	}
}
