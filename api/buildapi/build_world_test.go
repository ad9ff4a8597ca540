package buildapi

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// binWorld is the demo world plus a project that has built: binworld/standard/x86_64 with
// libfoo (provides foo-api) and hello (requires it), both succeeded and published; a package
// "lost" that is unresolvable; "closed", whose sources (so its source RPM) only members read; and binworld:hidden, which only alice sees.
type binWorld struct {
	*env
	svc *farm.Farm
}

func worldSpec(name, extra string) string {
	return fmt.Sprintf("Name: %s\nVersion: 1.0\nRelease: 0\nSummary: The %s tool\nLicense: MIT\n%s\n%%description\n%s does things.\n\n%%build\ntrue\n\n%%install\nmkdir -p %%{buildroot}%%{_bindir}\n\n%%files\n%%{_bindir}/%s\n", name, name, extra, name, name)
}

func newBinWorldNoCheck(t *testing.T) *binWorld {
	t.Helper()
	var svc *farm.Farm
	e := newEnvWith(t, func(d *Deps) {
		d.Build = domains.NewBuild(d.Store, d.Clock, d.Log, domains.BuildOptions{Farm: farm.Options{Workers: 8, BuildTime: 10 * time.Second}})
		svc = d.Build.Farm
	})
	w := &binWorld{env: e, svc: svc}
	meta := `<project name="%s"><title>%s</title><description>%s</description><person userid="alice" role="maintainer"/>%s` +
		`<repository name="standard"><arch>x86_64</arch></repository></project>`
	w.must(t, "PUT", "/source/binworld/_meta", asAdmin, fmt.Sprintf(meta, "binworld", "Bin world", "Where binaries live", ""))
	w.must(t, "PUT", "/source/binworld:hidden/_meta", asAdmin, fmt.Sprintf(meta, "binworld:hidden", "Hidden", "", "<access><disable/></access>"))
	for _, k := range []struct{ project, name, extra, meta string }{
		{"binworld", "libfoo", "Provides: foo-api = 2", ""},
		{"binworld", "hello", "BuildRequires: foo-api\nRequires: foo-api >= 2", ""},
		{"binworld", "lost", "BuildRequires: nonexistent-devel", ""},
		{"binworld", "closed", "", "<sourceaccess><disable/></sourceaccess>"},
		{"binworld:hidden", "secret", "", ""},
	} {
		w.must(t, "PUT", "/source/"+k.project+"/"+k.name+"/_meta", asAdmin,
			fmt.Sprintf(`<package name="%s" project="%s"><title/><description/>%s</package>`, k.name, k.project, k.meta))
		w.must(t, "PUT", "/source/"+k.project+"/"+k.name+"/"+k.name+".spec", asAdmin, worldSpec(k.name, k.extra))
	}
	for range 10 {
		w.tick(t)
		e.clk.Advance(11 * time.Second)
		w.tick(t)
	}
	return w
}

func newBinWorld(t *testing.T) *binWorld {
	t.Helper()
	w := newBinWorldNoCheck(t)
	got := apitest.Do(t, w.app, req("GET", "/build/binworld/standard/x86_64/hello", asAdmin, ""))
	if !strings.Contains(got.Body, "hello-1.0-1.1.x86_64.rpm") {
		t.Fatalf("hello has not built: %d %s", got.Status, got.Body)
	}
	return w
}

func (w *binWorld) tick(t *testing.T) {
	t.Helper()
	if err := w.svc.FarmTick(); err != nil {
		t.Fatal(err)
	}
}

func (w *binWorld) must(t *testing.T, method, path string, h map[string]string, body string) {
	t.Helper()
	got := apitest.Do(t, w.app, req(method, path, h, body))
	if got.Status != 200 {
		t.Fatalf("%s %s: %d %s", method, path, got.Status, got.Body)
	}
}
