package values

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// aliasBomb is the billion-laughs document: ten levels of ten aliases each, 10^10 values when
// expanded, under 700 bytes.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			fmt.Fprintf(&b, "*a%d, ", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestParseErrors: documents that are not values are refused with a message and the line and
// column of the problem, fast.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, doc    string
		line, column int
		msg          string
	}{
		{"duplicate key", "speaker:\n  tolerateMaster: true\ncontroller: {}\nspeaker: {}\n", 4, 1, `duplicate key "speaker" (first at line 1, column 1)`},
		{"duplicate nested key", "speaker:\n  memberlist:\n    enabled: true\n    enabled: false\n", 4, 5, `duplicate key "enabled" (first at line 3, column 5)`},
		{"duplicate key in JSON", `{"crds": {"enabled": true, "enabled": false}}`, 1, 28, `duplicate key "enabled" (first at line 1, column 11)`},
		{"top level is a list", "- controller\n- speaker\n", 1, 1, "the top level must be a mapping of keys to values, not a list"},
		{"top level is a string", "controller: enabled, speaker: enabled\n", 0, 0, ""},
		{"top level is a number", "42\n", 1, 1, "not a number"},
		{"top level is null", "~\n", 1, 1, "not null"},
		{"top level is a JSON array", `[{"controller": {}}]`, 1, 1, "not a list"},
		{"two documents", "controller: {}\n---\nspeaker: {}\n", 2, 1, "one YAML document"},
		{"syntax: mapping in a scalar", "speaker:\n  tolerateMaster: true: false\n", 2, 23, "mapping values are not allowed in this context"},
		{"syntax: unclosed flow sequence", "tolerations: [a, b\nnodeSelector: {}\n", 2, 13, "did not find expected ',' or ']'"},
		{"syntax: bad indentation", "speaker:\n  image:\n    tag: x\n   pullPolicy: y\n", 4, 4, "did not find expected key"},
		{"syntax: tab indentation", "speaker:\n\ttolerateMaster: true\n", 2, 1, "tab"},
		{"syntax: unterminated string", "nameOverride: \"lb\n", 2, 1, "unexpected end of stream"},
		{"unknown anchor", "controller: *base\n", 1, 13, "unknown anchor 'base'"},
		{"alias cycle", "controller: &c {sidecar: *c}\n", 1, 26, "cycle"},
		{"merge key of a scalar", "base: &b 1\ncontroller: {<<: *b}\n", 2, 18, "merge key"},
		{"complex key", "? [a, b]\n: c\n", 1, 3, "a key must be a plain value, not a list"},
		{"infinity", "metrics: {metricsPort: .inf}\n", 1, 24, "not a number JSON can hold"},
		{"bad explicit tag", "metrics: {metricsPort: !!int seven}\n", 1, 24, `"seven" is not a number`},
		{"invalid UTF-8", "nameOverride: caf\xe9\n", 1, 18, "not UTF-8 text (byte 0xe9)"},
		{"UTF-16", "\xff\xfec\x00o\x00", 1, 1, "not UTF-8"},
		{"NUL byte", "nameOverride: a\x00b\n", 1, 16, "binary data: control character U+0000"},
		{"PNG", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, 1, "not UTF-8"},
		{"escape character", "a: b\n\x1b[31m\n", 2, 1, "U+001B"},
		{"nesting too deep", "a: " + strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5), 1, 3 + MaxDepth + 1, "deeper than 256 levels"},
		{"nesting too deep for the parser", "a: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000), 1, 10004, "exceeded max depth of 10000"},
		{"alias bomb", aliasBomb(), 0, 0, "aliases expand to more than 100000 values"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			doc, err := Parse([]byte(c.doc))
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("took %v", took)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				if c.msg == "" { // a scalar that happens to be a mapping ("a: b, c: d" is one key)
					return
				}
				t.Fatalf("got %v, %v; want a *ParseError", doc, err)
			}
			if !strings.Contains(pe.Msg, c.msg) || (c.line != 0 && (pe.Line != c.line || pe.Column != c.column)) {
				t.Fatalf("got %q at %d:%d; want %q at %d:%d", pe.Msg, pe.Line, pe.Column, c.msg, c.line, c.column)
			}
			if c.line != 0 && !strings.HasPrefix(pe.Error(), fmt.Sprintf("line %d, column %d: ", c.line, c.column)) {
				t.Fatalf("Error() = %q", pe.Error())
			}
		})
	}
}

