package requestdoc

import (
	"encoding/xml"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
)

// collection is how the API wraps documents in a listing.
type collection struct {
	XMLName xml.Name `xml:"collection"`
	Matches int      `xml:"matches,attr"`
	Items   []Request
}

// sample is a request with every part set, with text that needs escaping.
func sample(desc string) buildstore.Request {
	when := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	h := []buildstore.HistoryRecord{{Who: "alice", When: when, Description: "Request created", Comment: desc}}
	return buildstore.Request{ID: 3, Creator: "alice", Description: desc, Priority: "critical", AcceptAt: &when,
		Actions: []buildstore.RequestAction{
			{Type: "submit", Source: &buildstore.ActionSource{Project: "a", Package: "b", Rev: "2"}, Target: &buildstore.ActionTarget{Project: "c", Package: "b"},
				Options: buildstore.ActionOptions{SourceUpdate: "cleanup", UpdateLink: true}, AcceptInfo: &buildstore.AcceptInfo{Rev: "4", SrcMD5: "x", OSrcMD5: "y", XSrcMD5: "z"}},
			{Type: "add_role", Target: &buildstore.ActionTarget{Project: "c"}, Person: &buildstore.ActionRole{Name: "bob", Role: "maintainer"}, Group: &buildstore.ActionRole{Name: "g"}},
			{Type: "group", Grouped: []uint64{1, 2}},
			{Type: "delete"},
		},
		State:   buildstore.RequestState{Name: "review", Who: "alice", When: when, Created: when, SupersededBy: 9, Comment: desc},
		Reviews: []buildstore.Review{{State: "new", ByGroup: "g", When: when, History: h}, {State: "accepted", ByUser: "carol", Who: "carol", Comment: desc}},
		History: h,
	}
}

// TestAppendIndentedIsMarshalIndent: the hand writer writes what encoding/xml writes, alone
// and inside a collection, for every history mode and for text that needs escaping.
func TestAppendIndentedIsMarshalIndent(t *testing.T) {
	for _, desc := range []string{"", "plain", "a <b> & \"c\" 'd'\nline\ttab\r", "ünïcödé \x01 \uFFFE", "]]>"} {
		for _, h := range []History{NoHistory, WithHistory, WithFullHistory} {
			check(t, Render(sample(desc), h))
		}
	}
	check(t, Render(buildstore.Request{ID: 1, Actions: []buildstore.RequestAction{{Type: "delete", Target: &buildstore.ActionTarget{Project: "p"}}}}, NoHistory))
}

func check(t *testing.T, d Request) {
	t.Helper()
	want, err := xml.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.AppendIndented(nil, 0); string(got) != string(want) {
		t.Fatalf("alone:\n%s\nwant\n%s", got, want)
	}
	wantC, _ := xml.MarshalIndent(collection{Matches: 2, Items: []Request{d, d}}, "", "  ")
	got := append([]byte(`<collection matches="2">`), d.AppendIndented(nil, 1)...)
	got = append(d.AppendIndented(got, 1), "\n</collection>"...)
	if string(got) != string(wantC) {
		t.Fatalf("in a collection:\n%s\nwant\n%s", got, wantC)
	}
}

// FuzzAppendIndented: any text in any field is written as encoding/xml writes it.
func FuzzAppendIndented(f *testing.F) {
	f.Add("plain", "a<b>", "x\ny")
	f.Fuzz(func(t *testing.T, desc, who, project string) {
		r := sample(desc)
		r.Creator, r.State.Who, r.Actions[0].Source.Project = who, who, project
		check(t, Render(r, WithFullHistory))
	})
}
