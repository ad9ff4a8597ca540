package buildapi

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// goldenRow is one request whose whole answer is testdata/statistics_<golden>.xml
// (UPDATE_GOLDEN=1 rewrites the files).
type goldenRow struct {
	name   string
	req    apitest.Request
	status int
	golden string
}

func (e *env) goldens(t *testing.T, rows []goldenRow) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got := apitest.Do(t, e.app, r.req)
			if got.Status != r.status {
				t.Fatalf("status %d, want %d: %s", got.Status, r.status, got.Body)
			}
			checkGolden(t, filepath.Join("testdata", "statistics_"+r.golden+".xml"), r.req.Method+" "+r.req.Path, got.Body)
		})
	}
}

// TestStatisticsGolden: every /statistics document on the demo world (fixed clock), whole, and
// the refusals of bad input.
func TestStatisticsGolden(t *testing.T) {
	e := newEnv(t)
	get := func(path string) apitest.Request { return req("GET", "/statistics/"+path, asBob, "") }
	e.goldens(t, []goldenRow{
		{"latest added", get("latest_added?limit=5"), 200, "latest_added"},
		{"latest updated", get("latest_updated"), 200, "latest_updated"},
		{"added: package", get("added_timestamp/devel:tools/pocket-cli"), 200, "added_timestamp"},
		{"added: project", get("added_timestamp/devel:tools"), 200, "added_timestamp_project"},
		{"updated: package", get("updated_timestamp/devel:tools/pocket-cli"), 200, "updated_timestamp"},
		{"updated: project", get("updated_timestamp/devel:libs"), 200, "updated_timestamp_project"},
		{"activity: package", get("activity/devel:tools/pocket-cli"), 200, "activity"},
		{"activity: project", get("activity/devel:libs"), 200, "activity_project"},
		{"most active packages", get("most_active?type=packages&limit=4"), 200, "most_active_packages"},
		{"most active: packages by default", get("most_active?limit=4"), 200, "most_active_packages"},
		{"most active packages, the service's own route", get("most_active_packages?limit=4"), 200, "most_active_packages"},
		{"most active projects", get("most_active?type=projects"), 200, "most_active_projects"},
		{"most active projects of all packages", get("most_active?type=projects&limit=0"), 200, "most_active_projects_all"},
		{"highest rated: only more than 3 ratings", get("highest_rated"), 200, "highest_rated"},
		{"rating of a package", get("rating/devel:tools/pocket-cli"), 200, "rating"},
		{"rating of a project", get("rating/devel:tools"), 200, "rating_project"},
		{"rating of an unrated package", get("rating/devel:libs/libforge"), 200, "rating_none"},
		{"download counter", get("download_counter"), 200, "download_counter"},
		{"download counter, limited and filtered", get("download_counter?project=devel:tools&limit=2"), 200, "download_counter_filtered"},
		{"download counter by arch", get("download_counter?group_by=arch&limit=2"), 200, "download_counter_arch_limited"},
		{"by project", get("download_counter?group_by=project"), 200, "download_counter_project"},
		{"by package", get("download_counter?group_by=package"), 200, "download_counter_package"},
		{"by repo", get("download_counter?group_by=repo"), 200, "download_counter_repo"},
		{"by arch", get("download_counter?group_by=arch"), 200, "download_counter_arch"},
		{"newest stats", get("newest_stats"), 200, "newest_stats"},
	})
	e.run(t, []scenario{
		{"no credentials", req("GET", "/statistics/latest_added", nil, ""), apitest.Expect{Status: 401}},
		{"limit not a number", get("latest_added?limit=ten"), code(400, "invalid_parameter", "limit 'ten' is not a number")},
		{"limit not whole", get("highest_rated?limit=1.5"), code(400, "invalid_parameter")},
		{"limit negative", get("most_active?limit=-1"), code(400, "invalid_parameter")},
		{"download limit", get("download_counter?limit=x"), code(400, "invalid_parameter")},
		{"latest updated limit", get("latest_updated?limit=%20"), code(400, "invalid_parameter")},
		{"unknown type", get("most_active?type=people"), code(400, "invalid_parameter", "type 'people' is unknown")},
		{"unknown group_by", get("download_counter?group_by=file"), code(400, "invalid_parameter", "group_by 'file' is unknown")},
		{"unknown project", get("activity/nope/pocket-cli"), code(404, "unknown_project", "Project not found: nope")},
		{"unknown package", get("activity/devel:tools/nope"), code(404, "unknown_package", "Package not found: devel:tools/nope")},
		{"added: unknown package", get("added_timestamp/devel:tools/nope"), code(404, "unknown_package")},
		{"updated: unknown project", get("updated_timestamp/nope"), code(404, "unknown_project")},
		{"rating: unknown project", get("rating/nope"), code(404, "unknown_project")},
		{"rating: unknown package", get("rating/devel:tools/nope"), code(404, "unknown_package")},
		{"download filter: unknown project", get("download_counter?project=nope"), code(404, "unknown_project")},
		{"download filter: unknown package", get("download_counter?project=devel:tools&package=nope"), code(404, "unknown_package")},
	})
}

