package xpath

import (
	"bytes"
	"encoding/xml"
	"testing"
	"time"

	"github.com/antchfx/xmlquery"
)

type docRole struct {
	ID   string `xml:"userid,attr"`
	Role string `xml:"role,attr,omitempty"`
}

type docFlag struct {
	XMLName xml.Name
	Arch    string `xml:"arch,attr,omitempty"`
}

type docFlags struct {
	Entries []docFlag `xml:",any"`
}

type docBlocks struct {
	Build   *docFlags `xml:"build"`
	Publish *docFlags `xml:"publish"`
}

type docText struct {
	Lang string `xml:"lang,attr,omitempty"`
	Text string `xml:",chardata"`
}

type docPackage struct {
	XMLName xml.Name  `xml:"package"`
	Name    string    `xml:"name,attr"`
	Project *string   `xml:"project,attr"`
	Count   int       `xml:"count,attr,omitempty"`
	Ratio   float64   `xml:"ratio,attr,omitempty"`
	Title   *string   `xml:"title"`
	Desc    docText   `xml:"description"`
	Empty   string    `xml:"empty"`
	Skipped string    `xml:"skipped,omitempty"`
	Bool    bool      `xml:"bool"`
	Persons []docRole `xml:"person"`
	Groups  []docRole `xml:"group"`
	Hidden  string    `xml:"-"`
	Bytes   []byte    `xml:"bytes,omitempty"`
	Struct  struct{}  `xml:"always,omitempty"`
	docBlocks
	private string
}

type docDated struct {
	XMLName xml.Name  `xml:"dated"`
	When    time.Time `xml:"when,attr"`
}

type docNested struct {
	XMLName xml.Name `xml:"nested"`
	Deep    string   `xml:"a>b"`
}

// TestDocument: the tree Document builds is the one xmlquery parses from xml.Marshal's bytes,
// also for the shapes it hands to them.
func TestDocument(t *testing.T) {
	prj, title := "devel:tools", "Hello & <World>"
	cases := map[string]any{
		"full": docPackage{Name: "hello", Project: &prj, Count: 3, Ratio: 0.5, Title: &title,
			Desc: docText{Lang: "en", Text: "The GNU Hello 'program'"}, Bool: true,
			Persons: []docRole{{"alice", "maintainer"}, {"bob", ""}}, Bytes: []byte("raw"),
			docBlocks: docBlocks{Build: &docFlags{[]docFlag{{XMLName: xml.Name{Local: "enable"}}, {XMLName: xml.Name{Local: "disable"}, Arch: "i586"}}}},
			private:   "x"},
		"empty":          docPackage{},
		"pointer":        &docPackage{Name: "p"},
		"time fallback":  docDated{When: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)},
		"path fallback":  docNested{Deep: "x"},
		"flag by itself": docFlag{XMLName: xml.Name{Local: "enable"}, Arch: "x86_64"},
	}
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Document(v)
			if err != nil {
				t.Fatal(err)
			}
			b, err := xml.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			want, err := xmlquery.Parse(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := root(got).OutputXML(true), root(want).OutputXML(true); g != w {
				t.Fatalf("Document:\n%s\nxml.Marshal:\n%s", g, w)
			}
		})
	}
	q, err := Compile("package", `person[@userid='bob'] and contains(title, 'world') and description="The GNU Hello 'program'"`)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := Document(cases["full"])
	if !q.Match(d) {
		t.Fatal("a built document does not match")
	}
}

// root is the document's element (a parsed one may start with other nodes).
func root(doc *xmlquery.Node) *xmlquery.Node {
	for n := doc.FirstChild; n != nil; n = n.NextSibling {
		if n.Type == xmlquery.ElementNode {
			return n
		}
	}
	return doc
}
