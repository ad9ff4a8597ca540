package buildapi

import (
	"encoding/xml"
	"testing"
)

// TestDirectoryAppendXML: the directory renders itself byte for byte as xml.MarshalIndent does,
// for no entries, plain names and names that need escaping (quotes, markup, control
// characters, non-ASCII, invalid UTF-8).
func TestDirectoryAppendXML(t *testing.T) {
	for _, names := range [][]string{nil, {}, {"a"}, {"forge-utils", "libforge"},
		{`q"uote`, "apo's", "a&b", "<tag>", "tab\there", "new\nline", "cr\rx", "ünïcødé", "bad\xffutf8", "\x00nul", "\u2028sep", "ok"}} {
		d := newDirectory(names)
		want, err := xml.MarshalIndent(d, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := d.appendXML(nil); string(got) != string(want) {
			t.Errorf("%q:\n got %q\nwant %q", names, got, want)
		}
	}
}

// FuzzDirectoryAppendXML: any name renders as encoding/xml renders it.
func FuzzDirectoryAppendXML(f *testing.F) {
	f.Add("forge-utils", `a"b<c>&'`)
	f.Fuzz(func(t *testing.T, a, b string) {
		d := newDirectory([]string{a, b})
		want, err := xml.MarshalIndent(d, "", "  ")
		if err != nil {
			t.Skip()
		}
		if got := d.appendXML(nil); string(got) != string(want) {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}
