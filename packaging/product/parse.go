package product

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Parse reads a product definition (the productcompose subset the package comment describes)
// and checks it: the result has every required field, names in their charsets, known
// architectures, and package sets expanded. A problem with the definition is an *Error; only a
// failing reader gives another error.
func Parse(r io.Reader) (*Definition, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("product: reading the definition: %w", err)
	}
	if len(data) > MaxSize {
		return nil, errorf(0, "", "the definition is larger than %d bytes", MaxSize)
	}
	d, perr := parse(data)
	if perr != nil {
		return nil, perr
	}
	return d, nil
}

// yamlLine is how yaml.v3 words a syntax error.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parse reads the YAML document into nodes, which keep line numbers and the scalars' text as
// written ("1.10" stays "1.10", where product-composer's loader makes it the float 1.1).
func parse(data []byte) (d *Definition, perr *Error) {
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:invalidAt(data)], []byte("\n"))
		return nil, errorf(line, "", "the file is not UTF-8 text")
	}
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '<' {
		return nil, errorf(0, "", "this is XML (a kiwi or _product description?); a product definition is productcompose YAML")
	}
	// yaml.v3 has panicked on hostile input before (CVE-2022-28948); a definition is user
	// input, so a parser panic is the definition's error, not the farm's crash.
	defer func() {
		if p := recover(); p != nil {
			d, perr = nil, errorf(0, "", "the YAML parser failed: %v", p)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errorf(0, "", "the file is empty")
		}
		return nil, yamlError(err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, yamlError(err)
		}
		return nil, errorf(next.Line, "", "a second YAML document starts here; a definition is one document")
	}
	if len(doc.Content) != 1 {
		return nil, errorf(0, "", "the file is empty")
	}
	root := doc.Content[0]
	if err := checkTree(root, 1); err != nil {
		return nil, err
	}
	if root.Kind != yaml.MappingNode {
		return nil, errorf(root.Line, "", "not a productcompose definition: the top level is %s, not a mapping of keys (name: …, version: …)", kindName(root))
	}
	return readDefinition(root)
}

func invalidAt(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}

func yamlError(err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return errorf(line, "", "not valid YAML: %s", m[2])
	}
	return errorf(0, "", "not valid YAML: %s", msg)
}

// checkTree refuses what the definition has no use for and what would let a small file cost
// much: nesting beyond MaxDepth, anchors, aliases (the "billion laughs") and merge keys.
func checkTree(n *yaml.Node, depth int) *Error {
	if depth > MaxDepth {
		return errorf(n.Line, "", "nested deeper than %d levels", MaxDepth)
	}
	if n.Kind == yaml.AliasNode {
		return errorf(n.Line, "", "YAML aliases (*%s) are not supported: write the value out", n.Value)
	}
	if n.Anchor != "" {
		return errorf(n.Line, "", "YAML anchors (&%s) are not supported", n.Anchor)
	}
	if n.Tag == "!!merge" {
		return errorf(n.Line, "", "YAML merge keys (<<) are not supported")
	}
	for _, c := range n.Content {
		if err := checkTree(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "empty"
		}
		return "a single value"
	}
	return "something else"
}

// pair is one key and its value in a mapping.
type pair struct {
	key   string
	line  int
	value *yaml.Node
}

// pairs returns a mapping's keys and values, refusing keys that are not plain strings and
// keys given twice (which YAML forbids and yaml.v3's nodes do not catch).
func pairs(n *yaml.Node, where string) ([]pair, *Error) {
	var out []pair
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!null" {
			return nil, errorf(k.Line, where, "a key must be a plain name, not %s", kindName(k))
		}
		if first, ok := seen[k.Value]; ok {
			return nil, errorf(k.Line, join(where, k.Value), "given twice (first on line %d)", first)
		}
		seen[k.Value] = k.Line
		out = append(out, pair{key: k.Value, line: k.Line, value: v})
	}
	return out, nil
}

func join(where, key string) string {
	if where == "" {
		return key
	}
	return where + "." + key
}

func index(where string, i int) string { return fmt.Sprintf("%s[%d]", where, i) }

// scalar returns a single value's text; an empty value is an error.
func scalar(n *yaml.Node, where string) (string, *Error) {
	if n.Kind != yaml.ScalarNode {
		return "", errorf(n.Line, where, "must be a single value, not %s", kindName(n))
	}
	if n.Tag == "!!null" || n.Value == "" {
		return "", errorf(n.Line, where, "is empty")
	}
	return n.Value, nil
}

// list returns a list's items; an empty value ("packages:" alone) is an empty list, as
// product-composer reads it.
func list(n *yaml.Node, where string) ([]*yaml.Node, *Error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, errorf(n.Line, where, "must be a list, not %s", kindName(n))
	}
	return n.Content, nil
}

// arches reads a list of architectures: known, each once, at most MaxArchitectures.
func arches(n *yaml.Node, where string) ([]string, *Error) {
	items, err := list(n, where)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxArchitectures {
		return nil, errorf(n.Line, where, "lists %d architectures; at most %d are allowed", len(items), MaxArchitectures)
	}
	var out []string
	for i, it := range items {
		w := index(where, i)
		a, err := scalar(it, w)
		if err != nil {
			return nil, err
		}
		if a == "noarch" {
			return nil, errorf(it.Line, w, "noarch is not a product architecture: noarch packages go onto every architecture's medium")
		}
		if !KnownArch(a) {
			return nil, errorf(it.Line, w, "unknown architecture %s", quote(a))
		}
		if slices.Contains(out, a) {
			return nil, errorf(it.Line, w, "%s is listed twice", a)
		}
		out = append(out, a)
	}
	return out, nil
}
