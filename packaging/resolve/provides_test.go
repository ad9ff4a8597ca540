package resolve

import (
	"testing"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// TestWhatProvidesAndRequires: providers honour versions; requirers are the binaries whose
// requirement a provide meets.
func TestWhatProvidesAndRequires(t *testing.T) {
	pool := NewPool([]Layer{{Project: "p", Repository: "r", Binaries: []Binary{
		{Name: "libfoo", Version: "1", Release: "1", Arch: "x86_64", Provides: []specfile.Dep{{Name: "foo-api", Op: "=", Version: "2"}}},
		{Name: "oldfoo", Version: "1", Release: "1", Arch: "x86_64", Provides: []specfile.Dep{{Name: "foo-api", Op: "=", Version: "1"}}},
		{Name: "app", Version: "1", Release: "1", Arch: "x86_64", Requires: []specfile.Dep{{Name: "foo-api", Op: ">=", Version: "2"}}},
		{Name: "tool", Version: "1", Release: "1", Arch: "noarch", Requires: []specfile.Dep{{Name: "foo-api"}}},
	}}}, Config{}, "x86_64")
	names := func(list []Binary) (s string) {
		for _, b := range list {
			s += b.Name + " "
		}
		return s
	}
	if got := names(pool.WhatProvides(specfile.Dep{Name: "foo-api", Op: ">=", Version: "2"})); got != "libfoo " {
		t.Errorf("WhatProvides(foo-api >= 2) = %q", got)
	}
	if got := names(pool.WhatProvides(specfile.Dep{Name: "foo-api"})); got != "libfoo oldfoo " {
		t.Errorf("WhatProvides(foo-api) = %q", got)
	}
	if got := names(pool.WhatRequires(specfile.Dep{Name: "foo-api", Op: "=", Version: "2"})); got != "app tool " {
		t.Errorf("WhatRequires(foo-api = 2) = %q", got)
	}
	if got := names(pool.WhatRequires(specfile.Dep{Name: "foo-api", Op: "=", Version: "1"})); got != "tool " {
		t.Errorf("WhatRequires(foo-api = 1) = %q", got)
	}
	if got := names(pool.Binaries()); got != "app libfoo oldfoo tool " {
		t.Errorf("Binaries() = %q", got)
	}
}
