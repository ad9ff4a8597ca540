package xmlindent

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// TestEscapeIsEscapeText: Escape writes what encoding/xml writes for text and attribute
// values, on the fast path (printable ASCII) and after it, wherever the first byte to escape
// falls.
func TestEscapeIsEscapeText(t *testing.T) {
	for _, s := range []string{"", "plain", "&", "a&", "&a", `<>"'`, "tab\there", "nl\n", "cr\r", "\x00\x01\x1f\x7f",
		"ünï", "x ✓ 𝄞", "\xff", "a\xc3", "\uFFFE", "\U0010FFFF", "]]>"} {
		var want bytes.Buffer
		xml.EscapeText(&want, []byte(s))
		if got := Escape([]byte("prefix"), s); string(got) != "prefix"+want.String() {
			t.Errorf("Escape(%q) = %q, want %q", s, got[6:], want.String())
		}
	}
}

// TestNesting: elements nested and side by side, with and without children, at depth 0 and
// deeper, as encoding/xml indents them.
func TestNesting(t *testing.T) {
	type leaf struct {
		A string `xml:"a,attr,omitempty"`
	}
	type mid struct {
		Leaves []leaf `xml:"leaf"`
		Text   string `xml:"text"`
	}
	type root struct {
		XMLName xml.Name `xml:"root"`
		Empty   *mid     `xml:"empty"`
		Mid     mid      `xml:"mid"`
	}
	want, err := xml.MarshalIndent(root{Empty: &mid{}, Mid: mid{Leaves: []leaf{{A: "1"}, {}}, Text: "t"}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	w := New(nil, 0)
	w.Open("root")
	w.Open("empty")
	w.Text("text", "", false)
	w.Close("empty")
	w.Open("mid")
	w.Empty("leaf", Opt("a", "1"))
	w.Empty("leaf", Opt("a", ""))
	w.Text("text", "t", true)
	w.Close("mid")
	w.Close("root")
	if string(w.Bytes()) != string(want) {
		t.Fatalf("\n%s\nwant\n%s", w.Bytes(), want)
	}
}
