package spdx

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// element3 is the union of the SPDX 3 @graph elements the explorer reads: software_Package,
// SpdxDocument and Relationship, in the compact JSON-LD form of the SPDX 3 context (the form
// generate_sbom and the SPDX tools write). Every other element type is read and dropped.
type element3 struct {
	Type   string `json:"type"`
	AtType string `json:"@type"`
	SpdxID string `json:"spdxId"`
	AtID   string `json:"@id"`
	Name   string `json:"name"`

	// SpdxDocument
	RootElement stringList `json:"rootElement"`

	// Relationship
	From             string     `json:"from"`
	To               stringList `json:"to"`
	RelationshipType string     `json:"relationshipType"`

	// software_Package
	PackageVersion     string               `json:"software_packageVersion"`
	PackageURL         string               `json:"software_packageUrl"`
	SourceInfo         string               `json:"software_sourceInfo"`
	PrimaryPurpose     string               `json:"software_primaryPurpose"`
	ExternalRef        []externalRef3       `json:"externalRef"`
	ExternalIdentifier []externalIdentifier `json:"externalIdentifier"`
}

// externalRef3 is an SPDX 3 ExternalRef. generate_sbom writes the VCS tag as externalRefType
// vcs and the DISTURL tag as externalRefType other with the comment obs-disturl.
type externalRef3 struct {
	ExternalRefType string     `json:"externalRefType"`
	Comment         string     `json:"comment"`
	Locator         stringList `json:"locator"`
}

// externalIdentifier is an SPDX 3 ExternalIdentifier; packageUrl ones carry a purl.
type externalIdentifier struct {
	ExternalIdentifierType string `json:"externalIdentifierType"`
	Identifier             string `json:"identifier"`
}

// stringList is a JSON-LD list of strings, which compaction may write as a single string.
type stringList []string

// UnmarshalJSON accepts a string or an array of strings.
func (l *stringList) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = stringList{s}
		return nil
	}
	return json.Unmarshal(b, (*[]string)(l))
}

// first returns the first string of the list, or "".
func (l stringList) first() string {
	if len(l) == 0 {
		return ""
	}
	return l[0]
}

// readElement3 reads @graph[i]. Elements are few next to the SPDX 2 packages array of a
// product and come in many shapes, so each is cut out by the lexer and decoded by
// encoding/json rather than read field by field.
func (p *docParser) readElement3(i int) error {
	raw := p.lx.raw()
	if p.lx.err != nil {
		return nil
	}
	var e element3
	if err := json.Unmarshal(raw, &e); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			err = &typeError{field: typ.Field, got: withArticle(typ.Value), want: jsonKind(typ.Type.Kind())}
		}
		return fmt.Errorf("%s: @graph[%d]: %v", p.source, i, err)
	}
	typ, id := e.Type, e.SpdxID
	if typ == "" {
		typ = e.AtType
	}
	if id == "" {
		id = e.AtID
	}
	switch typ {
	case "SpdxDocument":
		if p.docName == "" {
			p.docName = e.Name
		}
		p.addCandidates(e.RootElement...)
	case "Relationship":
		if strings.EqualFold(e.RelationshipType, "describes") {
			p.addCandidates(e.To...)
		}
	case "software_Package":
		return p.addPackage3(i, id, &e)
	}
	return nil
}

// addPackage3 maps a software_Package onto a Package through packageFrom, as for SPDX 2.
func (p *docParser) addPackage3(i int, id string, e *element3) error {
	refs := packageRefs{purl: e.PackageURL}
	for _, x := range e.ExternalIdentifier {
		if strings.EqualFold(x.ExternalIdentifierType, "packageUrl") {
			refs.setPurl(x.Identifier)
		}
	}
	for _, r := range e.ExternalRef {
		switch {
		case strings.EqualFold(r.ExternalRefType, "vcs"):
			refs.setVCS(r.Locator.first())
		case strings.EqualFold(r.ExternalRefType, "obs-disturl"),
			strings.EqualFold(r.ExternalRefType, "other") && r.Comment == "obs-disturl":
			refs.setDistURL(r.Locator.first())
		}
	}
	pkg, err := packageFrom(e.Name, e.PackageVersion, refs)
	if err != nil {
		return fmt.Errorf("%s: @graph[%d]: %v", p.source, i, err)
	}
	meta := packageMeta{
		id:   id,
		skip: isRepositoryPseudo(e.SourceInfo) || isOperatingSystem(e.PrimaryPurpose),
	}
	return p.addPackage("@graph", i, pkg, meta)
}

// jsonKind names the JSON type a Go kind decodes from.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	}
	return "a number"
}

// withArticle turns encoding/json's name of a JSON type ("number", "object") into the words
// the lexer's errors use ("a number", "an object").
func withArticle(kind string) string {
	switch kind {
	case "object", "array":
		return "an " + kind
	case "bool":
		return "a boolean"
	}
	return "a " + kind
}
