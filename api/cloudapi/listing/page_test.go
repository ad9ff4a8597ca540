package listing

import (
	"errors"
	"math"
	"testing"

	"github.com/pocketforge/pocketforge/api/kit"
)

// bound25 is floor(2^64/25): the highest page that is not "above 2^64 divided by the page size".
const bound25 = 737869762948382064

// checkError asserts err is a 400 *kit.Error about field, with reason when reason is not "".
func checkError(t *testing.T, err error, field, reason string) {
	t.Helper()
	var ke *kit.Error
	if !errors.As(err, &ke) {
		t.Fatalf("error %v (%T), want *kit.Error", err, err)
	}
	if ke.Status != 400 || ke.Field != field {
		t.Fatalf("error status %d field %q, want 400 %q", ke.Status, ke.Field, field)
	}
	if reason != "" && ke.Reason != reason {
		t.Fatalf("reason %q, want %q", ke.Reason, reason)
	}
}

func TestParsePage(t *testing.T) {
	cases := []struct {
		name, page, size string
		want             Page
		errField         string
	}{
		{name: "defaults", want: Page{1, 100}},
		{name: "page 3", page: "3", want: Page{3, 100}},
		{name: "leading zeros", page: "007", size: "050", want: Page{7, 50}},
		{name: "size 25", size: "25", want: Page{1, 25}},
		{name: "size 500", size: "500", want: Page{1, 500}},
		{name: "size 24", size: "24", errField: "page_size"},
		{name: "size 501", size: "501", errField: "page_size"},
		{name: "size 0", size: "0", errField: "page_size"},
		{name: "size negative", size: "-25", errField: "page_size"},
		{name: "size abc", size: "abc", errField: "page_size"},
		{name: "size 1.5", size: "100.5", errField: "page_size"},
		{name: "size huge", size: "99999999999999999999", errField: "page_size"},
		{name: "page 0", page: "0", errField: "page"},
		{name: "page 000", page: "000", errField: "page"},
		{name: "page -1", page: "-1", errField: "page"},
		{name: "page abc", page: "abc", errField: "page"},
		{name: "page 1.5", page: "1.5", errField: "page"},
		{name: "page 1e3", page: "1e3", errField: "page"},
		{name: "page with space", page: " 1", errField: "page"},
		{name: "both wrong reports page", page: "x", size: "1", errField: "page"},
		{name: "huge page saturates", page: "99999999999999999999999", want: Page{math.MaxInt, 100}},
		{name: "2^64 saturates", page: "18446744073709551616", size: "25", want: Page{math.MaxInt, 25}},
		{name: "max uint64 saturates", page: "18446744073709551615", size: "25", want: Page{math.MaxInt, 25}},
		{name: "at the bound kept", page: "737869762948382064", size: "25", want: Page{bound25, 25}},
		{name: "above the bound kept", page: "737869762948382065", size: "25", want: Page{bound25 + 1, 25}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePage(tc.page, tc.size)
			if tc.errField != "" {
				want := map[string]string{"page": reasonPage, "page_size": reasonPageSize}[tc.errField]
				checkError(t, err, tc.errField, want)
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestPageOverflowRule walks the spec's rule from the query strings to the envelope: a page
// above 2^64/page_size answers the last page; a page up to that bound but past the end answers
// an empty page carrying the requested number.
func TestPageOverflowRule(t *testing.T) {
	three := []int{1, 2, 3}
	cases := []struct {
		name, page string
		items      []int
		wantData   []int
		wantPage   int
	}{
		{"2^64 three items", "18446744073709551616", three, three, 1},
		{"2^64 empty", "18446744073709551616", nil, []int{}, 1},
		{"bound+1 three items", "737869762948382065", three, three, 1},
		{"bound+1 empty", "737869762948382065", nil, []int{}, 1},
		{"bound three items", "737869762948382064", three, []int{}, bound25},
		{"bound empty", "737869762948382064", nil, []int{}, bound25},
		{"page 2 three items", "2", three, []int{}, 2},
		{"huge decimal three items", "99999999999999999999999", three, three, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePage(tc.page, "25")
			if err != nil {
				t.Fatal(err)
			}
			env := Paginate(tc.items, p)
			if env.Page != tc.wantPage || env.Pages != 1 || env.Results != len(tc.items) {
				t.Fatalf("envelope %+v, want page %d of 1", env, tc.wantPage)
			}
			if env.Data == nil || !equalInts(env.Data, tc.wantData) {
				t.Fatalf("data %#v, want %v", env.Data, tc.wantData)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func seq(from, to int) []int {
	s := []int{}
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}
