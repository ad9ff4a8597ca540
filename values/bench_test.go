package values

import (
	"os"
	"testing"
)

// BenchmarkValidateDefaults: the whole path for the chart's defaults as a values file — parse
// the YAML, merge over the defaults, validate, word the (no) violations. Reported as
// validations/s.
func BenchmarkValidateDefaults(b *testing.B) {
	data := DefaultsYAML()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if vs, err := Validate(data, Options{}); err != nil || len(vs) != 0 {
			b.Fatal(err, vs)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "validations/s")
}

// BenchmarkValidateInvalid: a file with 19 violations, to price the wording of errors.
func BenchmarkValidateInvalid(b *testing.B) {
	data := mustRead(b, "testdata/invalid.yaml")
	b.ReportAllocs()
	for b.Loop() {
		if vs, err := Validate(data, Options{}); err != nil || len(vs) == 0 {
			b.Fatal(err, vs)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "validations/s")
}

// BenchmarkParseDefaults is the YAML-reading share of BenchmarkValidateDefaults.
func BenchmarkParseDefaults(b *testing.B) {
	data := DefaultsYAML()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawSchemaValidate is the layer underneath: jsonschema/v6 validating the already parsed
// and merged defaults, nothing of ours around it.
func BenchmarkRawSchemaValidate(b *testing.B) {
	doc, err := Parse(DefaultsYAML())
	if err != nil {
		b.Fatal(err)
	}
	sch, err := compiled()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := sch.Validate(doc); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "validations/s")
}

func mustRead(b *testing.B, name string) []byte {
	b.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
