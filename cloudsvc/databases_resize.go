package cloudsvc

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// ResizeTime is how long a resize (a PUT with type or cluster_size) keeps a database resizing.
const ResizeTime = 20 * time.Second

// planChange applies the current API's plan and version changes of a PUT to d (issue 33: the
// Terraform provider sends them when a configuration changes type, cluster_size or engine_id,
// then waits for database_resize or database_update to finish): a type that exists and is not
// deprecated, with no less disk than the current one; a cluster that only grows (1 → 3, as the
// real service allows); a version of the same engine, major or full, no older than the current
// one. It reports whether the plan changed (a resize). The price follows the new plan.
func planChange(p *store.Problems, cat cloudstore.DatabaseCatalog, d *cloudstore.Database, in cloudstore.DatabaseUpdate) (resized bool) {
	typ, _ := cat.Type(d.Type)
	if in.Type != nil && *in.Type != d.Type {
		t, ok := cat.Type(*in.Type)
		switch {
		case !ok:
			p.Add("type", fmt.Sprintf("Type %q does not exist (see GET /databases/types)", *in.Type))
		case t.Deprecated:
			p.Add("type", fmt.Sprintf("Type %s is deprecated and cannot be used", t.ID))
		case t.Disk < typ.Disk:
			p.Add("type", fmt.Sprintf("Type %s has less disk than %s: a database cannot be resized to a smaller disk", t.ID, d.Type))
		default:
			typ, d.Type, d.DiskGB, resized = t, t.ID, t.Disk/1024, true
		}
	}
	if in.ClusterSize != nil && *in.ClusterSize != d.ClusterSize {
		switch {
		case *in.ClusterSize != 1 && *in.ClusterSize != 3:
			p.Add("cluster_size", "Must be one of 1, 3")
		case *in.ClusterSize < d.ClusterSize:
			p.Add("cluster_size", "A cluster can only grow")
		default:
			d.ClusterSize, resized = *in.ClusterSize, true
			if d.ReplicationType == "none" {
				d.ReplicationType = "semi_synch"
			}
		}
	}
	if in.Version != nil && *in.Version != d.Version {
		upgrade(p, cat, d, *in.Version)
	}
	if resized {
		if price, ok := typ.Price(d.Engine, d.ClusterSize); ok {
			d.HourlyPrice, d.MonthlyPrice = price.Price.Hourly, price.Price.Monthly
		} else {
			p.Add("cluster_size", fmt.Sprintf("Type %s is not offered with %d nodes for %s", d.Type, d.ClusterSize, d.Engine))
		}
	}
	return resized
}

// upgrade moves d to version (a catalogue version of its engine: "8" or "8.0.26"), never to an
// older major.
func upgrade(p *store.Problems, cat cloudstore.DatabaseCatalog, d *cloudstore.Database, version string) {
	e, ok := cat.Engine(d.Engine + "/" + version)
	if !ok {
		var versions []string
		for _, x := range cat.Engines {
			if x.Engine == d.Engine {
				versions = append(versions, x.Version)
			}
		}
		p.Add("version", fmt.Sprintf("Must be a %s version: %s", d.Engine, strings.Join(versions, ", ")))
		return
	}
	if major(e.Release()) < major(d.Version) {
		p.Add("version", fmt.Sprintf("A database cannot be downgraded from %s to %s", d.Version, e.Release()))
		return
	}
	d.Version = e.Release()
}

// major is a version's major number (0 when it has none).
func major(version string) int {
	n, _ := strconv.Atoi(strings.SplitN(version, ".", 2)[0])
	return n
}

// changesMore reports whether a PUT that resizes also changes something else (then both
// database_resize and database_update are recorded).
func changesMore(in cloudstore.DatabaseUpdate) bool {
	return in.Label != nil || in.AllowList != nil || in.Updates != nil || in.EngineConfig != nil || in.Version != nil
}
