package buildapi

import (
	"reflect"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
)

// FuzzPackageMeta: no body makes the package meta parser panic, and whatever it accepts
// renders to a document that parses back to the same record (the GET shows what was stored).
func FuzzPackageMeta(f *testing.F) {
	for _, seed := range []string{pkgMeta, `<package name="x"><title>T</title><description>D</description><devel project="a" package="b"/>` +
		`<person userid="alice" role="maintainer"/><lock><enable/></lock><build><disable repository="r" arch="x86_64"/></build><url>u</url></package>`,
		`<!DOCTYPE p [<!ENTITY e "x">]><package name="&e;"><title/><description/></package>`, "", "<package", "\xff"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		k, err := parsePackageMeta(body, "home:alice", "x")
		if err != nil {
			return
		}
		out := metadoc.RenderPackage(k) // as GET …/_meta answers it
		back, err := parsePackageMeta(out, "home:alice", "x")
		if err != nil {
			t.Fatalf("the rendered meta does not parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, k) {
			t.Fatalf("round trip changed the record:\n%+v\n%+v", k, back)
		}
	})
}
