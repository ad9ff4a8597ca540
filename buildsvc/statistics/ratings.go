package statistics

import (
	"encoding/xml"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Ratings (GET and PUT /statistics/rating/P[/K], GET /statistics/highest_rated), as the service
// keeps them: every signed-in person gives an object a score from 1 to 5 (a second PUT replaces
// the first); an object's score is the mean of its scores; the highest rated list holds only
// objects with more than MinRatings scores, best first.
//
// Refused where the service would quietly drop the score (its model validation failed without
// an error): a score that is not a whole number from 1 to 5 answers 400 with the service's code
// for a rating not saved.

// MinRatings is how many ratings an object needs beyond which highest_rated lists it.
const MinRatings = 3

// RatingSummary is an object's rating as GET …/rating shows it: Score the mean rounded to two
// places (-1 without ratings), Count the number of ratings, UserScore the caller's (0: none).
type RatingSummary struct {
	Project, Package string
	Score            float64
	Count, UserScore int
}

// Rating answers GET /statistics/rating/P[/K] for who.
func (s *Service) Rating(who buildstore.Person, project, pkg string) (RatingSummary, error) {
	out := RatingSummary{Project: project, Package: pkg}
	err := s.Store().View(func(tx kv.Tx) error {
		if err := ratedObject(tx, who, project, pkg); err != nil {
			return err
		}
		ratings, err := buildstore.Ratings(tx, project, pkg)
		if err != nil {
			return err
		}
		sum := 0
		for login, r := range ratings {
			sum += r.Score
			if login == who.Login {
				out.UserScore = r.Score
			}
		}
		out.Count, out.Score = len(ratings), -1
		if out.Count > 0 {
			out.Score = math.Round(float64(sum)/float64(out.Count)*100) / 100
		}
		return nil
	})
	return out, err
}

// Rate answers PUT /statistics/rating/P[/K]: who's score, the body — <rating>N</rating> as the
// service reads it (the text of the document), or the bare number.
func (s *Service) Rate(who buildstore.Person, project, pkg, body string) error {
	score, err := parseScore(body)
	if err != nil {
		return err
	}
	now := s.Clock().Now().UTC()
	return s.Store().Write(func(tx kv.Tx) error { return RateTx(tx, who, project, pkg, score, now) })
}

// RateTx is Rate of a parsed score (1 to 5) at now inside the caller's transaction (the
// fixtures rate the demo projects and packages in theirs).
func RateTx(tx kv.Tx, who buildstore.Person, project, pkg string, score int, now time.Time) error {
	if score < 1 || score > 5 {
		return buildsvc.BadRequest("error setting rating", "rating not saved: the score must be a whole number from 1 to 5, not '%d'", score)
	}
	if err := ratedObject(tx, who, project, pkg); err != nil {
		return err
	}
	return buildstore.PutRating(tx, buildstore.RatingKey{Project: project, Package: pkg, Login: who.Login},
		buildstore.Rating{Score: score, When: now})
}

// parseScore reads a rating body: a whole number from 1 to 5.
func parseScore(body string) (int, error) {
	text := strings.TrimSpace(body)
	if strings.HasPrefix(text, "<") {
		var doc struct {
			Text string `xml:",chardata"`
		}
		if err := xml.Unmarshal([]byte(text), &doc); err != nil {
			return 0, buildsvc.BadRequest("error setting rating", "rating not saved: the body is no rating document (%v)", err)
		}
		text = strings.TrimSpace(doc.Text)
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > 5 {
		return 0, buildsvc.BadRequest("error setting rating", "rating not saved: the score must be a whole number from 1 to 5, not '%s'", text)
	}
	return n, nil
}

// ratedObject checks that the project (and package) a rating path names exists for who.
func ratedObject(tx kv.Tx, who buildstore.Person, project, pkg string) error {
	if _, err := buildsvc.ReadableProject(tx, who, project); err != nil {
		return err
	}
	if pkg == "" {
		return nil
	}
	_, _, err := buildsvc.LookupPackage(tx, project, pkg)
	return err
}

// RatedItem is a line of highest_rated: the mean score and the number of ratings.
type RatedItem struct {
	Project, Package string
	Score            float64
	Count            int
}

// HighestRated answers GET /statistics/highest_rated?limit=N (default 10, 0: all): the objects
// who may see with more than MinRatings ratings, by mean score (more ratings first among equal
// scores, then by name).
func (s *Service) HighestRated(who buildstore.Person, limit string) ([]RatedItem, error) {
	n, err := statsLimit(limit, defaultStatsLimit)
	if err != nil {
		return nil, err
	}
	var list []RatedItem
	err = s.Store().View(func(tx kv.Tx) error {
		sums := map[[2]string]*RatedItem{}
		var order [][2]string
		if err := buildstore.EachRating(tx, func(k buildstore.RatingKey, r buildstore.Rating) error {
			key := [2]string{k.Project, k.Package}
			it := sums[key]
			if it == nil {
				it = &RatedItem{Project: k.Project, Package: k.Package}
				sums[key] = it
				order = append(order, key)
			}
			it.Score += float64(r.Score)
			it.Count++
			return nil
		}); err != nil {
			return err
		}
		for _, key := range order {
			it := sums[key]
			if it.Count <= MinRatings || ratedObject(tx, who, it.Project, it.Package) != nil {
				continue
			}
			it.Score /= float64(it.Count)
			list = append(list, *it)
		}
		return nil
	})
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Score != list[j].Score {
			return list[i].Score > list[j].Score
		}
		return list[i].Count > list[j].Count
	})
	return firstN(list, n), err
}
