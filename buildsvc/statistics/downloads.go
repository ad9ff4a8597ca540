package statistics

import (
	"encoding/xml"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Download counters (GET /statistics/download_counter, /statistics/newest_stats, PUT
// /statistics/redirect_stats), as the service kept them while it had them: one counter per file
// (project, package, repository, arch, file name, type, version, release), fed by the download
// redirector's reports — each <count> sets the file's counter — and here also by the downloads
// of /published itself (download_queue.go).
//
// Simplified: the service wrote the entries it could not import to a log file and answered ok
// with a warning; here the warning names them in the answer's details.

// DefaultDownloadLimit is how many counters download_counter lists when no limit is given.
const DefaultDownloadLimit = 100

// Download counter group_by values.
var downloadGroups = []string{"project", "package", "repo", "arch"}

// DownloadQuery is what a download_counter request asks: a grouping (or "" for the files), a
// limit, and for the files optional filters.
type DownloadQuery struct {
	GroupBy, Limit               string
	Project, Package, Repo, Arch string
}

// DownloadGroup is one line of a grouped answer: the group's name (a project, package,
// repository or arch; Project names a package's or repository's project), the sum of its
// counters and how many files it has.
type DownloadGroup struct {
	Name, Project string
	Count         int64
	Files         int
}

// DownloadCounts is download_counter's answer: All is the sum of every counter who may see, Sum
// the sum of those the filters select; First the first time counted, Last the last (both now
// when nothing was counted); Files or Groups the lines.
type DownloadCounts struct {
	GroupBy     string
	All, Sum    int64
	First, Last time.Time
	Files       []buildstore.DownloadStat
	Groups      []DownloadGroup
}

// DownloadCounter answers GET /statistics/download_counter for who: the most downloaded files
// (limit default 100, 0: all), optionally only of a project, package, repository or arch; or
// with group_by their sums per project, package, repo or arch with file counts.
func (s *Service) DownloadCounter(who buildstore.Person, q DownloadQuery) (DownloadCounts, error) {
	out := DownloadCounts{GroupBy: q.GroupBy}
	if q.GroupBy != "" && !slices.Contains(downloadGroups, q.GroupBy) {
		return out, buildsvc.BadRequest("invalid_parameter", "group_by '%s' is unknown: %s", q.GroupBy, strings.Join(downloadGroups, ", "))
	}
	n, err := statsLimit(q.Limit, DefaultDownloadLimit)
	if err != nil {
		return out, err
	}
	s.FlushDownloads()
	now := s.Clock().Now()
	err = s.Store().View(func(tx kv.Tx) error {
		if q.GroupBy == "" {
			if err := checkDownloadFilter(tx, who, q); err != nil {
				return err
			}
		}
		groups := map[[2]string]*DownloadGroup{}
		vis := visibility{tx: tx, who: who}
		err := buildstore.EachDownloadStat(tx, func(d buildstore.DownloadStat) error {
			if !vis.counts(d) {
				return nil
			}
			out.All += d.Count
			if out.First.IsZero() || d.Created.Before(out.First) {
				out.First = d.Created
			}
			if d.Counted.After(out.Last) {
				out.Last = d.Counted
			}
			if q.GroupBy != "" {
				key := groupKey(q.GroupBy, d)
				g := groups[key]
				if g == nil {
					g = &DownloadGroup{Name: key[0], Project: key[1]}
					groups[key] = g
				}
				g.Count += d.Count
				g.Files++
				return nil
			}
			if selected(q, d) {
				out.Sum += d.Count
				out.Files = append(out.Files, d)
			}
			return nil
		})
		for _, g := range groups {
			out.Groups = append(out.Groups, *g)
		}
		return err
	})
	if out.First.IsZero() {
		out.First, out.Last = now, now
	}
	sort.SliceStable(out.Files, func(i, j int) bool { return out.Files[i].Count > out.Files[j].Count })
	sort.Slice(out.Groups, func(i, j int) bool {
		a, b := out.Groups[i], out.Groups[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Files != b.Files {
			return a.Files < b.Files
		}
		return a.Project+"\x00"+a.Name < b.Project+"\x00"+b.Name
	})
	out.Files, out.Groups = firstN(out.Files, n), firstN(out.Groups, n)
	return out, err
}

// checkDownloadFilter answers 404 for a project or package filter naming none who may see.
func checkDownloadFilter(tx kv.Tx, who buildstore.Person, q DownloadQuery) error {
	if q.Project == "" {
		return nil
	}
	if _, err := buildsvc.ReadableProject(tx, who, q.Project); err != nil {
		return err
	}
	if q.Package == "" {
		return nil
	}
	_, _, err := buildsvc.LookupPackage(tx, q.Project, q.Package)
	return err
}

// selected reports whether the filters of q keep counter d.
func selected(q DownloadQuery, d buildstore.DownloadStat) bool {
	return (q.Project == "" || q.Project == d.Project) && (q.Package == "" || q.Package == d.Package) &&
		(q.Repo == "" || q.Repo == d.Repository) && (q.Arch == "" || q.Arch == d.Arch)
}

// groupKey is the group of d: its name and, for a package or repository, its project.
func groupKey(by string, d buildstore.DownloadStat) [2]string {
	switch by {
	case "package":
		return [2]string{d.Package, d.Project}
	case "repo":
		return [2]string{d.Repository, d.Project}
	case "arch":
		return [2]string{d.Arch, ""}
	}
	return [2]string{d.Project, ""}
}

// NewestStats answers GET /statistics/newest_stats: the last time a counter who may see was
// counted, the epoch when none was.
func (s *Service) NewestStats(who buildstore.Person) (time.Time, error) {
	s.FlushDownloads()
	newest := time.Unix(0, 0).UTC()
	err := s.Store().View(func(tx kv.Tx) error {
		vis := visibility{tx: tx, who: who}
		return buildstore.EachDownloadStat(tx, func(d buildstore.DownloadStat) error {
			if vis.counts(d) && d.Counted.After(newest) {
				newest = d.Counted
			}
			return nil
		})
	})
	return newest, err
}

// MaySetDownloadCounters reports whether who may send redirect statistics: the service gives
// the permission (set_download_counters) to the Admin role only, and Admin is the one global
// role here.
func MaySetDownloadCounters(who buildstore.Person) bool { return who.IsAdmin() }

// redirectStatsDoc is the redirector's report (redirect_stats.xsd).
type redirectStatsDoc struct {
	XMLName  xml.Name `xml:"redirect_stats"`
	Projects []struct {
		Name     string `xml:"name,attr"`
		Packages []struct {
			Name  string `xml:"name,attr"`
			Repos []struct {
				Name  string `xml:"name,attr"`
				Archs []struct {
					Name   string `xml:"name,attr"`
					Counts []struct {
						Filename  string `xml:"filename,attr"`
						Filetype  string `xml:"filetype,attr"`
						Version   string `xml:"version,attr"`
						Release   string `xml:"release,attr"`
						CreatedAt string `xml:"created_at,attr"`
						CountedAt string `xml:"counted_at,attr"`
						Count     string `xml:",chardata"`
					} `xml:"count"`
				} `xml:"arch"`
			} `xml:"repository"`
		} `xml:"package"`
	} `xml:"project"`
}

// RedirectStats answers PUT /statistics/redirect_stats: each <count> of the report sets its
// file's counter (and when it was counted; a new counter also when it was created: the
// report's times, the clock's where it gives none). A count of a project, package or
// repository that does not exist, or that is no whole number, is not imported; the answer lists
// those.
func (s *Service) RedirectStats(who buildstore.Person, body []byte) (notImported []string, err error) {
	if !MaySetDownloadCounters(who) {
		return nil, buildsvc.Forbidden("permission denied", "download counters cannot be set, insufficient permissions")
	}
	var doc redirectStatsDoc
	if err := xml.Unmarshal(body, &doc); err != nil {
		return nil, buildsvc.Invalid("redirect_stats", "%v", err)
	}
	now := s.Clock().Now().UTC()
	err = s.Store().Write(func(tx kv.Tx) error {
		notImported = nil
		for _, pr := range doc.Projects {
			p, perr := buildstore.GetProject(tx, pr.Name)
			for _, pk := range pr.Packages {
				_, kerr := buildstore.GetPackage(tx, pr.Name, pk.Name)
				for _, r := range pk.Repos {
					_, known := p.Repository(r.Name)
					for _, a := range r.Archs {
						for _, c := range a.Counts {
							f := buildstore.DownloadFile{Project: pr.Name, Package: pk.Name, Repository: r.Name, Arch: a.Name,
								Filename: c.Filename, Filetype: c.Filetype, Version: c.Version, Release: c.Release}
							n, cerr := strconv.ParseInt(strings.TrimSpace(c.Count), 10, 64)
							if perr != nil || kerr != nil || !known || a.Name == "" || c.Filename == "" || cerr != nil || n < 0 {
								notImported = append(notImported, fmt.Sprintf("%s/%s/%s/%s (%s:%s:%s:%s)", f.Project, f.Package,
									f.Repository, f.Arch, f.Filename, f.Version, f.Release, f.Filetype))
								continue
							}
							if err := setCounter(tx, f, n, reportTime(c.CreatedAt, now), reportTime(c.CountedAt, now)); err != nil {
								return err
							}
						}
					}
				}
			}
		}
		return nil
	})
	return notImported, err
}

// setCounter sets f's counter to n as counted at counted; a new counter was created at created.
// An unchanged count leaves the counter as it is, as the service did.
func setCounter(tx kv.Tx, f buildstore.DownloadFile, n int64, created, counted time.Time) error {
	d, found, err := buildstore.GetDownloadStat(tx, f)
	if err != nil || (found && d.Count == n) {
		return err
	}
	if !found {
		d.Created = created
	}
	d.Count, d.Counted = n, counted
	return buildstore.PutDownloadStat(tx, d)
}

// reportTime reads a time of the report (xmlschema), now when it has none or an unreadable one.
func reportTime(s string, now time.Time) time.Time {
	if t, err := time.Parse(time.RFC3339, strings.TrimSpace(s)); err == nil {
		return t.UTC()
	}
	return now
}

// visibility remembers, within one transaction, which projects who may see and which packages
// exist.
type visibility struct {
	tx   kv.Tx
	who  buildstore.Person
	seen map[string]bool
	live map[[2]string]bool
}

// counts reports whether counter d is shown to who: its project visible and its package still
// there (the service's counters went with their package).
func (v *visibility) counts(d buildstore.DownloadStat) bool {
	if !v.sees(d.Project) {
		return false
	}
	key := [2]string{d.Project, d.Package}
	ok, done := v.live[key]
	if !done {
		if v.live == nil {
			v.live = map[[2]string]bool{}
		}
		_, err := buildstore.GetPackage(v.tx, d.Project, d.Package)
		ok = err == nil
		v.live[key] = ok
	}
	return ok
}

func (v *visibility) sees(project string) bool {
	if ok, done := v.seen[project]; done {
		return ok
	}
	if v.seen == nil {
		v.seen = map[string]bool{}
	}
	_, err := buildsvc.ReadableProject(v.tx, v.who, project)
	v.seen[project] = err == nil
	return err == nil
}
