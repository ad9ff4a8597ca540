package apidocs

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Operation is one operation of an OpenAPI document, as the docs page lists it and the route
// tests compare it with the bound routes.
type Operation struct {
	Method     string // upper case
	Path       string // the document's path template, {param} style
	Summary    string
	Tag        string // the first tag; "" without one
	Deprecated bool
	// Servers are the operation's effective server URLs: its own, else its path's, else the
	// document's (the cloud API names /v4beta for the beta-only operations).
	Servers []string
}

// Index is what the docs page needs of a document: its title and description, its tags in
// the document's order and its operations.
type Index struct {
	Title       string
	Version     string
	Description string
	Tags        []Tag
	Operations  []Operation
}

// Tag is a tag of a document with its description.
type Tag struct{ Name, Description string }

type server struct {
	URL string `yaml:"url"`
}

type operation struct {
	Summary    string   `yaml:"summary"`
	Tags       []string `yaml:"tags"`
	Deprecated bool     `yaml:"deprecated"`
	Servers    []server `yaml:"servers"`
}

// methods are the path item's operation keys (OpenAPI 3.1), in the order the page lists them.
var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// Parse reads an OpenAPI document's title, tags and operations (sorted by path, then method
// in the order of methods). It reads only what it lists; validating the document is the
// tests' work.
func Parse(doc []byte) (*Index, error) {
	var d struct {
		Info struct {
			Title       string `yaml:"title"`
			Version     string `yaml:"version"`
			Description string `yaml:"description"`
		} `yaml:"info"`
		Servers []server                        `yaml:"servers"`
		Tags    []Tag                           `yaml:"tags"`
		Paths   map[string]map[string]yaml.Node `yaml:"paths"`
	}
	if err := yaml.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("apidocs: %w", err)
	}
	ix := &Index{Title: d.Info.Title, Version: d.Info.Version, Description: d.Info.Description, Tags: d.Tags}
	for i := range ix.Tags {
		ix.Tags[i].Description = strings.TrimSpace(ix.Tags[i].Description)
	}
	paths := make([]string, 0, len(d.Paths))
	for p := range d.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		item := d.Paths[p]
		pathServers := d.Servers
		if n, ok := item["servers"]; ok {
			if err := n.Decode(&pathServers); err != nil {
				return nil, fmt.Errorf("apidocs: %s servers: %w", p, err)
			}
		}
		for _, m := range methods {
			n, ok := item[m]
			if !ok {
				continue
			}
			var op operation
			if err := n.Decode(&op); err != nil {
				return nil, fmt.Errorf("apidocs: %s %s: %w", m, p, err)
			}
			servers := op.Servers
			if servers == nil {
				servers = pathServers
			}
			o := Operation{Method: strings.ToUpper(m), Path: p, Summary: op.Summary, Deprecated: op.Deprecated}
			if len(op.Tags) > 0 {
				o.Tag = op.Tags[0]
			}
			for _, s := range servers {
				o.Servers = append(o.Servers, s.URL)
			}
			ix.Operations = append(ix.Operations, o)
		}
	}
	return ix, nil
}
