package requestdoc

import (
	"encoding/xml"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestParseRefuses: what request.rng refuses is a SchemaError naming the fault.
func TestParseRefuses(t *testing.T) {
	cases := []struct{ name, doc, want string }{
		{"not xml", `<request><action`, "not well-formed"},
		{"other root", `<project name="x"/>`, "Expecting element request"},
		{"no action", `<request><description>x</description></request>`, "Expecting element action"},
		{"unknown type", `<request><action type="merge"/></request>`, "type 'merge' is not one of"},
		{"target without project", `<request><action type="delete"><target package="k"/></action></request>`, "target needs the attribute project"},
		{"bad sourceupdate", `<request><action type="submit"><options><sourceupdate>later</sourceupdate></options></action></request>`, "sourceupdate 'later'"},
		{"bad priority", `<request><action type="delete"><target project="p"/></action><priority>urgent</priority></request>`, "priority: 'urgent'"},
		{"review without reviewer", `<request><action type="delete"><target project="p"/></action><review state="new"/></request>`, "by_user, by_group or by_project"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Parse([]byte(c.doc))
			var se *SchemaError
			if !errors.As(err, &se) || !strings.Contains(se.Msg, c.want) {
				t.Fatalf("Parse = %v, want a SchemaError with %q", err, c.want)
			}
		})
	}
}

// TestRenderParseRoundTrip: osc's submit document parses into the record it describes, and the
// record renders with the attributes osc reads (id, creator, state, the action's ends).
func TestRenderParseRoundTrip(t *testing.T) {
	doc := `<request><action type="submit"><source project="home:alice:branches:devel:tools" package="pocket-cli" rev="3"/>` +
		`<target project="devel:tools" package="pocket-cli"/><options><sourceupdate>cleanup</sourceupdate></options></action>` +
		`<state name="new"/><description>fix the build</description></request>`
	r, _, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Actions) != 1 || r.Actions[0].Source.Rev != "3" || r.Actions[0].Options.SourceUpdate != "cleanup" || r.Description != "fix the build" {
		t.Fatalf("parsed %+v", r)
	}
	when := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	r.ID, r.Creator = 7, "alice"
	r.State = buildstore.RequestState{Name: buildstore.RequestReview, Who: "alice", When: when, Created: when}
	r.Reviews = []buildstore.Review{{State: "new", ByGroup: "pocket-reviewers", When: when,
		History: []buildstore.HistoryRecord{{Who: "alice", When: when, Description: "Review got reopened"}}}}
	r.History = []buildstore.HistoryRecord{{Who: "alice", When: when, Description: "Request created", Comment: "fix the build"}}
	for _, c := range []struct {
		h            History
		want, absent []string
	}{
		{NoHistory, []string{`<request id="7" creator="alice">`, `<state name="review" who="alice" when="2026-11-25T10:00:00" created="2026-11-25T10:00:00">`,
			`<review state="new" when="2026-11-25T10:00:00" by_group="pocket-reviewers">`, `<sourceupdate>cleanup</sourceupdate>`}, []string{"<history"}},
		{WithHistory, []string{`<history who="alice" when="2026-11-25T10:00:00"><description>Request created</description>`}, []string{"Review got reopened"}},
		{WithFullHistory, []string{"Review got reopened", "Request created"}, nil},
	} {
		out, err := xml.Marshal(Render(r, c.h))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("history %d: %s\nlacks %s", c.h, out, w)
			}
		}
		for _, w := range c.absent {
			if strings.Contains(string(out), w) {
				t.Errorf("history %d: %s\nhas %s", c.h, out, w)
			}
		}
	}
}

// FuzzParse: no posted document panics the parser, and what it accepts renders back into a
// document that parses to the same actions.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`<request><action type="submit"><source project="a" package="b" rev="1"/><target project="c"/><options><sourceupdate>cleanup</sourceupdate></options></action><description>d</description></request>`,
		`<request><action type="add_role"><target project="p"/><person name="u" role="maintainer"/></action><review state="new" by_group="g"/></request>`,
		`<request><action type="group"><grouped id="3"/></action><priority>critical</priority></request>`,
		`<request><action`, `<project/>`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, _, err := Parse(body)
		if err != nil {
			return
		}
		out, err := xml.Marshal(Render(r, WithFullHistory))
		if err != nil {
			t.Fatalf("render: %v", err)
		}
		again, _, err := Parse(out)
		if err != nil || len(again.Actions) != len(r.Actions) {
			t.Fatalf("re-parse of %s: %v (%d actions, want %d)", out, err, len(again.Actions), len(r.Actions))
		}
	})
}
