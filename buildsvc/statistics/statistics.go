package statistics

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// defaultStatsLimit is the service's limit when none is given; 0 lists everything.
const defaultStatsLimit = 10

// statsLimit reads a limit parameter: empty is def, "0" no limit; anything but a whole number
// of at least 0 is 400 invalid_parameter.
func statsLimit(s string, def int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, buildsvc.BadRequest("invalid_parameter", "limit '%s' is not a number (a whole number, 0 for no limit)", s)
	}
	return n, nil
}

// StatsItem is a project (Package "") or package with one of its times.
type StatsItem struct {
	Project, Package string
	Time             time.Time
}

// projectUpdated is when the project last changed (its creation before any change).
func projectUpdated(tx kv.Tx, p buildstore.Project) (time.Time, error) {
	a, found, err := buildstore.GetActivity(tx, p.Name, "")
	if err != nil || !found || a.Updated.Before(p.Created) {
		return p.Created, err
	}
	return a.Updated, nil
}

// LatestAdded answers GET /statistics/latest_added: projects and packages, newest first (limit
// default 10, 0: all).
func (s *Service) LatestAdded(who buildstore.Person, limit string) ([]StatsItem, error) {
	return s.latest(who, limit, func(_ kv.Tx, p buildstore.Project) (time.Time, error) { return p.Created, nil },
		func(_ kv.Tx, k buildstore.Package) (time.Time, error) { return k.Created, nil })
}

// LatestUpdated answers GET /statistics/latest_updated: projects and packages by their last
// update, newest first (limit default 10, 0: all).
func (s *Service) LatestUpdated(who buildstore.Person, limit string) ([]StatsItem, error) {
	return s.latest(who, limit, projectUpdated, func(tx kv.Tx, k buildstore.Package) (time.Time, error) {
		a, err := packageActivity(tx, k)
		return a.Updated, err
	})
}

// latest lists every visible project and package with the time of it, newest first; equal
// times by project, the project before its packages, then by package.
func (s *Service) latest(who buildstore.Person, limit string, ofProject func(kv.Tx, buildstore.Project) (time.Time, error),
	ofPackage func(kv.Tx, buildstore.Package) (time.Time, error)) ([]StatsItem, error) {
	n, err := statsLimit(limit, defaultStatsLimit)
	if err != nil {
		return nil, err
	}
	var list []StatsItem
	err = s.Store().View(func(tx kv.Tx) error {
		return buildsvc.EachVisibleProject(tx, who, nil, func(p buildstore.Project) error {
			t, err := ofProject(tx, p)
			if err != nil {
				return err
			}
			list = append(list, StatsItem{Project: p.Name, Time: t})
			packages, err := buildstore.Packages(tx, p.Name)
			if err != nil {
				return err
			}
			for _, k := range packages {
				t, err := ofPackage(tx, k)
				if err != nil {
					return err
				}
				list = append(list, StatsItem{Project: k.Project, Package: k.Name, Time: t})
			}
			return nil
		})
	})
	sort.SliceStable(list, func(i, j int) bool { return list[i].Time.After(list[j].Time) })
	return firstN(list, n), err
}

// AddedTimestamp answers GET /statistics/added_timestamp/P[/K]: when it was created.
func (s *Service) AddedTimestamp(who buildstore.Person, project, pkg string) (StatsItem, error) {
	return s.timestamp(who, project, pkg, func(_ kv.Tx, p buildstore.Project) (time.Time, error) { return p.Created, nil },
		func(_ kv.Tx, k buildstore.Package) (time.Time, error) { return k.Created, nil })
}

// UpdatedTimestamp answers GET /statistics/updated_timestamp/P[/K]: when it last changed.
func (s *Service) UpdatedTimestamp(who buildstore.Person, project, pkg string) (StatsItem, error) {
	return s.timestamp(who, project, pkg, projectUpdated, func(tx kv.Tx, k buildstore.Package) (time.Time, error) {
		a, err := packageActivity(tx, k)
		return a.Updated, err
	})
}

func (s *Service) timestamp(who buildstore.Person, project, pkg string, ofProject func(kv.Tx, buildstore.Project) (time.Time, error),
	ofPackage func(kv.Tx, buildstore.Package) (time.Time, error)) (StatsItem, error) {
	out := StatsItem{Project: project, Package: pkg}
	err := s.Store().View(func(tx kv.Tx) error {
		p, err := buildsvc.ReadableProject(tx, who, project)
		if err != nil {
			return err
		}
		if pkg == "" {
			out.Time, err = ofProject(tx, p)
			return err
		}
		_, k, err := buildsvc.LookupPackage(tx, project, pkg)
		if err != nil {
			return err
		}
		out.Time, err = ofPackage(tx, k)
		return err
	})
	return out, err
}