// TestStatisticsRatings: rating and re-rating, the score's bounds, and highest_rated's rule — an
// object is listed from its fourth rating on.
func TestStatisticsRatings(t *testing.T) {
	e := newEnv(t)
	asCarol := basic("carol", "carol-password")
	const prj, pkg = "/statistics/rating/devel:tools", "/statistics/rating/devel:libs/libforge"
	e.run(t, []scenario{
		{"bob rates", req("PUT", pkg, asBob, "<rating>5</rating>"), ok},
		{"bob's rating", req("GET", pkg, asBob, ""), apitest.Expect{Status: 200,
			Exact: `<rating count="1" project="devel:libs" package="libforge" user_score="5">5.0</rating>` + "\n"}},
		{"carol rates, a bare number", req("PUT", pkg, asCarol, "2"), ok},
		{"bob changes his", req("PUT", pkg, asBob, "<rating> 4 </rating>"), ok},
		{"carol sees both", req("GET", pkg, asCarol, ""), apitest.Expect{Status: 200,
			Exact: `<rating count="2" project="devel:libs" package="libforge" user_score="2">3.0</rating>` + "\n"}},
		{"score 0", req("PUT", pkg, asBob, "<rating>0</rating>"), code(400, "error setting rating", "rating not saved")},
		{"score 6", req("PUT", pkg, asBob, "6"), code(400, "error setting rating")},
		{"not whole", req("PUT", pkg, asBob, "<rating>4.5</rating>"), code(400, "error setting rating")},
		{"not a number", req("PUT", pkg, asBob, "<rating>great</rating>"), code(400, "error setting rating")},
		{"empty", req("PUT", pkg, asBob, ""), code(400, "error setting rating")},
		{"broken document", req("PUT", pkg, asBob, "<rating>4"), code(400, "error setting rating")},
		{"refused scores changed nothing", req("GET", pkg, asBob, ""), want(200, `count="2"`, `user_score="4">3.0</rating>`)},
		{"unknown package", req("PUT", "/statistics/rating/devel:libs/nope", asBob, "3"), code(404, "unknown_package")},
		{"unknown project", req("PUT", "/statistics/rating/nope", asBob, "3"), code(404, "unknown_project")},
		{"three ratings: not listed", req("GET", "/statistics/highest_rated?limit=0", asBob, ""), apitest.Expect{Status: 200,
			Excludes: []string{`<project `}}},
		{"Admin's is the fourth", req("PUT", prj, asAdmin, "<rating>5</rating>"), ok},
		{"four ratings: listed", req("GET", "/statistics/highest_rated", asBob, ""), apitest.Expect{Status: 200, Exact: "<highest_rated>\n" +
			`  <project score="4.5000" count="4" name="devel:tools"></project>` + "\n" +
			`  <package score="4.5000" count="4" project="devel:tools" name="pocket-cli"></package>` + "\n</highest_rated>\n"}},
		{"a changed rating reorders", req("PUT", prj, asAdmin, "1"), ok},
		{"limit 1", req("GET", "/statistics/highest_rated?limit=1", asBob, ""), apitest.Expect{Status: 200, Exact: "<highest_rated>\n" +
			`  <package score="4.5000" count="4" project="devel:tools" name="pocket-cli"></package>` + "\n</highest_rated>\n"}},
		{"project score", req("GET", prj, asAdmin, ""), apitest.Expect{Status: 200,
			Exact: `<rating count="4" project="devel:tools" user_score="1">3.5</rating>` + "\n"}},
	})
}

