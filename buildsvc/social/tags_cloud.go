package social

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The tag cloud (GET /tag/_tagcloud, /user/U/tags/_tagcloud) and the tag name rule.
//
// A cloud counts taggings per tag name: every user's (the global cloud) or one user's. With
// limit N > 0 only the N most used tags take part (ties: by name, the service left them in
// its sort's order); then min and max are the smallest and largest count among them, and with
// steps S each tag gets, as the service's Tagcloud computes it:
//   - raw:         its count;
//   - linear:      size = round(S × (count − min) / (max − min));
//   - logarithmic: size = round(S × (ln count − ln min) / (ln max − ln min));
//
// where the divisor is 1 when max = min (every size is then 0), and round takes halves away
// from zero (Ruby's Float#round). The cloud lists names case-insensitively. Parameters: steps
// 1..100, default 6; distribution linear, logarithmic or raw, default logarithmic; limit an
// integer ≥ 0, default 100, 0 for no limit. A parameter given empty is taken as absent. The
// service answered a bad steps or distribution with 404 invalid_value; here it is 400 with the
// same code and message, and a limit that is not a whole number ≥ 0 (which the service read
// as 0, or worse) is refused the same way.

// TagCloudQuery is a cloud route's parameters, as the URL has them.
type TagCloudQuery struct {
	Distribution, Steps, Limit string
}

// Tag cloud distributions.
const (
	CloudLinear      = "linear"
	CloudLogarithmic = "logarithmic"
	CloudRaw         = "raw"
)

// TagCloud is the <tagcloud> document: User is set for one user's cloud. Each tag has Count
// (raw) or Size (the other distributions).
type TagCloud struct {
	Distribution string
	Steps        int
	User         string
	Tags         []CloudTag
}

// CloudTag is one tag of a cloud.
type CloudTag struct {
	Name  string
	Count int
	Size  int
}

// TagCloud computes the cloud of user's tags (user "": everyone's) for who.
func (s *Service) TagCloud(who buildstore.Person, user string, q TagCloudQuery) (TagCloud, error) {
	cloud := TagCloud{User: user}
	steps, dist, limit, err := cloudParams(q)
	if err != nil {
		return cloud, err
	}
	cloud.Distribution, cloud.Steps = dist, steps
	counts := map[string]int{}
	err = s.Store().View(func(tx kv.Tx) error {
		if user == "" {
			return buildstore.EachTagging(tx, func(t buildstore.Tagging) error {
				if !buildsvc.ProjectHiddenFrom(tx, who, t.Project) {
					counts[t.Tag]++
				}
				return nil
			})
		}
		if _, err := buildstore.GetPerson(tx, user); err != nil {
			return err
		}
		list, err := buildstore.TaggingsBy(tx, user)
		for _, t := range visibleTaggings(tx, who, list) {
			counts[t.Tag]++
		}
		return err
	})
	cloud.Tags = cloudTags(counts, dist, steps, limit)
	return cloud, err
}

// cloudParams reads and checks a cloud's parameters.
func cloudParams(q TagCloudQuery) (steps int, dist string, limit int, err error) {
	steps, dist, limit = 6, CloudLogarithmic, 100
	if q.Steps != "" {
		n, err := strconv.Atoi(q.Steps)
		if err != nil || n < 1 || n > 100 {
			return 0, "", 0, buildsvc.BadRequest("invalid_value", "Invalid value for parameter steps.  (must be 1..100)")
		}
		steps = n
	}
	if q.Distribution != "" {
		if q.Distribution != CloudLinear && q.Distribution != CloudLogarithmic && q.Distribution != CloudRaw {
			return 0, "", 0, buildsvc.BadRequest("invalid_value", "Invalid value for parameter distribution.  (distribution=%s)", q.Distribution)
		}
		dist = q.Distribution
	}
	if q.Limit != "" {
		n, err := strconv.Atoi(q.Limit)
		if err != nil || n < 0 {
			return 0, "", 0, buildsvc.BadRequest("invalid_value", "Invalid value for parameter limit.  (must be an integer, 0 for no limit)")
		}
		limit = n
	}
	return steps, dist, limit, nil
}

// cloudTags turns counts per tag into the cloud's tags (the arithmetic is the file comment's).
func cloudTags(counts map[string]int, dist string, steps, limit int) []CloudTag {
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	if limit > 0 && len(names) > limit {
		slices.SortFunc(names, func(a, b string) int {
			if counts[a] != counts[b] {
				return counts[b] - counts[a]
			}
			return compareTags(a, b)
		})
		names = names[:limit]
	}
	slices.SortFunc(names, compareTags)
	lo, hi := 1, 1
	for i, n := range names {
		if c := counts[n]; i == 0 || c < lo {
			lo = c
		}
		if c := counts[n]; i == 0 || c > hi {
			hi = c
		}
	}
	out := make([]CloudTag, 0, len(names))
	for _, n := range names {
		t := CloudTag{Name: n}
		switch c := counts[n]; dist {
		case CloudRaw:
			t.Count = c
		case CloudLinear:
			span := float64(hi) - float64(lo)
			if hi == lo {
				span = 1
			}
			t.Size = int(math.Round(float64(steps) * ((float64(c) - float64(lo)) / span)))
		default:
			minLog, maxLog := math.Log(float64(lo)), math.Log(float64(hi))
			span := maxLog - minLog
			if maxLog == minLog {
				span = 1
			}
			t.Size = int(math.Round(float64(steps) * ((math.Log(float64(c)) - minLog) / span)))
		}
		out = append(out, t)
	}
	return out
}

// checkTagNames refuses a list holding a name the service refuses (? or :) or could not store
// (empty, longer than MaxTagLength, not UTF-8, control characters): 400 tagcreation_error
// naming them as the service did (each name quoted).
func checkTagNames(names []string) error {
	var bad []string
	for _, n := range names {
		if !validTagName(n) {
			bad = append(bad, strconv.Quote(n))
		}
	}
	if bad == nil {
		return nil
	}
	return buildsvc.BadRequest("tagcreation_error", "[TAG:] There are rejected Tags: [%s]", strings.Join(bad, ", "))
}

// validTagName is the tag name rule.
func validTagName(n string) bool {
	return n != "" && utf8.ValidString(n) && utf8.RuneCountInString(n) <= MaxTagLength &&
		!strings.ContainsAny(n, "?:") && !strings.ContainsFunc(n, unicode.IsControl)
}
