package specfile

import (
	"reflect"
	"testing"
)

func TestParseFileLine(t *testing.T) {
	const doc, lic = "/usr/share/doc/packages/foo", "/usr/share/licenses/foo"
	cases := []struct {
		name    string
		lines   []string // read in order, so %defattr carries over
		want    []FileEntry
		defattr fileAttrs
	}{
		{"plain", []string{"/usr/bin/foo"}, []FileEntry{{Path: "/usr/bin/foo"}}, fileAttrs{}},
		{"glob", []string{"/usr/lib64/libfoo.so.*"}, []FileEntry{{Path: "/usr/lib64/libfoo.so.*"}}, fileAttrs{}},
		{"dir", []string{"%dir /usr/share/foo"}, []FileEntry{{Path: "/usr/share/foo", Dir: true}}, fileAttrs{}},
		{"relative docs", []string{"%doc README.md docs/CHANGES"}, []FileEntry{
			{Path: doc + "/README.md", Doc: true, Source: "README.md"},
			{Path: doc + "/CHANGES", Doc: true, Source: "docs/CHANGES"}}, fileAttrs{}},
		{"absolute doc", []string{"%doc /usr/share/man/man1/foo.1*"}, []FileEntry{{Path: "/usr/share/man/man1/foo.1*", Doc: true}}, fileAttrs{}},
		{"license", []string{"%license COPYING"}, []FileEntry{{Path: lic + "/COPYING", License: true, Source: "COPYING"}}, fileAttrs{}},
		{"config noreplace", []string{"%config(noreplace) /etc/foo.conf"}, []FileEntry{{Path: "/etc/foo.conf", Config: true}}, fileAttrs{}},
		{"attr with spaces", []string{"%attr(0755, root, wheel) /usr/sbin/food"}, []FileEntry{{Path: "/usr/sbin/food", Mode: "0755", User: "root", Group: "wheel"}}, fileAttrs{}},
		{"attr dash keeps default", []string{"%defattr(0644,root,root)", "%attr(-, nobody, -) /var/lib/foo"},
			[]FileEntry{{Path: "/var/lib/foo", Mode: "0644", User: "nobody", Group: "root"}}, fileAttrs{"0644", "root", "root"}},
		{"defattr dashes", []string{"%defattr(-,root,root,-)", "/usr/bin/foo"}, []FileEntry{{Path: "/usr/bin/foo", User: "root", Group: "root"}}, fileAttrs{"", "root", "root"}},
		{"ghost and verify", []string{"%ghost %verify(not md5 size mtime) /var/log/foo.log"}, []FileEntry{{Path: "/var/log/foo.log", Ghost: true}}, fileAttrs{}},
		{"exclude", []string{"%exclude /usr/lib64/*.a"}, []FileEntry{{Path: "/usr/lib64/*.a", Exclude: true}}, fileAttrs{}},
		{"lang", []string{"%lang(de) /usr/share/locale/de/foo.mo"}, []FileEntry{{Path: "/usr/share/locale/de/foo.mo"}}, fileAttrs{}},
		{"quoted", []string{`"/usr/share/foo/with space"`}, []FileEntry{{Path: "/usr/share/foo/with space"}}, fileAttrs{}},
		{"directive only", []string{"%doc"}, nil, fileAttrs{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var def fileAttrs
			var got []FileEntry
			for _, l := range c.lines {
				got = append(got, parseFileLine(l, &def, doc, lic)...)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
			if def != c.defattr {
				t.Errorf("defattr = %+v, want %+v", def, c.defattr)
			}
		})
	}
	if !(FileEntry{Path: "/a/*.so"}).Glob() || (FileEntry{Path: "/a/b"}).Glob() {
		t.Error("Glob")
	}
}
