package buildapi

import (
	"encoding/xml"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/statistics"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Statistics, /statistics/…: the rules are buildsvc's (statistics*.go there); the documents are
// the 2.7-era service's views (app/views/statistics/*.xml.builder): element and attribute names
// and order as they write them.

// statsZone is the zone statistics times are written in: the service's (xmlschema of its local
// time, +01:00), so newest_stats without counters is the seed's 1970-01-01T01:00:00+01:00.
var statsZone = time.FixedZone("CET", 3600)

// statsTime is t as the service's xmlschema writes it.
func statsTime(t time.Time) string { return t.In(statsZone).Format("2006-01-02T15:04:05-07:00") }

// rubyFloat writes v as the service's Float#to_s does: the shortest digits that read back as v,
// always with a fraction ("20.0"), in exponent form below 1e-4 and from 1e16 on.
func rubyFloat(v float64) string {
	if a := math.Abs(v); a != 0 && (a < 1e-4 || a >= 1e16) {
		s := strconv.FormatFloat(v, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
		if len(digits) < 2 {
			digits = strings.Repeat("0", 2-len(digits)) + digits
		}
		return mant + "e" + sign + digits
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// statsEntry is a <project/> or <package/> line of the statistics documents: XMLName says
// which, the attributes are in the order the service's view writes them (it differs by view).
type statsEntry struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
}

// statsLine is a line called name with attributes given as name, value pairs.
func statsLine(name string, kv ...string) statsEntry {
	e := statsEntry{XMLName: xml.Name{Local: name}}
	for i := 0; i+1 < len(kv); i += 2 {
		e.Attrs = append(e.Attrs, xml.Attr{Name: xml.Name{Local: kv[i]}, Value: kv[i+1]})
	}
	return e
}

// statsList is a statistics list document: its root name and lines.
type statsList struct {
	XMLName xml.Name
	Items   []statsEntry
}

// objectEntry is the line of a project (pkg "": name, then the rest) or a package (name,
// project, then the rest), as latest_added, latest_updated and activity write them.
func objectEntry(project, pkg string, rest ...string) statsEntry {
	if pkg == "" {
		return statsLine("project", append([]string{"name", project}, rest...)...)
	}
	return statsLine("package", append([]string{"name", pkg, "project", project}, rest...)...)
}

// timeList renders times as a root document: created= for latest_added, updated= for
// latest_updated.
func timeList(root string) func([]statistics.StatsItem) statsList {
	attr := "updated"
	if root == "latest_added" {
		attr = "created"
	}
	return func(list []statistics.StatsItem) statsList {
		doc := statsList{XMLName: xml.Name{Local: root}}
		for _, it := range list {
			doc.Items = append(doc.Items, objectEntry(it.Project, it.Package, attr, statsTime(it.Time)))
		}
		return doc
	}
}

// timeOne renders one timestamp the way the lists do (added_timestamp's root is latest_added).
func timeOne(root string) func(statistics.StatsItem) statsList {
	return func(it statistics.StatsItem) statsList { return timeList(root)([]statistics.StatsItem{it}) }
}

// activityDoc is <activity><package name project activity/></activity> (or a project line).
func activityDoc(it statistics.ActivityItem) statsList {
	return statsList{XMLName: xml.Name{Local: "activity"},
		Items: []statsEntry{objectEntry(it.Project, it.Package, "activity", rubyFloat(it.Activity))}}
}

// mostActiveDoc is <most_active> with <package activity update_count project name/> lines, or
// <project activity packages name/> lines.
func mostActiveDoc(list []statistics.ActivityItem) statsList {
	doc := statsList{XMLName: xml.Name{Local: "most_active"}}
	for _, it := range list {
		e := statsLine("project", "activity", rubyFloat(it.Activity), "packages", strconv.Itoa(it.Packages), "name", it.Project)
		if it.Package != "" {
			e = statsLine("package", "activity", rubyFloat(it.Activity), "update_count", strconv.Itoa(it.Updates),
				"project", it.Project, "name", it.Package)
		}
		doc.Items = append(doc.Items, e)
	}
	return doc
}

// highestRatedDoc is <highest_rated> with <package score count project name/> and <project
// score count name/> lines; the score is the database's mean, four places.
func highestRatedDoc(list []statistics.RatedItem) statsList {
	doc := statsList{XMLName: xml.Name{Local: "highest_rated"}}
	for _, it := range list {
		score, count := strconv.FormatFloat(it.Score, 'f', 4, 64), strconv.Itoa(it.Count)
		e := statsLine("project", "score", score, "count", count, "name", it.Project)
		if it.Package != "" {
			e = statsLine("package", "score", score, "count", count, "project", it.Project, "name", it.Package)
		}
		doc.Items = append(doc.Items, e)
	}
	return doc
}

// ratingXML is <rating count project package user_score>score</rating>.
type ratingXML struct {
	XMLName   xml.Name `xml:"rating"`
	Count     int      `xml:"count,attr"`
	Project   string   `xml:"project,attr"`
	Package   string   `xml:"package,attr,omitempty"`
	UserScore int      `xml:"user_score,attr"`
	Score     string   `xml:",chardata"`
}

func ratingDoc(r statistics.RatingSummary) ratingXML {
	return ratingXML{Count: r.Count, Project: r.Project, Package: r.Package, UserScore: r.UserScore, Score: rubyFloat(r.Score)}
}

// downloadCounterXML is <download_counter all sum first last> with <count …>N</count> lines
// (grouped: no sum, and each line names its group and its file count).
type downloadCounterXML struct {
	XMLName xml.Name   `xml:"download_counter"`
	All     int64      `xml:"all,attr"`
	Sum     *int64     `xml:"sum,attr"`
	First   string     `xml:"first,attr"`
	Last    string     `xml:"last,attr"`
	Counts  []countXML `xml:"count"`
}

type countXML struct {
	Attrs []xml.Attr `xml:",any,attr"`
	Count int64      `xml:",chardata"`
}

func downloadCounterDoc(d statistics.DownloadCounts) downloadCounterXML {
	doc := downloadCounterXML{All: d.All, First: statsTime(d.First), Last: statsTime(d.Last)}
	attr := func(name, value string) xml.Attr { return xml.Attr{Name: xml.Name{Local: name}, Value: value} }
	if d.GroupBy == "" {
		doc.Sum = &d.Sum
		for _, f := range d.Files {
			doc.Counts = append(doc.Counts, countXML{Count: f.Count, Attrs: []xml.Attr{attr("project", f.Project),
				attr("package", f.Package), attr("repository", f.Repository), attr("architecture", f.Arch),
				attr("filename", f.Filename), attr("filetype", f.Filetype), attr("version", f.Version), attr("release", f.Release)}})
		}
		return doc
	}
	for _, g := range d.Groups {
		c := countXML{Count: g.Count, Attrs: []xml.Attr{attr(d.GroupBy, g.Name), attr("files", strconv.Itoa(g.Files))}}
		if d.GroupBy == "package" || d.GroupBy == "repo" {
			c.Attrs = append(c.Attrs, attr("project", g.Project))
		}
		doc.Counts = append(doc.Counts, c)
	}
	return doc
}

// newestStatsXML is <newest_stats>time</newest_stats>.
type newestStatsXML struct {
	XMLName xml.Name `xml:"newest_stats"`
	Time    string   `xml:",chardata"`
}

// okWithDetails is <status code="ok"> with details: the service's answer to a redirect report
// with entries it did not import.
type okWithDetails struct {
	XMLName xml.Name `xml:"status"`
	Code    string   `xml:"code,attr"`
	Summary string   `xml:"summary"`
	Details string   `xml:"details,omitempty"`
}

// bindStatistics registers /statistics/….
func (a *api) bindStatistics(r fiber.Router) {
	a.get(r, "/statistics/latest_added", func(c *fiber.Ctx) error {
		return replyXML(c, timeList("latest_added"))(a.Build.Statistics.LatestAdded(personOf(c), c.Query("limit")))
	})
	a.get(r, "/statistics/latest_updated", func(c *fiber.Ctx) error {
		return replyXML(c, timeList("latest_updated"))(a.Build.Statistics.LatestUpdated(personOf(c), c.Query("limit")))
	})
	a.get(r, "/statistics/most_active", func(c *fiber.Ctx) error {
		return replyXML(c, mostActiveDoc)(a.Build.Statistics.MostActive(personOf(c), c.Query("type"), c.Query("limit")))
	})
	for _, typ := range []string{"packages", "projects"} {
		a.get(r, "/statistics/most_active_"+typ, func(c *fiber.Ctx) error {
			return replyXML(c, mostActiveDoc)(a.Build.Statistics.MostActive(personOf(c), typ, c.Query("limit")))
		})
	}
	a.get(r, "/statistics/highest_rated", func(c *fiber.Ctx) error {
		return replyXML(c, highestRatedDoc)(a.Build.Statistics.HighestRated(personOf(c), c.Query("limit")))
	})
	a.get(r, "/statistics/download_counter", func(c *fiber.Ctx) error {
		q := statistics.DownloadQuery{GroupBy: c.Query("group_by"), Limit: c.Query("limit"), Project: c.Query("project"),
			Package: c.Query("package"), Repo: c.Query("repo"), Arch: c.Query("arch")}
		return replyXML(c, downloadCounterDoc)(a.Build.Statistics.DownloadCounter(personOf(c), q))
	})
	a.get(r, "/statistics/newest_stats", func(c *fiber.Ctx) error {
		return replyXML(c, func(t time.Time) newestStatsXML { return newestStatsXML{Time: statsTime(t)} })(a.Build.Statistics.NewestStats(personOf(c)))
	})
	r.Put("/statistics/redirect_stats", a.authenticated, func(c *fiber.Ctx) error {
		skipped, err := a.Build.Statistics.RedirectStats(personOf(c), c.Body())
		if err != nil {
			return err
		}
		doc := okWithDetails{Code: "ok", Summary: "Ok"}
		if len(skipped) > 0 {
			doc.Details = "WARNING: " + strconv.Itoa(len(skipped)) + " redirect_stats were not imported: " + strings.Join(skipped, ", ")
		}
		return sendXML(c, doc)
	})
	for _, path := range []string{"/statistics/%s/:project", "/statistics/%s/:project/:package"} {
		route := func(name string) string { return strings.Replace(path, "%s", name, 1) }
		a.get(r, route("added_timestamp"), a.statsObject(a.Build.Statistics.AddedTimestamp, timeOne("latest_added")))
		a.get(r, route("updated_timestamp"), a.statsObject(a.Build.Statistics.UpdatedTimestamp, timeOne("latest_updated")))
		a.get(r, route("activity"), func(c *fiber.Ctx) error {
			return replyXML(c, activityDoc)(a.Build.Statistics.Activity(personOf(c), pathParam(c, "project"), pathParam(c, "package")))
		})
		a.get(r, route("rating"), func(c *fiber.Ctx) error {
			return replyXML(c, ratingDoc)(a.Build.Statistics.Rating(personOf(c), pathParam(c, "project"), pathParam(c, "package")))
		})
		r.Put(route("rating"), a.authenticated, func(c *fiber.Ctx) error {
			return replyOK(c, a.Build.Statistics.Rate(personOf(c), pathParam(c, "project"), pathParam(c, "package"), string(c.Body())))
		})
	}
}

// statsObject is the handler of a timestamp route: read names the project (and package) of the
// path.
func (a *api) statsObject(read func(buildstore.Person, string, string) (statistics.StatsItem, error),
	doc func(statistics.StatsItem) statsList) fiber.Handler {
	return func(c *fiber.Ctx) error {
		return replyXML(c, doc)(read(personOf(c), pathParam(c, "project"), pathParam(c, "package")))
	}
}
