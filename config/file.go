package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"gopkg.in/yaml.v3"
)

// readFile reads the YAML config file at path and returns one setting per key, each still a
// raw string with its line number. The file is decoded as a yaml.Node rather than into a struct
// so that values reach the same parse functions as flags and variables (no second set of YAML
// type rules), and so that every complaint can name its line.
func readFile(path string) ([]setting, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, unwrapPathError(err))
	}
	root, err := decodeOne(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("config file %s: %s", path, err)
	}
	if root == nil {
		return nil, nil // empty file, or only comments: no values
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("config file %s: line %d: want a mapping of flag names to values, found %s",
			path, root.Line, kindName(root))
	}
	var out []setting
	seen := make(map[string]int)
	for i := 0; i+1 < len(root.Content); i += 2 {
		s, err := fileSetting(root.Content[i], root.Content[i+1], path, seen)
		if err != nil {
			return nil, err
		}
		if s.opt != nil {
			out = append(out, s)
		}
	}
	return out, nil
}

// decodeOne decodes the single YAML document in r. It returns nil for an empty stream and an
// error for a second document, which would otherwise be ignored without a word.
func decodeOne(r io.Reader) (*yaml.Node, error) {
	dec := yaml.NewDecoder(r)
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, yamlError(err)
		}
		return nil, fmt.Errorf("line %d: more than one YAML document", content(&extra).Line)
	}
	root := content(&doc)
	if root.Kind == yaml.DocumentNode || root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, nil // "---" alone, or a document holding only null
	}
	return root, nil
}

// content returns the node a document node wraps, or n itself.
func content(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return n.Content[0]
	}
	return n
}

// fileSetting checks one key/value pair of the top-level mapping. It returns a setting with a
// nil opt for a null value ("addr:" or "addr: ~"), which leaves the option to the default.
func fileSetting(key, val *yaml.Node, path string, seen map[string]int) (setting, error) {
	if key.Kind != yaml.ScalarNode {
		return setting{}, fmt.Errorf("config file %s: line %d: keys must be flag names, found %s",
			path, key.Line, kindName(key))
	}
	name := key.Value
	if prev, dup := seen[name]; dup {
		return setting{}, fmt.Errorf("config file %s: line %d: key %q repeats line %d", path, key.Line, name, prev)
	}
	seen[name] = key.Line
	o := lookupOption(name)
	switch {
	case name == "config":
		return setting{}, fmt.Errorf("config file %s: line %d: key \"config\" not allowed: a config file cannot name another one",
			path, key.Line)
	case o == nil:
		return setting{}, fmt.Errorf("config file %s: line %d: unknown key %q (keys are flag names such as addr or body-limit)",
			path, key.Line, name)
	}
	if val.Kind == yaml.AliasNode && val.Alias != nil {
		val = val.Alias
	}
	if val.Kind != yaml.ScalarNode {
		return setting{}, fmt.Errorf("config file %s: line %d: value for %s must be a single value, found %s",
			path, val.Line, name, kindName(val))
	}
	if val.Tag == "!!null" {
		return setting{}, nil
	}
	return setting{opt: o, value: val.Value, file: path, line: val.Line}, nil
}

// yamlError turns a yaml.v3 error into one line without the "yaml: " prefix, keeping its
// "line N:" so the message reads like the package's own.
func yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.ReplaceAll(strings.TrimSpace(msg), "\n", "; ")
	return errors.New(msg)
}

// unwrapPathError drops the *fs.PathError wrapper, whose text repeats the file name.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// kindName names a node's kind in the words a user of the file would use.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		return fmt.Sprintf("the single value %q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}
