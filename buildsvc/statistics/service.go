// Package statistics is the build service's statistics (GET /statistics/…), as the 2.7-era
// StatisticsController answers them: projects and packages by creation and by last update, their
// timestamps, activity (activity.go), ratings, and the download counters (downloads.go; the core
// counts the downloads, this package reads them). Hidden projects and their packages are never
// listed for non-members, and a path naming one is 404 unknown_project. Times: a package's update
// is its last commit or meta write, a project's its last meta, lock, flag or config change
// (before any, the creation time), all from the clock.
//
// It runs on the build service's core (package buildsvc), whose rules — read protection,
// roles, the commit — it calls; the core never imports it.
package statistics

import "github.com/pocketforge/pocketforge/buildsvc"

// Service runs these operations over the build service's core, whose methods (Store and Clock
// among them) it promotes.
type Service struct{ *buildsvc.Service }

// New returns the operations over core.
func New(core *buildsvc.Service) *Service { return &Service{core} }
