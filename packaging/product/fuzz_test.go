package product

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/pocketforge/pocketforge/spdx"
)

// FuzzParse feeds arbitrary bytes to Parse: it must never panic or hang, every error must be
// an *Error with a message, and a definition it accepts must hold what Parse promises —
// required fields and names in their charsets, packages sorted, once each, on architectures of
// the product — and name its products so the explorer splits the names back.
func FuzzParse(f *testing.F) {
	pocket, err := os.ReadFile("testdata/pocket-1.0.productcompose")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(pocket)
	for _, s := range []string{
		head + tail,
		head + "architectures: [x86_64, aarch64]\nunpack: [u]\npackagesets:\n- name: u\n  packages: [s]\n- packages: [a > 1:2-3]\n  add: [x]\n- name: x\n  architectures: [aarch64]\n  packages: [b]\n",
		head + "architectures: [x86_64]\npackagesets:\n- packages: [a]\n  add: [b]\n- name: b\n  add: [main]\n",
		head + "architectures: &a [x86_64]\npackagesets: [{packages: *a}]\n",
		"[[[[[[[[[[[[]]]]]]]]]]]]", "<image/>", "---\n...\n---\n", "a: !!binary aGk=\n", "? [a]\n: b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(bytes.NewReader(data))
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Msg == "" {
				t.Fatalf("error %v (%T) is not an *Error with a message", err, err)
			}
			return
		}
		if d.Vendor == "" || CheckName(d.Name) != nil || CheckVersion(d.Version) != nil || len(d.Architectures) == 0 || len(d.Packages) == 0 {
			t.Fatalf("accepted an incomplete definition: %+v", d)
		}
		for i, p := range d.Packages {
			if CheckPackage(p.Name) != nil || i > 0 && d.Packages[i-1].Name >= p.Name || (p.Op == "") != (p.Version == "") {
				t.Fatalf("package %d: %+v", i, p)
			}
			for _, a := range p.Arches {
				if !slices.Contains(d.Architectures, a) {
					t.Fatalf("%s ships on %s, not an arch of the product", p.Name, a)
				}
			}
		}
		for _, a := range d.Architectures {
			if !KnownArch(a) {
				t.Fatalf("arch %q", a)
			}
			name, version, arch, build := spdx.ParseProductName(d.ProductName(a, "Build1.1"))
			if name != d.Name || version != d.Version || arch != a || build != "Build1.1" {
				t.Fatalf("%s splits into %q %q %q %q", d.ProductName(a, "Build1.1"), name, version, arch, build)
			}
		}
		for _, r := range d.Repositories {
			if CheckProject(r.Project) != nil || CheckRepository(r.Repository) != nil {
				t.Fatalf("repository %+v", r)
			}
		}
	})
}
