package spdx

import (
	"strings"
	"testing"
)

func TestParsePurl(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    purl
		wantErr string
	}{
		{"generate_sbom rpm", "pkg:rpm/suse/bash@5.2.37-160000.2.2?arch=x86_64&upstream=bash-5.2.37-160000.2.2.src.rpm&distro=opensuse-leap-16.0", purl{Type: "rpm", Arch: "x86_64"}, ""},
		{"epoch qualifier first", "pkg:rpm/opensuse/gcc@13-1.1?epoch=1&arch=aarch64&upstream=gcc%2B%2B-13-1.1.src.rpm", purl{Type: "rpm", Arch: "aarch64"}, ""},
		{"encoded arch", "pkg:rpm/opensuse/x@1-1?arch=x86%5F64", purl{Type: "rpm", Arch: "x86_64"}, ""},
		{"plus kept", "pkg:rpm/opensuse/x@1-1?arch=a+b", purl{Type: "rpm", Arch: "a+b"}, ""},
		{"no qualifiers", "pkg:cargo/hyper@0.14", purl{Type: "cargo"}, ""},
		{"deb with arch", "pkg:deb/debian/libselinux1-dev@3.1-3?arch=s390x", purl{Type: "deb", Arch: "s390x"}, ""},
		{"type and scheme case", "PKG:RPM/suse/bash@1?ARCH=noarch", purl{Type: "rpm", Arch: "noarch"}, ""},
		{"subpath ignored", "pkg:golang/google.golang.org/genproto#googleapis/api", purl{Type: "golang"}, ""},
		{"slashes after scheme", "pkg://rpm/suse/bash@1", purl{Type: "rpm"}, ""},
		{"empty qualifier pairs skipped", "pkg:rpm/suse/bash@1?&arch=x86_64&", purl{Type: "rpm", Arch: "x86_64"}, ""},
		{"no scheme", "rpm/suse/bash@1", purl{}, `no "pkg:" scheme`},
		{"no type", "pkg:", purl{}, "no type"},
		{"at sign in type", "pkg:/bash@1", purl{}, "type \"bash@1\" has a character"},
		{"no name", "pkg:rpm", purl{}, "no name"},
		{"empty name", "pkg:rpm/suse/@1", purl{}, "no name"},
		{"bad type", "pkg:r_pm/suse/bash", purl{}, "type"},
		{"qualifier without value", "pkg:rpm/suse/bash@1?arch", purl{}, `qualifier "arch" is not key=value`},
		{"bad escape", "pkg:rpm/suse/bash@1?arch=x86%ZZ", purl{}, "qualifier arch: invalid URL escape"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePurl(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parsePurl(%q) error = %v, want %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("parsePurl(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			}
		})
	}
}
