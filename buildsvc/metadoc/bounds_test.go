package metadoc

import (
	"encoding/xml"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// repeat returns a <project> meta with n copies of elem.
func repeat(elem string, n int, tail string) []byte {
	return []byte(`<project name="p"><title/><description/>` + strings.Repeat(elem, n) + tail + `</project>`)
}

// TestUnmarshalBounds: a document over a bound is refused with the element and the bound named,
// as soon as the decoder reaches the element too many (a syntax error after it is never read);
// a document at the bound decodes as xml.Unmarshal decodes it.
func TestUnmarshalBounds(t *testing.T) {
	cases := []struct {
		name string
		doc  []byte
		want *TooManyError
	}{
		{"persons at the bound", repeat(`<person userid="a" role="maintainer"/>`, MaxEntries["person"], ""), nil},
		{"one person too many", repeat(`<person userid="a" role="maintainer"/>`, MaxEntries["person"]+1, ""), &TooManyError{Element: "person", Bound: 10000}},
		{"200,000 persons, broken at the end", repeat(`<person userid="a" role="maintainer"/>`, 200000, "<<<"), &TooManyError{Element: "person", Bound: 10000}},
		{"groups", repeat(`<group groupid="g" role="reviewer"/>`, 1001, ""), &TooManyError{Element: "group", Bound: 1000}},
		{"repositories", repeat(`<repository name="r"/>`, 1001, ""), &TooManyError{Element: "repository", Bound: 1000}},
		{"paths", repeat(`<repository name="r">`+strings.Repeat(`<path project="a" repository="b"/>`, 5001)+`</repository>`, 2, ""), &TooManyError{Element: "path", Bound: 10000}},
		{"flags", repeat(`<build>`+strings.Repeat(`<disable arch="x"/>`, 10001)+`</build>`, 1, ""), &TooManyError{Element: "disable", Bound: 10000}},
		{"any element", repeat(`<unknown/>`, MaxElements, ""), &TooManyError{Element: "", Bound: MaxElements}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got Project
			err := Unmarshal(c.doc, &got)
			if c.want == nil {
				var want Project
				if err != nil || xml.Unmarshal(c.doc, &want) != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("err %v, or not what xml.Unmarshal decodes", err)
				}
				return
			}
			var tooMany *TooManyError
			if !errors.As(err, &tooMany) || *tooMany != *c.want {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), "at most") {
				t.Fatalf("message %q does not name the bound", err)
			}
		})
	}
}

// TestUnmarshalAsXML: within the bounds, Unmarshal decodes and fails as xml.Unmarshal does.
func TestUnmarshalAsXML(t *testing.T) {
	for _, doc := range []string{
		`<project name="a" xmlns="urn:x"><title>T</title><description/><person userid="u" role="bugowner"/></project>`,
		`<project name="a"><title>T</title><description>d</description><repository name="r"><path project="p" repository="s"/><arch>x86_64</arch></repository><build><enable/><disable arch="i586"/></build></project>`,
		`<project name="a"><title>T</title></project`,
		`<project name="a"><title>T</wrong></project>`,
		`<package name="a"/>`,
		``,
		"<project name=\"\xff\"/>",
	} {
		var got, want Project
		err, wantErr := Unmarshal([]byte(doc), &got), xml.Unmarshal([]byte(doc), &want)
		if !reflect.DeepEqual(got, want) || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("%s:\n got %+v, %v\nwant %+v, %v", doc, got, err, want, wantErr)
		}
	}
}

// TestTextBound (issue 32): an element's text over MaxText is refused, naming the element and
// the bound; text up to it passes, also split by entities and CDATA.
func TestTextBound(t *testing.T) {
	var v struct {
		Title       string `xml:"title"`
		Description string `xml:"description"`
	}
	ok := "<project name=\"p\"><title>" + strings.Repeat("t", MaxText-10) + "&amp;<![CDATA[x]]></title><description/></project>"
	if err := Unmarshal([]byte(ok), &v); err != nil || len(v.Title) != MaxText-8 {
		t.Fatalf("a title within the bound: %v (%d bytes)", err, len(v.Title))
	}
	long := "<project name=\"p\"><title>t</title><description>" + strings.Repeat("d", 30000) + "&lt;" + strings.Repeat("d", 40000) + "</description></project>"
	err := Unmarshal([]byte(long), &v)
	var tooMany *TooManyError
	if !errors.As(err, &tooMany) || err.Error() != "the text of <description> is longer than 65535 bytes: an element carries at most 65535" {
		t.Fatalf("a 70,000-byte description: %v", err)
	}
}