// activityOf reads the activity a GET /statistics/activity answer shows.
func activityOf(t *testing.T, e *env, path string) float64 {
	t.Helper()
	got := apitest.Do(t, e.app, req("GET", "/statistics/activity/"+path, asAlice, ""))
	m := regexp.MustCompile(`activity="([^"]+)"`).FindStringSubmatch(got.Body)
	if got.Status != 200 || m == nil {
		t.Fatalf("activity %s: %d %s", path, got.Status, got.Body)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestStatisticsActivityClock: a new package's activity decays with the clock and a commit
// bumps it, against values worked out by hand: 20 at creation; 20/2.3276 = 8.59254167382712
// after 10,000,000 s; a commit then adds the capped 10 (18.59254167382712); a day later
// 18.59254167382712 · 2.3276^(−0.00864) = 18.45732143192193.
func TestStatisticsActivityClock(t *testing.T) {
	e := newEnv(t)
	const pkg = "home:alice/clocked"
	scale := 10_000_000 * time.Second
	e.run(t, []scenario{
		{"create", req("PUT", "/source/"+pkg+"/_meta", asAlice, `<package name="clocked"><title/><description/></package>`), ok},
		{"new: 20", req("GET", "/statistics/activity/"+pkg, asAlice, ""), apitest.Expect{Status: 200, Exact: "<activity>\n" +
			`  <package name="clocked" project="home:alice" activity="20.0"></package>` + "\n</activity>\n"}},
		{"its timestamps", req("GET", "/statistics/updated_timestamp/"+pkg, asAlice, ""), want(200, `updated="2026-11-22T13:00:00+01:00"`)},
	})
	e.clk.Advance(scale)
	for _, c := range []struct {
		name string
		want float64
		act  func()
	}{
		{"a scale later: divided by 2.3276", 8.59254167382712, nil},
		{"a commit adds 10", 18.59254167382712, func() {
			want(200).Check(t, apitest.Do(t, e.app, req("PUT", "/source/"+pkg+"/README", asAlice, "hello")))
		}},
		{"a day later", 18.45732143192193, func() { e.clk.Advance(24 * time.Hour) }},
	} {
		if c.act != nil {
			c.act()
		}
		if got := activityOf(t, e, pkg); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: activity %v, want %v", c.name, got, c.want)
		}
	}
	commit := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC).Add(scale)
	e.run(t, []scenario{
		{"updated at the commit", req("GET", "/statistics/updated_timestamp/"+pkg, asAlice, ""),
			want(200, fmt.Sprintf(`updated="%s"`, commit.In(statsZone).Format("2006-01-02T15:04:05-07:00")))},
		{"one update counted", req("GET", "/statistics/most_active?limit=0", asAlice, ""),
			want(200, `update_count="1" project="home:alice" name="clocked"`)},
		{"still created then", req("GET", "/statistics/added_timestamp/"+pkg, asAlice, ""), want(200, `created="2026-11-22T13:00:00+01:00"`)},
		{"newest first", req("GET", "/statistics/latest_updated?limit=1", asAlice, ""), want(200, `<package name="clocked" project="home:alice"`)},
	})
}

