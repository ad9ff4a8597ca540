package explorersvc

import (
	"context"
	"testing"

	"github.com/pocketforge/pocketforge/store/explorerstore"
)

// namedBackend is fakeBackend with a configuration name, optionally detached.
type namedBackend struct {
	*fakeBackend
	name     string
	detached bool
}

func (b *namedBackend) Configuration(context.Context) (BackendConfig, error) {
	return BackendConfig{Settings: []Setting{{Name: "title", Value: "t"}, {Name: "name", Value: b.name}}}, nil
}

func (b *namedBackend) Detached() bool { return b.detached }

// TestEntryBuilds: an entry is the appliance's build when its disturl names the build
// service's own instance and a followed project; a noarch package's arch is its product's
// when that names one; a remote (detached) backend's or a nameless service's entries are none.
func TestEntryBuilds(t *testing.T) {
	const local = "obs://pocketforge/devel:tools/standard/0123456789abcdef0123456789abcdef-forge-utils"
	entry := func(disturl, arch, productArch string) Entry {
		return Entry{Package: explorerstore.Package{Name: "x", Arch: arch, DistURL: disturl},
			Product: &explorerstore.Product{Arch: productArch}}
	}
	built := EntryBuild{Project: "devel:tools", Repository: "standard", Package: "forge-utils", Arch: "x86_64"}
	cases := []struct {
		name    string
		backend namedBackend
		entry   Entry
		want    EntryBuild
	}{
		{"a build of this service", namedBackend{name: "pocketforge"}, entry(local, "x86_64", "x86_64"), built},
		{"noarch: the product's arch", namedBackend{name: "pocketforge"}, entry(local, "noarch", "aarch64"),
			EntryBuild{Project: "devel:tools", Repository: "standard", Package: "forge-utils", Arch: "aarch64"}},
		{"noarch of a product of several archs: no one log", namedBackend{name: "pocketforge"}, entry(local, "noarch", "aarch64-x86_64"),
			EntryBuild{Project: "devel:tools", Repository: "standard", Package: "forge-utils"}},
		{"another instance", namedBackend{name: "build.opensuse.org"}, entry(local, "x86_64", "x86_64"), EntryBuild{}},
		{"a project not followed", namedBackend{name: "pocketforge"},
			entry("obs://pocketforge/Secret/standard/0123456789abcdef0123456789abcdef-x", "x86_64", "x86_64"), EntryBuild{}},
		{"no disturl", namedBackend{name: "pocketforge"}, entry("", "x86_64", "x86_64"), EntryBuild{}},
		{"a remote backend", namedBackend{name: "pocketforge", detached: true}, entry(local, "x86_64", "x86_64"), EntryBuild{}},
		{"a service without a name", namedBackend{}, entry(local, "x86_64", "x86_64"), EntryBuild{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.backend
			b.fakeBackend = &fakeBackend{projects: map[string]ProjectResults{}, failing: map[string]bool{}}
			b.set("devel:tools", "succeeded", 1)
			s := &Service{}
			if err := s.UseBackend(&b, nil); err != nil {
				t.Fatal(err)
			}
			got := s.EntryBuilds(context.Background(), []Entry{c.entry})
			if got[0] != c.want {
				t.Errorf("got %+v, want %+v", got[0], c.want)
			}
		})
	}
}
