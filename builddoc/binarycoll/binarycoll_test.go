package binarycoll

import (
	"encoding/xml"
	"reflect"
	"testing"
)

// TestWrittenAsOBSWrites: a binary is written with OBS's attributes in OBS's order (package
// and baseproject left out when empty), escaped, and reads back as written.
func TestWrittenAsOBSWrites(t *testing.T) {
	in := []Binary{
		{Name: "bash", Project: "openSUSE:Factory", Package: "bash", Repository: "standard", Version: "5.2.37", Release: "1.1",
			Arch: "x86_64", Filename: "bash-5.2.37-1.1.x86_64.rpm", Filepath: "openSUSE:/Factory/standard/x86_64/bash-5.2.37-1.1.x86_64.rpm",
			BaseProject: "openSUSE:Factory", Type: "rpm"},
		{Name: "a&b", Project: "home:x", Repository: "my repo", Version: "1", Release: "0", Arch: "src",
			Filename: `a"b.src.rpm`, Filepath: "home:/x/my repo/src/a\"b.src.rpm", Type: "rpm"},
	}
	out, err := xml.MarshalIndent(struct {
		XMLName xml.Name `xml:"collection"`
		Items   []Binary
	}{Items: in}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want := `<collection>
  <binary name="bash" project="openSUSE:Factory" package="bash" repository="standard" version="5.2.37" release="1.1" arch="x86_64" filename="bash-5.2.37-1.1.x86_64.rpm" filepath="openSUSE:/Factory/standard/x86_64/bash-5.2.37-1.1.x86_64.rpm" baseproject="openSUSE:Factory" type="rpm"></binary>
  <binary name="a&amp;b" project="home:x" repository="my repo" version="1" release="0" arch="src" filename="a&#34;b.src.rpm" filepath="home:/x/my repo/src/a&#34;b.src.rpm" type="rpm"></binary>
</collection>`
	if string(out) != want {
		t.Errorf("written:\n%s\nwant\n%s", out, want)
	}
	var back Collection
	if err := xml.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	for i := range back.Binaries {
		back.Binaries[i].XMLName = xml.Name{}
	}
	if !reflect.DeepEqual(back.Binaries, in) {
		t.Errorf("read back:\n%+v\nwant\n%+v", back.Binaries, in)
	}
}

// TestReadsAnyRoot: a Collection reads the binaries of whatever the root element is called,
// and OBS's self-closed elements, as the explorer's remote backend always has.
func TestReadsAnyRoot(t *testing.T) {
	var c Collection
	if err := xml.Unmarshal([]byte(`<other matches="x"><binary name="n" project="p"/><ignored/></other>`), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Binaries) != 1 || c.Binaries[0].Name != "n" || c.Binaries[0].Project != "p" {
		t.Errorf("%+v", c)
	}
}