// TestStatisticsReadProtection: a hidden project and its package are in no list of a
// non-member and 404 on every path, while a member sees them.
func TestStatisticsReadProtection(t *testing.T) {
	e := newEnv(t)
	secret := `<project name="home:alice:secret"><title>S</title><description/><person userid="alice" role="maintainer"/>` +
		`<access><disable/></access></project>`
	report := `<redirect_stats><project name="home:alice:secret"><package name="plans"><repository name="standard">` +
		`<arch name="x86_64"><count filename="plans" filetype="rpm" version="1" release="1">7</count></arch></repository></package></project></redirect_stats>`
	e.run(t, []scenario{
		{"project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"package", req("PUT", "/source/home:alice:secret/plans/_meta", asAlice, `<package name="plans"><title/><description/></package>`), ok},
		{"repository", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret[:len(secret)-len("</project>")]+
			`<repository name="standard"><arch>x86_64</arch></repository></project>`), ok},
		{"alice rates it", req("PUT", "/statistics/rating/home:alice:secret/plans", asAlice, "5"), ok},
		{"Admin counts its downloads", req("PUT", "/statistics/redirect_stats", asAdmin, report), ok},
	})
	hidden := []string{"home:alice:secret"}
	for _, p := range []string{"latest_added?limit=0", "latest_updated?limit=0", "most_active?limit=0", "most_active?type=projects&limit=0",
		"download_counter", "download_counter?group_by=project"} {
		e.run(t, []scenario{
			{"bob: " + p, req("GET", "/statistics/"+p, asBob, ""), apitest.Expect{Status: 200, Excludes: hidden}},
			{"alice: " + p, req("GET", "/statistics/"+p, asAlice, ""), want(200, hidden...)},
		})
	}
	for _, p := range []string{"activity", "added_timestamp", "updated_timestamp", "rating"} {
		e.run(t, []scenario{
			{"bob: " + p, req("GET", "/statistics/"+p+"/home:alice:secret/plans", asBob, ""), code(404, "unknown_project")},
			{"bob: project " + p, req("GET", "/statistics/"+p+"/home:alice:secret", asBob, ""), code(404, "unknown_project")},
			{"alice: " + p, req("GET", "/statistics/"+p+"/home:alice:secret/plans", asAlice, ""), want(200, `project="home:alice:secret"`)},
		})
	}
	e.run(t, []scenario{
		{"bob rates it", req("PUT", "/statistics/rating/home:alice:secret/plans", asBob, "1"), code(404, "unknown_project")},
		{"bob's sums leave it out", req("GET", "/statistics/download_counter?limit=1", asBob, ""), want(200, `all="114" sum="114"`)},
		{"alice's count it", req("GET", "/statistics/download_counter?limit=1", asAlice, ""), want(200, `all="121" sum="121"`)},
		{"bob filters by it", req("GET", "/statistics/download_counter?project=home:alice:secret", asBob, ""), code(404, "unknown_project")},
	})
}

