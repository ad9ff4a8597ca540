package listing

import (
	"errors"
	"testing"

	"github.com/pocketforge/pocketforge/api/kit"
)

// FuzzParseFilter checks that no header panics: ParseFilter either refuses it with a 400
// *kit.Error about X-Filter, or returns a filter that Apply runs over the test items.
func FuzzParseFilter(f *testing.F) {
	for _, tc := range filterCases {
		f.Add(tc.header)
	}
	f.Add(nest(20))
	f.Add(`{"created":{"+or":[{"+and":[{"+gt":"2022-01-01T00:00:00"},{"+lt":1e400}]},null,-0]}}`)
	items := testItems()
	f.Fuzz(func(t *testing.T, header string) {
		flt, err := ParseFilter(header, testFields)
		if err != nil {
			var ke *kit.Error
			if !errors.As(err, &ke) || ke.Status != 400 || ke.Field != "X-Filter" || ke.Reason == "" {
				t.Fatalf("ParseFilter(%q): error %#v, want a 400 *kit.Error about X-Filter", header, err)
			}
			return
		}
		if flt == nil {
			t.Fatalf("ParseFilter(%q): nil filter and nil error", header)
		}
		got := flt.Apply(items)
		if len(got) > len(items) {
			t.Fatalf("Apply returned %d items from %d", len(got), len(items))
		}
	})
}
