package spdx

import "testing"

func TestParseProductName(t *testing.T) {
	tests := []struct {
		name, full                     string
		wantName, version, arch, build string
	}{
		{"single arch build", "Pocket-1.0-x86_64-Build1.1", "Pocket", "1.0", "x86_64", "Build1.1"},
		{"aarch64 demo product", "Pocket-1.0-aarch64-Build1.1", "Pocket", "1.0", "aarch64", "Build1.1"},
		{"multi arch", "Leap-16.1-aarch64-ppc64le-s390x-x86_64-Build50.2", "Leap", "16.1", "aarch64-ppc64le-s390x-x86_64", "Build50.2"},
		{"snapshot with flavor (docs example)", "openSUSE-Tumbleweed-DVD-x86_64-Snapshot20240401", "openSUSE-Tumbleweed", "20240401", "x86_64", "Snapshot20240401"},
		{"snapshot NET flavor", "openSUSE-Tumbleweed-NET-x86_64-Snapshot20240401", "openSUSE-Tumbleweed", "20240401", "x86_64", "Snapshot20240401"},
		{"snapshot two flavor words", "openSUSE-Tumbleweed-KDE-Live-x86_64-Snapshot20240401", "openSUSE-Tumbleweed", "20240401", "x86_64", "Snapshot20240401"},
		{"flavor after version", "SLES-16.0-Full-x86_64-Build135.5", "SLES", "16.0", "x86_64", "Build135.5"},
		{"two flavor words after version", "Leap-16.0-online-installer-x86_64-Build42.1", "Leap", "16.0", "x86_64", "Build42.1"},
		{"hyphenated name", "SUSE-Manager-Server-5.0-x86_64-Build3.2", "SUSE-Manager-Server", "5.0", "x86_64", "Build3.2"},
		{"name starting with a digit", "389-ds-1.4-x86_64-Build7.1", "389-ds", "1.4", "x86_64", "Build7.1"},
		{"build without arch", "Tumbleweed-20260924-Build1.2", "Tumbleweed", "20260924", "", "Build1.2"},
		{"media build", "SLES-15-SP5-x86_64-Media1", "SLES", "15", "x86_64", "Media1"},
		{"arch without build", "Leap-16.0-x86_64", "Leap", "16.0", "x86_64", ""},
		{"version with snapshot build keeps version", "MicroOS-6.1-x86_64-Snapshot20250101", "MicroOS", "6.1", "x86_64", "Snapshot20250101"},
		{"noarch", "Pocket-release-1.0-noarch-Build2.1", "Pocket-release", "1.0", "noarch", "Build2.1"},
		{"no version, no snapshot", "Foo-x86_64-Build1", "Foo", "", "x86_64", "Build1"},
		// Not split: the name stays whole.
		{"plain name", "DVD1", "DVD1", "", "", ""},
		{"foreign SBOM name", "SBOM-SPDX-2d85f548-12fa-46d5-87ce-5e78e5e111f4", "SBOM-SPDX-2d85f548-12fa-46d5-87ce-5e78e5e111f4", "", "", ""},
		{"Build without digit is a word", "Pocket-1.0-Builder", "Pocket-1.0-Builder", "", "", ""},
		{"nothing before the version", "16.0-x86_64-Build1", "16.0-x86_64-Build1", "", "", ""},
		{"empty", "", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, version, arch, build := ParseProductName(tt.full)
			if name != tt.wantName || version != tt.version || arch != tt.arch || build != tt.build {
				t.Errorf("ParseProductName(%q) = %q, %q, %q, %q; want %q, %q, %q, %q",
					tt.full, name, version, arch, build, tt.wantName, tt.version, tt.arch, tt.build)
			}
		})
	}
}
