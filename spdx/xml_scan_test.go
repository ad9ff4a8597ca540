package spdx

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/fixtures/explorergen"
)

// xmlCases are documents at the edges of XML's syntax, each with what the scanner must make of
// it: "ok" and "refused" as encoding/xml does, "stricter" where the scanner refuses what
// encoding/xml accepts (xmlScanner's doc comment names the three cases). They seed
// FuzzXMLScanner, and TestXMLScannerCases checks them on every test run.
var xmlCases = []struct{ doc, want string }{
	{``, "ok"},
	{`<a/>`, "ok"},
	{`<a></a>`, "ok"},
	{` text <a>x</a> text `, "ok"},
	{`<a/><b/>`, "ok"},
	{"\xef\xbb\xbf<a/>", "ok"},
	{`<a b="1" c='2' d = "3"/>`, "ok"},
	{`<a b="1"c="2"/>`, "ok"},
	{`<a b="1" b="2"/>`, "ok"},
	{`<a b="x>y]]>z'"/>`, "ok"},
	{`<a b='"'/>`, "ok"},
	{`<r:a xmlns:r="u" r:b="1"><r:c/></r:a>`, "ok"},
	{`<:a :b="1"></:a>`, "ok"},
	{`<a: b:="1"></a:>`, "ok"},
	{`<_.-x1/>`, "ok"},
	{`<a>&lt;&gt;&amp;&apos;&quot;&#65;&#x41;&#X41;</a>`, "refused"},
	{`<a>&lt;&gt;&amp;&apos;&quot;&#65;&#x41;&#x1F600;&#0065;</a>`, "ok"},
	{`<a b="&lt;&#x9;&#10;"/>`, "ok"},
	{`<a>&#xD800;</a>`, "stricter"},
	{`<a b="&#xDFFF;"/>`, "stricter"},
	{`<a>&#0;</a>`, "refused"},
	{`<a>&#xFFFE;</a>`, "refused"},
	{`<a>&#x110000;</a>`, "refused"},
	{`<a>&#99999999999999999999999;</a>`, "refused"},
	{`<a>&#;</a>`, "refused"},
	{`<a>&#x;</a>`, "refused"},
	{`<a>&#65</a>`, "refused"},
	{`<a>&amp</a>`, "refused"},
	{`<a>&</a>`, "refused"},
	{`<a>&;</a>`, "refused"},
	{`<a>& b;</a>`, "refused"},
	{`<a>&nbsp;</a>`, "refused"},
	{`<a>&é;</a>`, "refused"},
	{`<a b="&x"/>`, "refused"},
	{`<a><![CDATA[x]y]]z<&>]]></a>`, "ok"},
	{`<a><![CDATA[]]></a>`, "ok"},
	{`<a><![CDATA[x]]]></a>`, "ok"},
	{`<a><![CDAT[x]]></a>`, "refused"},
	{`<a><![CDATA[x</a>`, "refused"},
	{`<a>]]></a>`, "refused"},
	{`<a>]]]></a>`, "refused"},
	{`<a>]] ></a>`, "ok"},
	{`<a>]]&gt;</a>`, "ok"},
	{"<a>x\r\ny\rz\r\r\n</a>", "ok"},
	{"<a b=\"x\r\ny\rz\"/>", "ok"},
	{"<a\r\n\tb\r=\n'1'\t/>", "ok"},
	{"<a><![CDATA[\r\n\r]]></a>", "ok"},
	{"<a>&#13;\n</a>", "ok"},
	{"<a>\t\x7f</a>", "ok"},
	{"<a>\x01</a>", "refused"},
	{"<a b=\"\x00\"/>", "refused"},
	{"<a>\xff</a>", "refused"},
	{"<a>\xc3</a>", "refused"},
	{"<a>\xed\xa0\x80</a>", "refused"},
	{"<a>\xef\xbf\xbe</a>", "refused"},
	{"<a>é\U0001F600</a>", "ok"},
	{"<!-- \xff --><a/>", "stricter"},
	{"<?x \xc3?><a/>", "stricter"},
	{"<!DOCTYPE a [<!ENTITY x '\xed\xa0\x80'>]><a/>", "stricter"},
	{"<!-- \U0001F600 --><?x é?><!DOCTYPE é><a/>", "ok"},
	{"<é/>", "stricter"},
	{"<a é='1'/>", "stricter"},
	{"<a\xff/>", "refused"},
	{"<a\u00a0/>", "refused"},
	{`<?xml version="1.0" encoding="UTF-8"?><a/>`, "ok"},
	{`<?xml version='1.0' encoding='utf-8' standalone='yes'?><a/>`, "ok"},
	{`<?xml?><a/>`, "ok"},
	{`<?xml version="1.1"?><a/>`, "refused"},
	{`<?xml version="1.0" encoding="ISO-8859-1"?><a/>`, "refused"},
	{`<?xml-stylesheet href="a.xsl"?><a><?pi data??></a>`, "ok"},
	{`<?x?><a/>`, "ok"},
	{`<?a:b:c x?><a/>`, "ok"},
	{`<??><a/>`, "refused"},
	{`<?1?><a/>`, "refused"},
	{`<?x ?`, "refused"},
	{`<!-- a - b --><a/>`, "ok"},
	{`<!----><a/>`, "ok"},
	{`<!-- a -- b --><a/>`, "refused"},
	{`<!-- a ---><a/>`, "refused"},
	{`<!--->`, "refused"},
	{`<!-x--><a/>`, "refused"},
	{`<!DOCTYPE a><a/>`, "ok"},
	{`<!DOCTYPE a [<!ENTITY x "y"> <!-- > --> <!ATTLIST a b CDATA "x>y">]><a/>`, "ok"},
	{`<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`, "refused"},
	{`<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>`, "refused"},
	{`<!a<!b>><a/>`, "ok"},
	{`<!'>'><a/>`, "ok"},
	{`<!>><a/>`, "ok"},
	{`<!x <> ><a/>`, "ok"},
	{`<!x <!-> ><a/>`, "ok"},
	{`<!x <!-- -- --> ><a/>`, "ok"},
	{`<!DOCTYPE a [`, "refused"},
	{`<a></b>`, "refused"},
	{`<r:a></s:a>`, "refused"},
	{`<a><b></a></b>`, "refused"},
	{`<a>`, "refused"},
	{`<a><b/>`, "refused"},
	{`</a>`, "refused"},
	{`<a></a ><b></b	>`, "ok"},
	{`<a></a b>`, "refused"},
	{`<a></>`, "refused"},
	{`<a b=1/>`, "refused"},
	{`<a b/>`, "refused"},
	{`<a b=/>`, "refused"},
	{`<a "b"/>`, "refused"},
	{`<a b="1/>`, "refused"},
	{`<a b="<"/>`, "refused"},
	{`<a b="&<0"`, "refused"},
	{`<a/ >`, "refused"},
	{`<1a/>`, "refused"},
	{`<-a/>`, "refused"},
	{`<a:b:c/>`, "refused"},
	{`<a b:c:d="1"/>`, "refused"},
	{`< a/>`, "refused"},
	{`<>`, "refused"},
	{`<`, "refused"},
	{`<a`, "refused"},
	{`<a b="1"`, "refused"},
	{`<a b="`, "refused"},
	{`<a>x`, "refused"},
	{`<a>&amp;`, "refused"},
	{`<a/>&`, "refused"},
}

