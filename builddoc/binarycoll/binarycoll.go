// Package binarycoll is the published binary collection in one place: the build service's
// answer to GET /search/published/binary/id, <collection matches="…"><binary name= project=
// package= repository= version= release= arch= filename= filepath= baseproject= type=/>…,
// as OBS's backend writes it. The build API renders its search hits as Binary elements
// (api/buildapi), and the explorer's remote backend reads a remote build service's answer
// into a Collection (explorersvc/remote): one description of the element for both.
package binarycoll

import "encoding/xml"

// Binary is one published binary, its attributes in the order OBS writes them; package and
// baseproject are left out when empty.
type Binary struct {
	XMLName     xml.Name `xml:"binary"`
	Name        string   `xml:"name,attr"`
	Project     string   `xml:"project,attr"`
	Package     string   `xml:"package,attr,omitempty"`
	Repository  string   `xml:"repository,attr"`
	Version     string   `xml:"version,attr"`
	Release     string   `xml:"release,attr"`
	Arch        string   `xml:"arch,attr"`
	Filename    string   `xml:"filename,attr"`
	Filepath    string   `xml:"filepath,attr"`
	BaseProject string   `xml:"baseproject,attr,omitempty"`
	Type        string   `xml:"type,attr"`
}

// Collection is the answer as a client reads it: its binaries (the element's name and its
// matches count are not checked).
type Collection struct {
	Binaries []Binary `xml:"binary"`
}
