package search

import (
	"slices"
	"strconv"
	"testing"

	"github.com/pocketforge/pocketforge/fault"
)

// FuzzSearchPlan: for any match, each search either refuses it with a 400 (empty_match or
// illegal_xpath_error) or finds exactly what evaluating it on every record finds: the planner
// (index candidates, the byte test, the key-only document) never changes an answer.
func FuzzSearchPlan(f *testing.F) {
	for _, table := range [][]tableCase{requestTable, packageTable, projectTable} {
		for _, c := range table {
			f.Add(c.match)
		}
	}
	for _, s := range []string{`@name='a' | @name='b'`, `(((`, `person/@userid='group:x'`, `@name="it's"`,
		`@project='devel:tools' and @name='hello\'`, `contains(@name, '&lt;')`,
		`group/@groupid='FACTORY-team' or person/@userid='Bob'`, `state/@who='DAVE' or history/@who='Dave'`,
		`review[@by_user='ALICE'] and action/source/@project='SECRET'`} {
		f.Add(s)
	}
	s := tableWorld(f)
	f.Fuzz(func(t *testing.T, match string) {
		c := tableCase{match: match}
		refused := func(err error) bool {
			if err == nil {
				return false
			}
			if code := fault.Code(err); code != "illegal_xpath_error" && code != "empty_match" {
				t.Fatalf("%q: %v", match, err)
			}
			return true
		}
		if found, err := s.SearchRequests(searchAdmin, match, false, Page{}); !refused(err) {
			var got []string
			for _, r := range found.Records {
				got = append(got, strconv.FormatUint(r.ID, 10))
			}
			if want := scanRequests(t, s, c); !slices.Equal(got, want) {
				t.Fatalf("requests %q: %v, the scan finds %v", match, got, want)
			}
		}
		if found, err := s.SearchPackages(searchAdmin, match, false, Page{}); !refused(err) {
			var got []string
			for _, k := range found.Records {
				got = append(got, shortProject[k.Project]+"/"+k.Name)
			}
			if want := scanPackages(t, s, c); !slices.Equal(got, want) {
				t.Fatalf("packages %q: %v, the scan finds %v", match, got, want)
			}
		}
		if found, err := s.SearchProjects(searchAdmin, match, false, Page{}); !refused(err) {
			var got []string
			for _, p := range found.Records {
				got = append(got, shortProject[p.Name])
			}
			if want := scanProjects(t, s, c); !slices.Equal(got, want) {
				t.Fatalf("projects %q: %v, the scan finds %v", match, got, want)
			}
		}
	})
}
