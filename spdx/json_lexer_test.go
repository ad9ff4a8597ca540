package spdx

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestLexerGrammar checks the lexer against encoding/json: a document with a value the lexer
// only skips must fail exactly when json.Valid says it is not JSON.
func TestLexerGrammar(t *testing.T) {
	values := []string{
		`0`, `-0`, `1`, `-1`, `12.5`, `1e5`, `1E+5`, `1e-5`, `-0.0e0`, `123456789012345678901234567890`,
		`01`, `1.`, `.5`, `-`, `1e`, `1e+`, `+1`, `0x10`, `1.e5`, `--1`, `Infinity`, `NaN`,
		`true`, `false`, `null`, `tru`, `nul`, `True`, `nulll`,
		`""`, `"a"`, `"\""`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"\u00e9"`, `"\uD83D\uDE00"`, `"\ud800"`, `"\udc00x"`,
		`"\u12"`, `"\u12G4"`, `"\x41"`, `"\'"`, "\"a\x01b\"", "\"a\x7fb\"", "\"\xff\xfe\"", `"unterminated`,
		`[]`, `{}`, `[1,2,[3,{}]]`, `{"a":{"b":[null]}}`, `[1,]`, `[,1]`, `[1 2]`, `{"a":1,}`, `{"a"}`, `{"a":}`,
		`{1:2}`, `{"a" 1}`, `[`, `]`, `{`, `}`, `[1}`, `{"a":1]`, " [ 1 , 2 ] ", "\t{\r\n}\n",
		strings.Repeat("[", 500) + strings.Repeat("]", 500),
	}
	for _, v := range values {
		doc := []byte(`{"spdxVersion":"SPDX-2.3","name":"N","x":` + v + `}`)
		_, err := ParseDocument(bytes.NewReader(doc), "grammar")
		if valid := json.Valid(doc); valid != (err == nil) {
			t.Errorf("value %q: json.Valid %v, ParseDocument error %v", v, valid, err)
		}
	}
}

// TestLexerStrings checks that strings decode as encoding/json decodes them: escapes,
// surrogate pairs, lone surrogates and invalid UTF-8 (both become U+FFFD), and strings longer
// than the lexer's buffer.
func TestLexerStrings(t *testing.T) {
	literals := []string{
		`"plain"`, `"tab\tquote\"slash\/back\\"`, `"\u00e9t\u00E9"`, `"\uD83D\uDE00 smile"`, `"lone \ud800 high"`,
		`"lone \udc00 low"`, `"high then letter \ud800\u0041"`, `"caf` + "\xc3\xa9" + `"`, `"bad ` + "\xff" + ` byte"`,
		`"` + strings.Repeat("long", 40000) + `"`, `"` + strings.Repeat(`\n`, 40000) + `"`,
	}
	for _, lit := range literals {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("%q: %v", lit, err)
		}
		doc := []byte(`{"spdxVersion":"SPDX-2.3","name":` + lit + `}`)
		p, err := ParseDocument(bytes.NewReader(doc), "strings")
		if err != nil {
			t.Errorf("%.40q: %v", lit, err)
			continue
		}
		if p.FullName != want {
			t.Errorf("%.40q decoded to %.40q, want %.40q", lit, p.FullName, want)
		}
	}
}
