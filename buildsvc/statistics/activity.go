package statistics

import (
	"math"
	"sort"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Package activity (GET /statistics/activity/P/K, /statistics/most_active), computed as the
// 2.7-era service computes it (Package#activity, #update_activity, Package.activity_algorithm):
//   - a new package starts at an activity index of 20;
//   - the index decays with time: activity(now) = index · 2.3276^((updated − now) / 10,000,000 s),
//     updated being the package's last update;
//   - every update — each source commit (CommitTree) and each meta write (RecordMeta), as the
//     service runs update_activity before every save of the package — adds 10 per day since the
//     last update, at most 10, to the decayed value, caps the result at 100, stores it as the
//     new index with the update time, and counts the update.
//
// A package older than these records (no activity record yet) is taken as created with index 20
// and never updated.

// packageActivity is the package's activity record, or the one a package without a record has:
// created with the start index, never updated.
func packageActivity(tx kv.Tx, k buildstore.Package) (buildstore.Activity, error) {
	a, found, err := buildstore.GetActivity(tx, k.Project, k.Name)
	if err != nil || found {
		return a, err
	}
	return buildstore.Activity{Index: buildsvc.ActivityStart, Updated: k.Created}, nil
}

// ActivityItem is a package's (or project's) line of the activity documents.
type ActivityItem struct {
	Project, Package string
	Activity         float64
	// Updates is a package's update count; Packages a project's package count.
	Updates, Packages int
}

// Activity answers GET /statistics/activity/P[/K]: the package's activity now; for a project
// (simplified: the service's project line carries no value any more) the highest of its
// packages'.
func (s *Service) Activity(who buildstore.Person, project, pkg string) (ActivityItem, error) {
	now := s.Clock().Now()
	var out ActivityItem
	err := s.Store().View(func(tx kv.Tx) error {
		list, err := statsPackages(tx, who, project, pkg)
		if err != nil {
			return err
		}
		out = ActivityItem{Project: project, Package: pkg}
		for _, k := range list {
			a, err := packageActivity(tx, k)
			if err != nil {
				return err
			}
			out.Activity = math.Max(out.Activity, buildsvc.ActivityAt(a, now))
			out.Updates = a.Updates
		}
		out.Packages = len(list)
		return nil
	})
	return out, err
}

// statsPackages reads the package a statistics path names (404 unknown_project or
// unknown_package, a hidden project as a missing one), or every package of the project when pkg
// is "".
func statsPackages(tx kv.Tx, who buildstore.Person, project, pkg string) ([]buildstore.Package, error) {
	if _, err := buildsvc.ReadableProject(tx, who, project); err != nil {
		return nil, err
	}
	if pkg == "" {
		return buildstore.Packages(tx, project)
	}
	_, k, err := buildsvc.LookupPackage(tx, project, pkg)
	return []buildstore.Package{k}, err
}

// MostActive answers GET /statistics/most_active?type=packages|projects&limit=N (default 10, 0:
// all). Packages come by activity now with their update counts. Projects are ranked as the
// service ranks them: the limit's most active packages are taken, grouped by project, and each
// project shows its highest package activity and how many of those packages it has.
func (s *Service) MostActive(who buildstore.Person, typ, limit string) ([]ActivityItem, error) {
	if typ == "" {
		typ = "packages"
	}
	if typ != "packages" && typ != "projects" {
		return nil, buildsvc.BadRequest("invalid_parameter", "type '%s' is unknown: packages or projects", typ)
	}
	n, err := statsLimit(limit, defaultStatsLimit)
	if err != nil {
		return nil, err
	}
	now := s.Clock().Now()
	var list []ActivityItem
	err = s.Store().View(func(tx kv.Tx) error {
		return buildsvc.EachVisiblePackage(tx, who, func(k buildstore.Package) error {
			a, err := packageActivity(tx, k)
			list = append(list, ActivityItem{Project: k.Project, Package: k.Name, Activity: buildsvc.ActivityAt(a, now), Updates: a.Updates})
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Activity > list[j].Activity })
	list = firstN(list, n)
	if typ == "packages" {
		return list, nil
	}
	var projects []ActivityItem
	at := map[string]int{}
	for _, k := range list {
		i, ok := at[k.Project]
		if !ok {
			i = len(projects)
			at[k.Project] = i
			projects = append(projects, ActivityItem{Project: k.Project})
		}
		projects[i].Packages++
		projects[i].Activity = math.Max(projects[i].Activity, k.Activity)
	}
	sort.SliceStable(projects, func(i, j int) bool { return projects[i].Activity > projects[j].Activity })
	return projects, nil
}

// firstN is list cut to n entries (0: all).
func firstN[T any](list []T, n int) []T {
	if n > 0 && len(list) > n {
		return list[:n]
	}
	return list
}
