package listing

import (
	"encoding/json"
	"math"
	"testing"
)

func TestPaginate(t *testing.T) {
	cases := []struct {
		name                string
		items               []int
		page                Page
		wantData            []int
		wantPage, wantPages int
	}{
		{"empty nil list", nil, Page{1, 25}, []int{}, 1, 1},
		{"empty list", []int{}, Page{1, 100}, []int{}, 1, 1},
		{"empty list page 2", nil, Page{2, 25}, []int{}, 2, 1},
		{"empty list last-page rule", nil, Page{math.MaxInt, 25}, []int{}, 1, 1},
		{"one partial page", seq(1, 3), Page{1, 25}, seq(1, 3), 1, 1},
		{"exact multiple first", seq(1, 50), Page{1, 25}, seq(1, 25), 1, 2},
		{"exact multiple last", seq(1, 50), Page{2, 25}, seq(26, 50), 2, 2},
		{"exact multiple beyond", seq(1, 50), Page{3, 25}, []int{}, 3, 2},
		{"last partial page", seq(1, 60), Page{3, 25}, seq(51, 60), 3, 3},
		{"middle page", seq(1, 60), Page{2, 25}, seq(26, 50), 2, 3},
		{"far beyond", seq(1, 60), Page{1000, 25}, []int{}, 1000, 3},
		{"at the bound", seq(1, 60), Page{bound25, 25}, []int{}, bound25, 3},
		{"above the bound is last page", seq(1, 60), Page{bound25 + 1, 25}, seq(51, 60), 3, 3},
		{"saturated page is last page", seq(1, 60), Page{math.MaxInt, 25}, seq(51, 60), 3, 3},
		{"size 500 page 2", seq(1, 1000), Page{2, 500}, seq(501, 1000), 2, 2},
		{"zero Page means defaults", seq(1, 150), Page{}, seq(1, 100), 1, 2},
		{"negative page means first", seq(1, 10), Page{-3, 25}, seq(1, 10), 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := Paginate(tc.items, tc.page)
			if env.Page != tc.wantPage || env.Pages != tc.wantPages || env.Results != len(tc.items) {
				t.Fatalf("got page %d pages %d results %d, want %d %d %d",
					env.Page, env.Pages, env.Results, tc.wantPage, tc.wantPages, len(tc.items))
			}
			if env.Data == nil || !equalInts(env.Data, tc.wantData) {
				t.Fatalf("data %#v, want %v", env.Data, tc.wantData)
			}
		})
	}
}

func TestPaginateDoesNotExposeTail(t *testing.T) {
	items := seq(1, 30)
	env := Paginate(items, Page{1, 25})
	_ = append(env.Data, 99)
	if items[25] != 26 {
		t.Fatalf("appending to a page overwrote the list: %v", items[25])
	}
}

func TestEnvelopeJSON(t *testing.T) {
	cases := []struct {
		name  string
		items []string
		page  Page
		want  string
	}{
		{"empty collection", nil, Page{1, 100}, `{"data":[],"page":1,"pages":1,"results":0}`},
		{"empty page beyond", []string{"a"}, Page{2, 25}, `{"data":[],"page":2,"pages":1,"results":1}`},
		{"items", []string{"a", "b"}, Page{1, 25}, `{"data":["a","b"],"page":1,"pages":1,"results":2}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(Paginate(tc.items, tc.page))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Fatalf("got %s, want %s", b, tc.want)
			}
		})
	}
}