// TestAliasBombRefusedFast: the refusal costs well under a second and names the alias where the
// expansion started.
func TestAliasBombRefusedFast(t *testing.T) {
	start := time.Now()
	_, err := Validate([]byte(aliasBomb()), Options{})
	took := time.Since(start)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line == 0 || !strings.Contains(pe.Msg, "alias bomb") {
		t.Fatalf("got %v", err)
	}
	if took > 500*time.Millisecond {
		t.Fatalf("refusing an alias bomb took %v", took)
	}
	t.Logf("refused in %v: %v", took, err)
}

func TestParseSizeLimit(t *testing.T) {
	// Exactly MaxSize is read; one byte more is ErrTooLarge, whatever the content.
	pad := "# " + strings.Repeat("x", MaxSize-len("controller: {}\n")-3) + "\n"
	doc := []byte(pad + "controller: {}\n")
	if len(doc) != MaxSize {
		t.Fatalf("test document is %d bytes", len(doc))
	}
	if _, err := Parse(doc); err != nil {
		t.Fatalf("MaxSize bytes: %v", err)
	}
	if _, err := Parse(append(doc, '\n')); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("MaxSize+1 bytes: %v", err)
	}
	// A huge list inside the limit parses, in reasonable time.
	start := time.Now()
	big := []byte("tolerations: [" + strings.Repeat("{}, ", (MaxSize-32)/4) + "{}]\n")
	v, err := Parse(big)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(v["tolerations"].([]any)); n < 200000 {
		t.Fatalf("%d items", n)
	}
	t.Logf("%d bytes, %d items in %v", len(big), len(v["tolerations"].([]any)), time.Since(start))
}

// TestParseValues: what a document becomes — helm's reading of scalars, merge keys, aliases,
// empty documents, JSON.
func TestParseValues(t *testing.T) {
	cases := []struct {
		name, doc string
		want      map[string]any
	}{
		{"empty", "", map[string]any{}},
		{"comments only", "# nothing set\n", map[string]any{}},
		{"bare document marker", "---\n", map[string]any{}},
		{"trailing empty document", "a: 1\n---\n", map[string]any{"a": json.Number("1")}},
		{"byte order mark", "\ufeffa: 1\n", map[string]any{"a": json.Number("1")}},
		{"numbers stay numbers", "i: 7472\nf: 1.5\nz: 0\nn: -3\nbig: 99999999999999999999\nhex: 0x1F\noct: 0o17\nunder: 1_000\nexp: 1e3\nwhole: 7.0",
			map[string]any{"i": json.Number("7472"), "f": json.Number("1.5"), "z": json.Number("0"), "n": json.Number("-3"),
				"big": json.Number("99999999999999999999"), "hex": json.Number("31"), "oct": json.Number("15"),
				"under": json.Number("1000"), "exp": json.Number("1000"), "whole": json.Number("7")}},
		{"nulls stay null", "a:\nb: ~\nc: null\nd: Null", map[string]any{"a": nil, "b": nil, "c": nil, "d": nil}},
		{"booleans as helm reads them", "a: true\nb: False\nc: yes\nd: no\ne: on\nf: OFF\ng: y\nh: N",
			map[string]any{"a": true, "b": false, "c": true, "d": false, "e": true, "f": false, "g": true, "h": false}},
		{"quoted stays text", "a: \"yes\"\nb: 'on'\nc: !!str no\nd: \"7472\"\ne: \"null\"",
			map[string]any{"a": "yes", "b": "on", "c": "no", "d": "7472", "e": "null"}},
		{"versions are strings", "a: 9.1.0\nb: v0.15.2\nc: 2024-01-02", map[string]any{"a": "9.1.0", "b": "v0.15.2", "c": "2024-01-02"}},
		{"keys as written", "on: 1\n7: 2\n\"resources:\": {}", map[string]any{"on": json.Number("1"), "7": json.Number("2"), "resources:": map[string]any{}}},
		{"aliases expand", "base: &img {repository: r, tag: t}\ncontroller: {image: *img}",
			map[string]any{"base": map[string]any{"repository": "r", "tag": "t"}, "controller": map[string]any{"image": map[string]any{"repository": "r", "tag": "t"}}}},
		{"merge keys: own keys win, first source wins", "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc: {<<: [*a, *b], x: 3}",
			map[string]any{"a": map[string]any{"x": json.Number("1"), "y": json.Number("1")}, "b": map[string]any{"y": json.Number("2"), "z": json.Number("2")},
				"c": map[string]any{"x": json.Number("3"), "y": json.Number("1"), "z": json.Number("2")}}},
		{"merge key after own key", "a: &a {x: 1}\nc: {x: 2, <<: *a}", map[string]any{"a": map[string]any{"x": json.Number("1")}, "c": map[string]any{"x": json.Number("2")}}},
		{"quoted << is a key", "a: {\"<<\": 1}", map[string]any{"a": map[string]any{"<<": json.Number("1")}}},
		{"JSON with tabs", "{\n\t\"speaker\": {\n\t\t\"tolerateMaster\": false,\n\t\t\"mlBindPort\": 7946\n\t}\n}\n",
			map[string]any{"speaker": map[string]any{"tolerateMaster": false, "mlBindPort": json.Number("7946")}}},
		{"JSON escapes", `{"a": "caf\u00e9 \"x\" \/"}`, map[string]any{"a": `café "x" /`}},
		{"JSON numbers as written", `{"a": 7.0, "b": 1e400, "c": -0.5}`, map[string]any{"a": json.Number("7.0"), "b": json.Number("1e400"), "c": json.Number("-0.5")}},
		{"flow YAML that is not JSON", `{a: 1, "b": yes}`, map[string]any{"a": json.Number("1"), "b": true}},
		{"JSON-ish YAML (trailing comma)", `{"a": 1,}`, map[string]any{"a": json.Number("1")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse([]byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %#v\nwant %#v", got, c.want)
			}
		})
	}
}

