package buildapi

import "time"

// sweepBlobs is the clock job that removes uploads never committed (buildsvc.Service.SweepBlobs).
func (a *api) sweepBlobs(now time.Time) error { return a.Svc.SweepBlobs(now) }
