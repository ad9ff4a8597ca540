package rpmout

import (
	"bufio"
	"bytes"
	"testing"
)

func TestXMLEscape(t *testing.T) {
	for _, tc := range []struct {
		in, text, attr string
	}{
		{"plain", "plain", "plain"},
		{"", "", ""},
		{"a<b>&c", "a&lt;b&gt;&amp;c", "a&lt;b&gt;&amp;c"},
		{`"q" 'a'`, `"q" 'a'`, `&quot;q&quot; 'a'`},
		{"t\tl\nr\r", "t\tl\nr&#13;", "t&#9;l&#10;r&#13;"},
		{"nul\x00bell\x07", "nul\uFFFDbell\uFFFD", "nul\uFFFDbell\uFFFD"},
		{"bad\xff\xfeutf8", "bad\uFFFD\uFFFDutf8", "bad\uFFFD\uFFFDutf8"},
		{"nonchar\uFFFE\uFFFF", "nonchar\uFFFD\uFFFD", "nonchar\uFFFD\uFFFD"},
		{"démo 日本 🙂", "démo 日本 🙂", "démo 日本 🙂"},
	} {
		for _, inAttr := range []bool{false, true} {
			var buf bytes.Buffer
			x := xmlWriter{w: bufio.NewWriter(&buf)}
			x.escape(tc.in, inAttr)
			x.w.Flush()
			want := tc.text
			if inAttr {
				want = tc.attr
			}
			if buf.String() != want {
				t.Errorf("escape(%q, attr=%v) = %q, want %q", tc.in, inAttr, buf.String(), want)
			}
		}
	}
}