// TestParseAsJSON: with the format fixed to JSON, JSON's own errors, with positions.
func TestParseAsJSON(t *testing.T) {
	cases := []struct {
		name, doc    string
		line, column int
		msg          string
	}{
		{"trailing comma", "{\n  \"a\": 1,\n}", 3, 1, "invalid JSON"},
		{"YAML", "a: 1\n", 1, 1, "invalid JSON"},
		{"unterminated", "{\"a\": [1, 2", 1, 12, "ends in the middle"},
		{"two documents", "{} {}", 1, 4, "more data after the JSON document"},
		{"array", "[1]", 1, 1, "not a list"},
		{"duplicate", "{\"a\": 1,\n \"a\": 2}", 2, 2, `duplicate key "a" (first at line 1, column 2)`},
		{"too deep", strings.Repeat(`{"a":`, MaxDepth+2) + "1" + strings.Repeat("}", MaxDepth+2), 1, 5*(MaxDepth+1) + 1, "deeper than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseAs([]byte(c.doc), JSON)
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.Contains(pe.Msg, c.msg) || pe.Line != c.line || pe.Column != c.column {
				t.Fatalf("got %v; want %q at %d:%d", err, c.msg, c.line, c.column)
			}
		})
	}
	if v, err := ParseAs([]byte(" \n"), JSON); err != nil || len(v) != 0 {
		t.Fatalf("empty JSON document: %v %v", v, err)
	}
	if _, err := ParseAs([]byte(`{"a": "\/"}`), YAML); err == nil {
		t.Fatal("YAML read JSON's \\/ escape; the JSON fallback is then not needed")
	}
}

// TestJSONAndYAMLAgree: the chart's defaults as JSON parse to what the YAML does.
func TestJSONAndYAMLAgree(t *testing.T) {
	fromYAML, err := Parse(DefaultsYAML())
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.MarshalIndent(fromYAML, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := Parse(js)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromYAML, fromJSON) {
		t.Fatal("JSON and YAML of the same values differ")
	}
	if vs, err := Validate(js, Options{NoDefaults: true}); err != nil || len(vs) != 0 {
		t.Fatalf("defaults as JSON: %v %v", err, vs)
	}
	if !bytes.Contains(js, []byte(`"percent": 75`)) {
		t.Fatalf("numbers re-marshalled as strings:\n%s", js)
	}
}
