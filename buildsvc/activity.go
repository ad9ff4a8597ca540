package buildsvc

import (
	"math"
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// touchPackage records an update of project/pkg at now (a commit or a meta write). The meta
// write that creates the package (its creation time is now) starts the record instead, without
// the ratings and counters a deleted package of that name left.
func touchPackage(tx kv.Tx, project, pkg string, now time.Time) error {
	k, err := buildstore.GetPackage(tx, project, pkg)
	if err != nil {
		return nil // nothing to count: the operation answers for the package
	}
	a, found, err := buildstore.GetActivity(tx, project, pkg)
	if err != nil {
		return err
	}
	if k.Created.Equal(now) && (!found || a.Updated.Before(now)) {
		// created now, perhaps anew under the name of a deleted package: it starts afresh
		if err := buildstore.DropPackageStatistics(tx, project, pkg); err != nil {
			return err
		}
		return buildstore.PutActivity(tx, project, pkg, buildstore.Activity{Index: ActivityStart, Updated: now})
	}
	if !found {
		a = buildstore.Activity{Index: ActivityStart, Updated: k.Created}
		if now.Before(k.Created) { // the demo world's histories predate their packages' records
			a.Updated = now
		}
	}
	return buildstore.PutActivity(tx, project, pkg, Bumped(a, now))
}

// touchProject records a change of the project's meta at now (latest_updated shows it).
func touchProject(tx kv.Tx, project string, now time.Time) error {
	return buildstore.PutActivity(tx, project, "", buildstore.Activity{Updated: now})
}

// Constants of the service's activity formula.
const (
	ActivityStart    = 20.0
	ActivityBase     = 2.3276
	ActivityScale    = 10_000_000.0 // seconds
	activityPerDay   = 10.0
	activityMaxAddon = 10.0
	activityMax      = 100.0
)

// Bumped is the record after an update at now (a clock that went back counts no time).
func Bumped(a buildstore.Activity, now time.Time) buildstore.Activity {
	elapsed := math.Max(0, now.Sub(a.Updated).Seconds())
	addon := math.Min(activityPerDay*elapsed/86400, activityMaxAddon)
	return buildstore.Activity{Index: math.Min(ActivityAt(a, now)+addon, activityMax), Updated: now, Updates: a.Updates + 1}
}

// ActivityAt is the activity a record shows at now: its index decayed since its update.
func ActivityAt(a buildstore.Activity, now time.Time) float64 {
	return a.Index * math.Pow(ActivityBase, a.Updated.Sub(now).Seconds()/ActivityScale)
}
