package values

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// FuzzValidate feeds arbitrary bytes to the validator's entry point, both ways: it must answer
// every input with violations or a *ParseError / ErrTooLarge — never a panic, never another error
// — and every violation must be well formed. An input that takes seconds fails too: no hangs.
//
//	go test ./values -run '^$' -fuzz FuzzValidate -fuzztime 60s
func FuzzValidate(f *testing.F) {
	f.Add(DefaultsYAML())
	for _, name := range append(chartFiles, "testdata/invalid.yaml") {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	for _, c := range invalidCases {
		f.Add([]byte(c.doc))
	}
	for _, s := range []string{
		"", "~", "- a", "a: &a [*a]", "a: *b", "a: 1\na: 2", "{\"a\": 1, \"a\": 2}", "a: b: c",
		"x: &x {<<: *x}", "a: !!binary aGVsbG8=", "a: !!float x", "<<: {a: 1}", "? [a]\n: b",
		"a: 0x_1", "a: .NaN", "a: -.inf", "{\"a\": 1e999999}", "\ufeff{}", "a: |\n  x\n b",
		"speaker: {routing: {\"resources:\": []}}", "%YAML 1.1\n---\na: 1", "!!map {a: 1}",
		strings.Repeat("[", 300) + strings.Repeat("]", 300),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opts := range []Options{{}, {NoDefaults: true}, {Format: JSON}} {
			start := time.Now()
			vs, err := Validate(data, opts)
			if took := time.Since(start); took > 5*time.Second {
				t.Fatalf("%+v: %d bytes took %v", opts, len(data), took)
			}
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) && !errors.Is(err, ErrTooLarge) {
					t.Fatalf("%+v: unexpected error type %T: %v", opts, err, err)
				}
				if err.Error() == "" {
					t.Fatal("empty error message")
				}
				continue
			}
			for _, v := range vs {
				if (v.Path != "" && !strings.HasPrefix(v.Path, "/")) || v.Rule == "" || v.Message == "" {
					t.Fatalf("malformed violation %+v", v)
				}
			}
		}
	})
}
