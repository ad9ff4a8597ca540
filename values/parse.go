package values

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// MaxDepth is how deeply a values document may nest mappings and lists. Chart values nest a
// handful of levels; the bound keeps a pathological document from costing stack and time.
const MaxDepth = 256

// MaxAliasNodes bounds the values that YAML aliases (*name) may add to a document when they are
// expanded. An alias copies the node its anchor names, so ten nested aliases of ten can make a
// billion values out of a few hundred bytes; a document that would grow by more than this is
// refused as soon as the count is passed, before it costs memory or time.
const MaxAliasNodes = 100_000

// Parse reads one values document, YAML or JSON — a document that starts with "{" and is JSON is
// read as JSON, anything else as YAML; either way every error carries a line and a column — into
// maps of string to any, []any, json.Number, string, bool and nil: what the validator and helm's
// merge work on. Numbers stay json.Number, so 3 and 3.5 keep their integer-or-not nature. Scalars
// read as helm reads them: plain yes/no/on/off/y/n are booleans (YAML 1.1), anything quoted is a
// string. Mapping keys are kept as written. An empty document is an empty mapping.
//
// It refuses, with a *ParseError: text that is not UTF-8 or holds control characters (binary
// data), YAML syntax errors, a top level that is not a mapping, more than one document, duplicate
// keys, aliases that expand beyond MaxAliasNodes or into themselves, nesting beyond MaxDepth, and
// numbers JSON cannot hold (.inf, .nan). A document over MaxSize is ErrTooLarge.
func Parse(data []byte) (map[string]any, error) { return ParseAs(data, Auto) }

// Format says how ParseAs reads a document.
type Format int

const (
	// Auto reads a document that starts with "{" as JSON when it is JSON, and anything else (and
	// what JSON does not read) as YAML.
	Auto Format = iota
	// YAML reads the document as YAML only (JSON is YAML too, except for a few escapes).
	YAML
	// JSON reads the document as JSON only (RFC 8259), refusing YAML.
	JSON
)

// ParseAs is Parse with the format fixed: an HTTP client that says Content-Type: application/json
// gets JSON's own errors for a broken JSON body, not YAML's.
func ParseAs(data []byte, f Format) (map[string]any, error) {
	if len(data) > MaxSize {
		return nil, ErrTooLarge
	}
	if err := checkText(data); err != nil {
		return nil, err
	}
	switch f {
	case JSON:
		v, err := parseJSON(data)
		var se jsonSyntaxError
		if errors.As(err, &se) {
			return nil, se.ParseError
		}
		return v, err
	case Auto:
		if looksLikeJSON(data) {
			v, err := parseJSON(data)
			if err == nil || !isJSONSyntax(err) {
				return v, err // JSON (or JSON with duplicate keys or too deep: YAML would say the same)
			}
		}
	}
	return parseYAML(data)
}

// parseYAML reads one YAML document.
func parseYAML(data []byte) (map[string]any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	switch err := decodeNode(dec, &doc); {
	case errors.Is(err, io.EOF):
		return map[string]any{}, nil
	case err != nil:
		return nil, syntaxError(dec, err, data)
	}
	var next yaml.Node
	switch err := decodeNode(dec, &next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, syntaxError(dec, err, data)
	case !emptyDocument(&next):
		return nil, nodeError(&next, "a values file holds one YAML document; a second one starts here")
	}
	if emptyDocument(&doc) {
		return map[string]any{}, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, nodeError(root, "the top level must be a mapping of keys to values, not %s", describeNode(root))
	}
	c := converter{}
	v, err := c.value(root, 0)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

// decodeNode runs the YAML parser, turning a panic inside it into an error: no input may crash
// the server.
func decodeNode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &ParseError{Msg: fmt.Sprintf("the YAML parser failed on this input: %v", p)}
		}
	}()
	return dec.Decode(n)
}

// emptyDocument reports whether n is a document with nothing in it (only comments, or a bare
// "---"), which helm reads as no values.
func emptyDocument(n *yaml.Node) bool {
	if n.Kind != yaml.DocumentNode || len(n.Content) == 0 {
		return true
	}
	c := n.Content[0]
	return c.Kind == yaml.ScalarNode && c.Value == "" && c.ShortTag() == "!!null" && c.Style == 0
}

// checkText refuses data that YAML's reader would refuse as not text — invalid UTF-8 or a control
// character — naming the line and column of the first offending byte, so that a binary upload
// gets a clear answer instead of a parser's puzzle.
func checkText(data []byte) error {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return &ParseError{Line: line, Column: col, Msg: fmt.Sprintf(
				"not UTF-8 text (byte 0x%02x); a values file is YAML or JSON text", data[i])}
		case !printable(r):
			return &ParseError{Line: line, Column: col, Msg: fmt.Sprintf(
				"binary data: control character %U is not allowed in YAML or JSON text", r)}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return nil
}