// TestStatisticsRedirectStats: the redirector's report needs the permission (Admin), sets the
// counters it names, reports the entries it could not import, and moves newest_stats.
func TestStatisticsRedirectStats(t *testing.T) {
	e := newEnv(t)
	report := `<redirect_stats>
  <project name="devel:tools">
    <package name="pocket-cli">
      <repository name="standard">
        <arch name="x86_64">
          <count release="1.1" created_at="2026-11-15T13:00:00+01:00" counted_at="2026-11-22T12:30:00+01:00" filetype="rpm" filename="pocket-cli" version="1.1.0">50</count>
          <count release="2.1" filetype="rpm" filename="pocket-cli" version="1.2.0">3</count>
          <count release="1.1" filetype="rpm" filename="pocket-cli-doc" version="1.1.0">many</count>
        </arch>
      </repository>
      <repository name="nope"><arch name="x86_64"><count filename="pocket-cli" filetype="rpm" version="1" release="1">1</count></arch></repository>
    </package>
    <package name="gone"><repository name="standard"><arch name="x86_64"><count filename="gone" filetype="rpm" version="1" release="1">9</count></arch></repository></package>
  </project>
</redirect_stats>`
	e.run(t, []scenario{
		{"bob may not", req("PUT", "/statistics/redirect_stats", asBob, report),
			code(403, "permission denied", "download counters cannot be set, insufficient permissions")},
		{"nothing changed", req("GET", "/statistics/newest_stats", asBob, ""), want(200, "2026-11-22T12:00:00+01:00")},
		{"not a report", req("PUT", "/statistics/redirect_stats", asAdmin, "<redirect_stats><project>"), code(400, "validation_failed")},
		{"another document", req("PUT", "/statistics/redirect_stats", asAdmin, "<status/>"), code(400, "validation_failed")},
		{"Admin reports", req("PUT", "/statistics/redirect_stats", asAdmin, report), apitest.Expect{Status: 200, Exact: `<status code="ok">` +
			"\n  <summary>Ok</summary>\n  <details>WARNING: 3 redirect_stats were not imported: devel:tools/pocket-cli/standard/x86_64 " +
			"(pocket-cli-doc:1.1.0:1.1:rpm), devel:tools/pocket-cli/nope/x86_64 (pocket-cli:1:1:rpm), devel:tools/gone/standard/x86_64 " +
			"(gone:1:1:rpm)</details>\n</status>\n"}},
		{"set, not added", req("GET", "/statistics/download_counter?limit=2", asBob, ""), want(200, `all="125" sum="125"`,
			`version="1.1.0" release="1.1">50</count>`)},
		{"a new counter", req("GET", "/statistics/download_counter?project=devel:tools&package=pocket-cli&arch=x86_64", asBob, ""),
			want(200, `sum="53"`, `version="1.2.0" release="2.1">3</count>`)},
		{"newest: the report's time", req("GET", "/statistics/newest_stats", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<newest_stats>2026-11-22T13:00:00+01:00</newest_stats>\n"}},
		{"an empty report", req("PUT", "/statistics/redirect_stats", asAdmin, "<redirect_stats/>"), apitest.Expect{Status: 200,
			Exact: "<status code=\"ok\">\n  <summary>Ok</summary>\n</status>\n"}},
	})
}

// TestStatisticsNoCounters: without counters, newest_stats is the epoch in the service's zone
// (the seed's 1970-01-01T01:00:00+01:00), and download_counter sums nothing, first and last now.
func TestStatisticsNoCounters(t *testing.T) {
	e := newEnv(t)
	if err := e.db.Write(func(tx kv.Tx) error { return store.DeletePrefix(tx, store.BuildDownloadStats, nil) }); err != nil {
		t.Fatal(err)
	}
	e.run(t, []scenario{
		{"newest", req("GET", "/statistics/newest_stats", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<newest_stats>1970-01-01T01:00:00+01:00</newest_stats>\n"}},
		{"counter", req("GET", "/statistics/download_counter", asBob, ""), apitest.Expect{Status: 200,
			Exact: `<download_counter all="0" sum="0" first="2026-11-22T13:00:00+01:00" last="2026-11-22T13:00:00+01:00"></download_counter>` + "\n"}},
		{"grouped", req("GET", "/statistics/download_counter?group_by=package", asBob, ""), apitest.Expect{Status: 200,
			Exact: `<download_counter all="0" first="2026-11-22T13:00:00+01:00" last="2026-11-22T13:00:00+01:00"></download_counter>` + "\n"}},
	})
}

// TestStatisticsPublishedDownloads: a file downloaded from /published counts for the package
// that built it — noted by the GET, written in a batch by the clock job or before the counters
// are read — while metadata, missing files, other views and refused reads count nothing.
func TestStatisticsPublishedDownloads(t *testing.T) {
	w := newBinWorld(t)
	const tree = "/published/binworld/standard"
	for _, r := range []apitest.Request{
		req("GET", tree+"/x86_64/hello-1.0-1.1.x86_64.rpm", asBob, ""),
		req("GET", tree+"/x86_64/hello-1.0-1.1.x86_64.rpm", asAlice, ""),
		req("GET", tree+"/src/hello-1.0-1.1.src.rpm", asBob, ""),
		req("GET", tree+"/repodata/repomd.xml", asBob, ""),
		req("GET", tree+"/x86_64/nope-1.0-1.1.x86_64.rpm", asBob, ""),
		req("GET", tree+"/x86_64/hello-1.0-1.1.x86_64.rpm?view=fileinfo", asBob, ""),
		req("GET", tree+"/src/closed-1.0-1.1.src.rpm", asBob, ""), // 403: source access
	} {
		apitest.Do(t, w.app, r)
	}
	if err := w.svc.FlushDownloads(); err != nil { // the clock job's work
		t.Fatal(err)
	}
	w.clk.Advance(time.Hour)
	want(200).Check(t, apitest.Do(t, w.app, req("GET", tree+"/x86_64/libfoo-1.0-1.1.x86_64.rpm", asBob, ""))) // read before the job runs
	w.run(t, []scenario{
		{"counted", req("GET", "/statistics/download_counter?project=binworld", asBob, ""), apitest.Expect{Status: 200, Exact: fmt.Sprintf(
			`<download_counter all="118" sum="4" first="2026-11-15T13:00:00+01:00" last="%s">`+"\n"+
				`  <count project="binworld" package="hello" repository="standard" architecture="x86_64" filename="hello" filetype="rpm" version="1.0" release="1.1">2</count>`+"\n"+
				`  <count project="binworld" package="hello" repository="standard" architecture="src" filename="hello" filetype="rpm" version="1.0" release="1.1">1</count>`+"\n"+
				`  <count project="binworld" package="libfoo" repository="standard" architecture="x86_64" filename="libfoo" filetype="rpm" version="1.0" release="1.1">1</count>`+"\n"+
				"</download_counter>\n", statsTime(w.clk.Now()))}},
		{"by package", req("GET", "/statistics/download_counter?group_by=package&limit=1", asBob, ""), want(200,
			`<count package="pocket-cli" files="3" project="devel:tools">64</count>`)},
		{"newest", req("GET", "/statistics/newest_stats", asBob, ""), want(200, statsTime(w.clk.Now()))},
	})
}

// TestStatisticsDeletedPackage: a deleted package's counters and ratings leave the lists.
func TestStatisticsDeletedPackage(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"delete pocket-cli", req("DELETE", "/source/devel:tools/pocket-cli", asAlice, ""), ok},
		{"its counters are gone", req("GET", "/statistics/download_counter", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`all="50" sum="50"`}, Excludes: []string{`package="pocket-cli"`}}},
		{"its rating too", req("GET", "/statistics/highest_rated", asBob, ""), apitest.Expect{Status: 200, Exact: "<highest_rated></highest_rated>\n"}},
		{"and its activity", req("GET", "/statistics/activity/devel:tools/pocket-cli", asBob, ""), code(404, "unknown_package")},
	})
}

