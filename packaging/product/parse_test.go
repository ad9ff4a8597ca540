package product

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// pocket is the demo world's product definition, as testdata holds it.
func pocket(t *testing.T) *Definition {
	t.Helper()
	f, err := os.Open("testdata/pocket-1.0.productcompose")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := Parse(f)
	if err != nil {
		t.Fatalf("testdata/pocket-1.0.productcompose: %v", err)
	}
	return d
}

// TestPocketDefinition: the demo world's product is Pocket 1.0 from Pocket:1.0/standard, for
// x86_64 and aarch64, shipping the five pocket-* packages on both.
func TestPocketDefinition(t *testing.T) {
	d := pocket(t)
	var names []string
	for _, p := range d.Packages {
		names = append(names, p.String())
		if p.Arches != nil || !p.ShipsOn("aarch64") {
			t.Errorf("%s ships only on %v", p.Name, p.Arches)
		}
	}
	want := &Definition{Schema: "0.2", Vendor: "Pocket", Name: "Pocket", Version: "1.0", Summary: "Pocket 1.0", ProductType: "base",
		Architectures: []string{"x86_64", "aarch64"}, Repositories: []Repository{{"Pocket:1.0", "standard"}}}
	got := *d
	got.Packages = nil
	if !reflect.DeepEqual(&got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if s := strings.Join(names, " "); s != "pocket-base pocket-cli pocket-filesystem pocket-release pocket-repos" {
		t.Errorf("packages %s", s)
	}
	if n := d.ProductName("x86_64", BuildLabel(1, 1)); n != "Pocket-1.0-x86_64-Build1.1" {
		t.Errorf("ProductName = %s", n)
	}
	if len(d.PackagesFor("aarch64")) != 5 || d.PackagesFor("s390x") != nil {
		t.Errorf("PackagesFor: %v, %v", d.PackagesFor("aarch64"), d.PackagesFor("s390x"))
	}
	if d.Repositories[0].String() != "Pocket:1.0/standard" {
		t.Errorf("repository %s", d.Repositories[0])
	}
}

const head = "product_compose_schema: 0.2\nvendor: Pocket\nname: Pocket\nversion: 1.0\n"

// TestParseGood: definitions Parse accepts, and the packages each ships, as
// "name[ op version][@arch,arch]".
func TestParseGood(t *testing.T) {
	for _, c := range []struct {
		name, src, packages string
		check               func(*Definition) string // compared with extra
		extra               string
	}{
		{"minimal, flow lists", head + "architectures: [x86_64]\npackagesets: [{packages: [a]}]\n", "a", nil, ""},
		{"the schema 0.1, a version as YAML reads a float", strings.Replace(head, "0.2", "0.1", 1) + "architectures: [x86_64]\npackagesets:\n- packages: [b, a]\n",
			"a b", func(d *Definition) string { return d.Schema + " " + d.Version }, "0.1 1.0"},
		{"1.10 stays 1.10", strings.Replace(head, "1.0", "1.10", 1) + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n",
			"a", func(d *Definition) string { return d.Version }, "1.10"},
		{"per-arch sets, add, unpack, version constraints",
			head + `summary: Pocket with "kernels"
milestone: Beta1
architectures: [x86_64, aarch64]
content: [main]
unpack: [skel]
packagesets:
- name: skel
  packages: [pocket-skel]
- name: 32bit
  architectures: [x86_64]
  packages: [pocket-base-32bit]
- name: arm
  architectures: [aarch64]
  packages: [u-boot-pocket]
- packages:
  - glibc > 2.38-9
  - kernel-default>=1:6.1
  - libstdc++6 = 14.2.1
  - pocket-base
  add: [32bit, arm]
  supportstatus: l3
`, "glibc > 2.38-9 kernel-default >= 1:6.1 libstdc++6 = 14.2.1 pocket-base pocket-base-32bit@x86_64 pocket-skel u-boot-pocket@aarch64",
			func(d *Definition) string { return d.Milestone + " " + d.Summary }, `Beta1 Pocket with "kernels"`},
		{"two entries of one name for different arches",
			head + "architectures: [x86_64, aarch64]\npackagesets:\n- architectures: [x86_64]\n  packages: [grub2-x86_64-efi, shim]\n- architectures: [aarch64]\n  packages: [grub2-arm64-efi, shim]\n",
			"grub2-arm64-efi@aarch64 grub2-x86_64-efi@x86_64 shim", nil, ""},
		{"the same package from two sets, == as =",
			head + "architectures: [x86_64]\npackagesets:\n- packages: [a == 1]\n  add: [b]\n- name: b\n  packages: [a = 1, c]\n",
			"a = 1 c", nil, ""},
		{"a set added twice and one never used", head + "architectures: [x86_64]\npackagesets:\n- packages: []\n  add: [x, y]\n- name: y\n  add: [x]\n- name: x\n  packages: [p]\n- name: unused\n  packages: [q]\n", "p", nil, ""},
		{"an arch-restricted set for an arch the product lacks", head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n- name: other\n  architectures: [s390x]\n  packages: [z]\n", "a", nil, ""},
		{"ignored keys, null package list", head + `build_options: [ignore_missing_packages]
source: split
debug: drop
iso: {publisher: Pocket, volume_id: POCKET}
scc:
  predecessors:
  - cpe: cpe:/o:pocket:pocket:0.9
installcheck: [ignore_errors]
bcntsynctag: Pocket
description: >
  Folded text.
architectures: [riscv64]
packagesets:
- name: empty
  packages:
- packages: [a]
  add: [empty]
`, "a", nil, ""},
		{"no repositories, a BOM, CRLF", "\ufeff" + strings.ReplaceAll(head+"architectures: [x86_64]\npackagesets:\n- packages: [a]\n", "\n", "\r\n"), "a",
			func(d *Definition) string {
				if d.Repositories != nil {
					return "repositories"
				}
				return ""
			}, ""},
		{"several repositories", head + "architectures: [x86_64]\nrepositories: [Pocket:1.0/standard, devel:tools/Pocket_1.0, home:alice:branches:devel:tools/x86_64-v3]\npackagesets:\n- packages: [a]\n", "a",
			func(d *Definition) string { return d.Repositories[1].String() + " " + d.Repositories[2].String() },
			"devel:tools/Pocket_1.0 home:alice:branches:devel:tools/x86_64-v3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse(strings.NewReader(c.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range d.Packages {
				s := p.String()
				if p.Arches != nil {
					s += "@" + strings.Join(p.Arches, ",")
				}
				got = append(got, s)
			}
			if s := strings.Join(got, " "); s != c.packages {
				t.Errorf("packages %q, want %q", s, c.packages)
			}
			if c.check != nil {
				if got := c.check(d); got != c.extra {
					t.Errorf("got %q, want %q", got, c.extra)
				}
			}
		})
	}
}