// xmlSeedDocs are whole documents for FuzzXMLScanner to start from: the test repository's, and
// a small generated product's as createrepo_c writes them.
func xmlSeedDocs(t testing.TB) [][]byte {
	docs := [][]byte{[]byte(primaryXML(testRPMs)), []byte(filelistsXML(testRPMs))}
	p := explorergen.Generate(explorergen.Options{Seed: 1, Packages: 3, FilesPerPackage: 4,
		Products: []explorergen.ProductSpec{{Packages: 3}}})[0]
	for name, data := range p.Repodata {
		if !strings.HasSuffix(name, ".gz") {
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
	}
	return docs
}

// scanTokens runs an xmlScanner over doc, reading it through r, and returns its tokens (as
// tokenString writes them, adjacent character data joined) and its error.
func scanTokens(r io.Reader, bufSize int, maxToken int64) ([]string, error) {
	lim := defaultLimits
	lim.xmlToken, lim.xmlDepth = maxToken, 1<<20
	x := newXMLScannerSize(r, lim, nil, bufSize)
	var toks []string
	var text []byte
	for {
		err := x.next()
		if x.kind != xmlText || err != nil {
			if text != nil {
				toks, text = append(toks, fmt.Sprintf("T%q", text)), nil
			}
		}
		if err == io.EOF {
			return toks, nil
		}
		if err != nil {
			return toks, err
		}
		switch x.kind {
		case xmlStart:
			var attrs []string
			for _, a := range x.attrs {
				attrs = append(attrs, fmt.Sprintf("%s=%q", a.name, a.value))
			}
			toks = append(toks, tokenString(string(x.name), attrs))
		case xmlEnd:
			toks = append(toks, "</"+string(x.name)+">")
		case xmlText:
			text = append(text, x.text...)
			if text == nil {
				text = []byte{}
			}
		}
	}
}

func tokenString(name string, attrs []string) string {
	return "<" + name + " " + strings.Join(attrs, " ") + ">"
}

// stdTokens is scanTokens for encoding/xml: whether Decoder.Token accepts the whole of doc,
// and the tokens of Decoder.RawToken, which are the same with the names as written.
func stdTokens(doc []byte) ([]string, error) {
	dec := xml.NewDecoder(bytes.NewReader(doc))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
	}
	raw := func(n xml.Name) string {
		if n.Space != "" {
			return n.Space + ":" + n.Local
		}
		return n.Local
	}
	dec = xml.NewDecoder(bytes.NewReader(doc))
	var toks []string
	var text []byte
	for {
		tok, err := dec.RawToken()
		switch tok.(type) {
		case xml.CharData, xml.Comment, xml.ProcInst, xml.Directive:
		default: // an element or the end: the scanner skips the others, joining the text around them
			if text != nil {
				toks, text = append(toks, fmt.Sprintf("T%q", text)), nil
			}
		}
		if err == io.EOF {
			return toks, nil
		}
		if err != nil {
			return nil, fmt.Errorf("RawToken after Token accepted: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			var attrs []string
			for _, a := range t.Attr {
				attrs = append(attrs, fmt.Sprintf("%s=%q", raw(a.Name), a.Value))
			}
			toks = append(toks, tokenString(raw(t.Name), attrs))
		case xml.EndElement:
			toks = append(toks, "</"+raw(t.Name)+">")
		case xml.CharData:
			text = append(text, t...)
			if text == nil {
				text = []byte{}
			}
		}
	}
}

// compareWithStd checks the scanner against encoding/xml on doc and returns "ok", "refused"
// or "stricter". It also checks that the scanner reads doc alike through a buffer that every
// token overflows and a byte at a time, token limit included.
func compareWithStd(t *testing.T, doc []byte) string {
	t.Helper()
	ours, err := scanTokens(bytes.NewReader(doc), xmlScanBuffer, 1<<20)
	std, stdErr := stdTokens(doc)
	var verdict string
	switch {
	case err == nil && stdErr == nil:
		if !reflect.DeepEqual(ours, std) {
			t.Fatalf("%q: tokens differ\nscanner:      %q\nencoding/xml: %q", doc, ours, std)
		}
		verdict = "ok"
	case err == nil:
		t.Fatalf("%q: accepted, encoding/xml refuses: %v\ntokens %q", doc, stdErr, ours)
	case stdErr != nil:
		verdict = "refused"
	case strings.Contains(err.Error(), "only ASCII names are read") && bytes.ContainsFunc(doc, func(r rune) bool { return r >= 0x80 }),
		strings.Contains(err.Error(), "to a surrogate") && bytes.Contains(doc, []byte("&#")),
		strings.Contains(err.Error(), "invalid UTF-8") && !utf8.Valid(doc):
		verdict = "stricter"
	default:
		t.Fatalf("%q: refused (%v), encoding/xml accepts it as %q", doc, err, std)
	}
	var syntax *xmlSyntaxError
	if err != nil && !errors.As(err, &syntax) {
		t.Fatalf("%q: %v is not a syntax error", doc, err)
	}
	for _, maxToken := range []int64{1 << 20, 8} {
		want, wantErr := scanTokens(bytes.NewReader(doc), xmlScanBuffer, maxToken)
		for _, size := range []int{1, 5} {
			got, gotErr := scanTokens(iotest.OneByteReader(bytes.NewReader(doc)), size, maxToken)
			if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("%q: buffer of %d, token limit %d, a byte at a time:\n%q, %v\nwant %q, %v",
					doc, size, maxToken, got, gotErr, want, wantErr)
			}
		}
	}
	return verdict
}

// FuzzXMLScanner checks that xmlScanner accepts exactly what encoding/xml's strict decoder
// accepts, with the same tokens, but for the three cases it refuses on purpose; and that how the
// input arrives (buffer size, a byte at a time) changes nothing, errors and token limit
// included.
func FuzzXMLScanner(f *testing.F) {
	for _, c := range xmlCases {
		f.Add([]byte(c.doc))
	}
	for _, doc := range xmlSeedDocs(f) {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		compareWithStd(t, doc)
	})
}

// TestXMLScannerCases checks the edge cases one by one, so a change of verdict names its case.
func TestXMLScannerCases(t *testing.T) {
	for _, c := range xmlCases {
		if got := compareWithStd(t, []byte(c.doc)); got != c.want {
			t.Errorf("%q: %s, want %s", c.doc, got, c.want)
		}
	}
	for _, doc := range xmlSeedDocs(t) {
		if got := compareWithStd(t, doc); got != "ok" {
			t.Errorf("%.100q…: %s", doc, got)
		}
	}
}
