package buildweb

import (
	"os"
	"regexp"
	"testing"

	"github.com/pocketforge/pocketforge/badges"
	"github.com/pocketforge/pocketforge/explorersvc"
)

// TestColoursMatchBadges: the monitor paints a cell .s-<code> and a package .s-<state>; the
// shared stylesheet must give each the colour the badges draw it in (badges.Group).
func TestColoursMatchBadges(t *testing.T) {
	css, err := os.ReadFile("../static/site.css")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`--(ok|fail|blocked|building|grey):(#[0-9a-f]+)`).FindAllStringSubmatch(string(css), -1) {
		vars[m[1]] = m[2]
	}
	colour := func(class string) string {
		// A rule lists its selectors, then background:var(--x).
		re := regexp.MustCompile(`(?:^|[,}])[^{}]*\.` + regexp.QuoteMeta(class) + `\b[^{}]*\{background:var\(--([a-z]+)\)\}`)
		m := re.FindStringSubmatch(string(css))
		if m == nil {
			return ""
		}
		return vars[m[1]]
	}
	for _, code := range explorersvc.StatusCodes {
		if got, want := colour("s-"+code), badges.Group(code).Colour(); got != want {
			t.Errorf(".s-%s is %q, the badges draw %s", code, got, want)
		}
	}
	for _, st := range monitorStates {
		want := map[string]string{"failed": badges.ColourFailed, "blocked": badges.ColourBlocked, "building": badges.ColourBuilding,
			"passing": badges.ColourPassing, "inactive": badges.ColourInactive}[st]
		if got := colour("s-" + st); got != want {
			t.Errorf(".s-%s is %q, the badges draw %s", st, got, want)
		}
	}
}