// printable is YAML 1.2's set of characters a stream may hold (c-printable).
func printable(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7e, r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd:
		return true
	}
	return r >= 0x10000 && r <= 0x10ffff
}

// nodeError is a *ParseError at n's position.
func nodeError(n *yaml.Node, format string, args ...any) *ParseError {
	return &ParseError{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// describeNode names what n is, for "not a mapping" errors.
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!str":
			return "a string"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		}
		return "a scalar"
	}
	return "a value"
}

// converter turns a yaml.Node tree into plain values, counting what aliases add and watching for
// aliases that contain themselves.
type converter struct {
	aliasNodes int                 // values produced while expanding aliases
	aliasRoot  *yaml.Node          // the outermost alias being expanded, where a bomb is reported
	active     map[*yaml.Node]bool // anchored nodes being converted: an alias to one is a cycle
}

// value converts n, depth levels below the top.
func (c *converter) value(n *yaml.Node, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, nodeError(n, "values nest deeper than %d levels", MaxDepth)
	}
	if c.aliasRoot != nil {
		if c.aliasNodes++; c.aliasNodes > MaxAliasNodes {
			return nil, nodeError(c.aliasRoot, "aliases expand to more than %d values; refusing the document (an alias bomb?)", MaxAliasNodes)
		}
	}
	if n.Anchor != "" && n.Kind != yaml.AliasNode {
		if c.active == nil {
			c.active = map[*yaml.Node]bool{}
		}
		c.active[n] = true
		defer delete(c.active, n)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return c.alias(n, depth)
	case yaml.MappingNode:
		return c.mapping(n, depth)
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil, nodeError(n, "unexpected YAML node")
}

// alias expands an alias in place, as helm's YAML reading does.
func (c *converter) alias(n *yaml.Node, depth int) (any, error) {
	target := n.Alias
	if target == nil {
		return nil, nodeError(n, "alias *%s names no anchor", n.Value)
	}
	if c.active[target] {
		return nil, nodeError(n, "alias *%s is inside the value its anchor names (a cycle)", n.Value)
	}
	if c.aliasRoot == nil {
		c.aliasRoot = n
		defer func() { c.aliasRoot = nil }()
	}
	return c.value(target, depth)
}

// mapping converts a mapping: keys are scalars and unique; merge keys (<<: *base) add the keys of
// the mappings they name that the mapping does not set itself, the first named mapping first.
func (c *converter) mapping(n *yaml.Node, depth int) (any, error) {
	m := make(map[string]any, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		key, err := keyOf(k)
		if err != nil {
			return nil, err
		}
		if _, dup := m[key]; dup {
			first := firstKey(n, key)
			return nil, nodeError(k, "duplicate key %q (first at line %d, column %d)", key, first.Line, first.Column)
		}
		val, err := c.value(v, depth+1)
		if err != nil {
			return nil, err
		}
		m[key] = val
	}
	for _, src := range merges {
		if err := c.merge(m, src, depth); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// merge applies one merge key's value: a mapping (usually an alias of one) or a list of them.
func (c *converter) merge(m map[string]any, src *yaml.Node, depth int) error {
	v, err := c.value(src, depth+1)
	if err != nil {
		return err
	}
	var maps []map[string]any
	switch v := v.(type) {
	case map[string]any:
		maps = append(maps, v)
	case []any:
		for _, item := range v {
			im, ok := item.(map[string]any)
			if !ok {
				return nodeError(src, "a merge key (<<) takes a mapping or a list of mappings")
			}
			maps = append(maps, im)
		}
	default:
		return nodeError(src, "a merge key (<<) takes a mapping or a list of mappings")
	}
	for _, sm := range maps {
		for k, val := range sm {
			if _, set := m[k]; !set {
				m[k] = val
			}
		}
	}
	return nil
}

// keyOf is a mapping key as the string JSON would use; keys that are mappings or lists have no
// JSON form.
func keyOf(k *yaml.Node) (string, error) {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		return "", nodeError(k, "a key must be a plain value, not %s", describeNode(k))
	}
	return k.Value, nil
}

// firstKey finds the first key named key in mapping n, for the duplicate-key message.
func firstKey(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, err := keyOf(n.Content[i]); err == nil && k == key {
			return n.Content[i]
		}
	}
	return n
}

// plainInt is a decimal integer whose YAML text is already a JSON number.
var plainInt = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// yaml11Bools are the plain scalars YAML 1.1 reads as booleans. Helm reads values with
// sigs.k8s.io/yaml, a YAML 1.1 parser, so `enabled: yes` is true to helm (and `tag: no` is false);
// yaml.v3 (YAML 1.2) would keep them as strings and report violations helm never would.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false,
}

