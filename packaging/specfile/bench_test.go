package specfile

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/bench"
)

// benchSpec builds a realistic 300-line spec: the libpocket spec from the corpus, plus plugin
// subpackages (preamble, conditionals, description, %files) until it has 300 lines.
func benchSpec(tb testing.TB) []byte {
	data, err := os.ReadFile("testdata/libpocket.spec")
	if err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	b.Write(data)
	for i := 0; strings.Count(b.String(), "\n") < 300; i++ {
		fmt.Fprintf(&b, `
%%package plugin-%d
Summary:        Plugin %d for %%{name}
Requires:       %%{name}%%{sover}%%{?_isa} = %%{version}-%%{release}
%%if 0%%{?pocket_version} >= 100
Recommends:     pocket-extra-%d >= 1.%d
%%endif

%%description plugin-%d
Plugin number %d for %%{name}, built with %%{optflags}.

%%files plugin-%d
%%{_libdir}/pocket/plugin-%d.so
`, i, i, i, i, i, i, i, i)
	}
	lines := strings.SplitAfter(b.String(), "\n")
	return []byte(strings.Join(lines[:300], ""))
}

// BenchmarkParse times Parse of a 300-line spec against a raw walk over its lines
// (bytes.Split and a look at each line's first byte), the least any spec reader must do.
func BenchmarkParse(b *testing.B) {
	data := benchSpec(b)
	if n := bytes.Count(data, []byte("\n")); n != 300 {
		b.Fatalf("bench spec has %d lines", n)
	}
	opt := Options{Arch: "x86_64", Macros: map[string]string{"dist": ".pocket1", "pocket_version": "100"}}
	if _, err := Parse(data, opt); err != nil {
		b.Fatal(err)
	}
	sink := 0
	b.ReportAllocs()
	bench.Compare(b, 1, func(int) {
		s, err := Parse(data, opt)
		if err != nil {
			b.Fatal(err)
		}
		sink += len(s.Packages)
	}, func(int) {
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(l) > 0 && (l[0] == '%' || bytes.IndexByte(l, ':') > 0) {
				sink++
			}
		}
	})
	if sink == 0 {
		b.Fatal("nothing parsed")
	}
}

// BenchmarkVercmp times Vercmp over rpm's test table against a plain string comparison.
func BenchmarkVercmp(b *testing.B) {
	sink := 0
	bench.Compare(b, 1, func(i int) {
		c := rpmVercmpCases[i%len(rpmVercmpCases)]
		sink += Vercmp(c.a, c.b)
	}, func(i int) {
		c := rpmVercmpCases[i%len(rpmVercmpCases)]
		sink += strings.Compare(c.a, c.b)
	})
	_ = sink
}
