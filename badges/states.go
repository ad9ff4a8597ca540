// Package badges draws the explorer's build badges and result tables as SVG, in shields.io's
// "flat" style: the same height, corner radius, gradient and Verdana 11 px text metrics, so a
// badge of ours sits beside a shields badge in a README without a seam. Rendering is pure —
// statuses in, SVG out — with github.com/ajstarks/svgo; the explorer's API reads the results and
// caches what this package draws.
package badges

// State is a badge state: the seed's grouping of build status codes ("States and
// transitions"), plus the error of a badge that could not be drawn from results.
type State uint8

// The badge states, in the order a badge over several statuses picks one: any failure wins,
// then anything blocked, then anything still building, then success; statuses that are not
// builds (disabled, excluded, …) count for nothing, so a badge with nothing else is inactive.
const (
	Inactive State = iota
	Passing
	Building
	Blocked
	Failed
	Error
)

// Colours are the seed's five ("Badge rules"), spelled as the seed spells them; LabelColour is
// the left side's (shields' grey).
const (
	ColourPassing  = "#44cc11"
	ColourFailed   = "#e05d44"
	ColourBlocked  = "#dfb317"
	ColourBuilding = "#007ec6"
	ColourInactive = "#9f9f9f"
	LabelColour    = "#555"
)

// Colour is the background of s's message side and table cells.
func (s State) Colour() string {
	switch s {
	case Passing:
		return ColourPassing
	case Failed:
		return ColourFailed
	case Blocked:
		return ColourBlocked
	case Building:
		return ColourBuilding
	}
	return ColourInactive
}

// String is the word a badge shows for s.
func (s State) String() string {
	return [...]string{"inactive", "passing", "building", "blocked", "failed", "error"}[s]
}

// Group is the state one package status code belongs to. The seed places succeeded; failed,
// broken and unresolvable; blocked; building and scheduled; disabled and excluded. The codes it
// does not place are decided here: dispatching, signing and finished are a build under way
// (building); locked, deleting, unknown and anything else are no build (inactive).
func Group(code string) State {
	switch code {
	case "succeeded":
		return Passing
	case "failed", "broken", "unresolvable":
		return Failed
	case "blocked":
		return Blocked
	case "building", "scheduled", "dispatching", "signing", "finished":
		return Building
	}
	return Inactive
}

// Tally counts statuses by state.
type Tally [Error + 1]int

// Add counts one status code.
func (t *Tally) Add(code string) { t[Group(code)]++ }

// State is the state the counted statuses make together: the first of failed, blocked,
// building and passing that any status has; inactive when none has (nothing but disabled or
// excluded builds, or nothing at all).
func (t *Tally) State() State {
	for _, s := range [...]State{Failed, Blocked, Building, Passing} {
		if t[s] > 0 {
			return s
		}
	}
	return Inactive
}

// Seen is the set of states some statuses have, a bit per state: what a package's state
// needs, in a byte (a project badge keeps one per package).
type Seen uint8

// Add notes one status code.
func (s *Seen) Add(code string) { *s |= 1 << Group(code) }

// State is the state of the statuses noted, by Tally.State's rule.
func (s Seen) State() State {
	for _, st := range [...]State{Failed, Blocked, Building, Passing} {
		if s&(1<<st) != 0 {
			return st
		}
	}
	return Inactive
}