// scalar converts one scalar by its tag, reading plain yes/no/on/off/y/n as booleans the way
// helm does (see yaml11Bools); quoted or !!str-tagged they stay strings.
func scalar(n *yaml.Node) (any, error) {
	if n.Style == 0 {
		if b, ok := yaml11Bools[n.Value]; ok {
			return b, nil
		}
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		switch n.Value {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, nodeError(n, "%q is not a boolean", n.Value)
		}
		return b, nil
	case "!!int", "!!float":
		return number(n)
	}
	return n.Value, nil // !!str, !!timestamp and !!binary stay text, as in helm's YAML-to-JSON step
}

// number converts a numeric scalar to json.Number, keeping a decimal integer's digits as written
// (even beyond 64 bits) and refusing what JSON has no number for.
func number(n *yaml.Node) (any, error) {
	if plainInt.MatchString(n.Value) {
		return json.Number(n.Value), nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, nodeError(n, "%q is not a number", n.Value)
	}
	switch v := v.(type) {
	case int:
		return json.Number(strconv.Itoa(v)), nil
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(v, 10)), nil
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, nodeError(n, "%s is not a number JSON can hold", n.Value)
		}
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), nil
	}
	return nil, nodeError(n, "%q is not a number", n.Value)
}

// syntaxError turns the YAML parser's error into a *ParseError with the line and column of the
// problem. yaml.v3's message names only a line — often the line where the enclosing construct
// began — so the position is read from the decoder's parser state, which holds the exact mark;
// when that state is not there (another yaml.v3), the message's line is kept.
func syntaxError(dec *yaml.Decoder, err error, data []byte) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if st, ok := parserState(dec); ok && st.problem != "" {
		out := &ParseError{Line: st.line + 1, Column: st.column + 1, Msg: st.problem}
		if st.context != "" && (st.cline != st.line || st.ccolumn != st.column) {
			out.Msg += fmt.Sprintf(" (%s that starts at line %d, column %d)", st.context, st.cline+1, st.ccolumn+1)
		}
		if charAt(data, out.Line, out.Column) == '\t' && !strings.Contains(out.Msg, "tab") {
			out.Msg += "; it is a tab, and YAML indents with spaces only"
		}
		return out
	}
	out := &ParseError{Msg: msg}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		out.Line, _ = strconv.Atoi(m[1])
		out.Msg = m[2]
	}
	if m := unknownAnchor.FindStringSubmatch(msg); m != nil {
		if i := bytes.Index(data, []byte("*"+m[1])); i >= 0 {
			out.Line, out.Column = position(data, i)
		}
	}
	return out
}

var (
	yamlLine      = regexp.MustCompile(`^line (\d+): (.*)$`)
	unknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)
)

// position is the 1-based line and column (in characters) of byte offset off.
func position(data []byte, off int) (line, col int) {
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}

// charAt is the character at a 1-based line and column, or 0.
func charAt(data []byte, line, col int) rune {
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return 0
		}
		data = data[i+1:]
	}
	for c := 1; len(data) > 0; c++ {
		r, size := utf8.DecodeRune(data)
		if c == col {
			return r
		}
		if r == '\n' {
			return 0
		}
		data = data[size:]
	}
	return 0
}

// yamlState is what yaml.v3's parser knows about its last error.
type yamlState struct {
	problem, context string
	line, column     int // of the problem, 0-based
	cline, ccolumn   int // of the construct being parsed, 0-based
}

// parserState reads yaml.v3's parser state (dec.parser.parser) by reflection. Only reads, only
// by name, every step checked: yaml.v3 is frozen at v3.0.1, and if its layout were different the
// answer is simply "not known".
func parserState(dec *yaml.Decoder) (st yamlState, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	p := field(reflect.ValueOf(dec), "parser")
	yp := field(p, "parser")
	if !yp.IsValid() {
		return st, false
	}
	problem, context := field(yp, "problem"), field(yp, "context")
	pm, cm := field(yp, "problem_mark"), field(yp, "context_mark")
	if problem.Kind() != reflect.String || context.Kind() != reflect.String {
		return st, false
	}
	var okp, okc bool
	st.problem, st.context = problem.String(), context.String()
	st.line, st.column, okp = mark(pm)
	st.cline, st.ccolumn, okc = mark(cm)
	return st, okp && okc
}

// field is v's (or *v's) struct field name, or the zero Value.
func field(v reflect.Value, name string) reflect.Value {
	for v.IsValid() && v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	if !v.IsValid() || v.Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.FieldByName(name)
}

// mark reads a yaml_mark_t's line and column.
func mark(m reflect.Value) (line, col int, ok bool) {
	l, c := field(m, "line"), field(m, "column")
	if l.Kind() != reflect.Int || c.Kind() != reflect.Int {
		return 0, 0, false
	}
	return int(l.Int()), int(c.Int()), true
}