// TestStatisticsRecreatedPackage: a package created anew under a deleted one's name starts
// without its ratings and counters, at activity 20.
func TestStatisticsRecreatedPackage(t *testing.T) {
	e := newEnv(t)
	const meta = `<package name="libpocket"><title/><description/></package>`
	e.clk.Advance(time.Hour)
	e.run(t, []scenario{
		{"delete", req("DELETE", "/source/devel:libs/libpocket", asAdmin, ""), ok},
		{"create anew", req("PUT", "/source/devel:libs/libpocket/_meta", asAdmin, meta), ok},
		{"no ratings", req("GET", "/statistics/rating/devel:libs/libpocket", asBob, ""), want(200, `count="0"`, ">-1.0</rating>")},
		{"no counters", req("GET", "/statistics/download_counter?group_by=package", asBob, ""), apitest.Expect{Status: 200,
			Excludes: []string{`package="libpocket"`}}},
		{"activity 20", req("GET", "/statistics/activity/devel:libs/libpocket", asBob, ""), want(200, `activity="20.0"`)},
	})
}

// TestRubyFloat: floats as the service's Ruby writes them.
func TestRubyFloat(t *testing.T) {
	for v, want := range map[float64]string{20: "20.0", 4.33: "4.33", -1: "-1.0", 0: "0.0", 39.613313349342484: "39.613313349342484",
		0.00001: "1.0e-05", 1e16: "1.0e+16", 1.5e20: "1.5e+20", 0.0001: "0.0001", 123456789012345: "123456789012345.0"} {
		if got := rubyFloat(v); got != want {
			t.Errorf("rubyFloat(%v) = %s, want %s", v, got, want)
		}
	}
}
