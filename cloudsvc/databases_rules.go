package cloudsvc

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// require checks that the database (already taken to now with At) is in one of the allowed
// statuses. The refusal is a 400 without a field that names the status, so a client knows
// whether to wait or give up. Nothing else holds an operation back: a credentials reset is
// over when its request is answered (see resetDatabaseCredentials).
func require(d cloudstore.Database, allowed ...string) error {
	if !slices.Contains(allowed, d.Status) {
		return store.Problems{{Reason: fmt.Sprintf("Database is %s; this operation requires %s database",
			strings.ReplaceAll(d.Status, "_", " "), statusList(allowed))}}
	}
	return nil
}

// requireUnsuspended is the precondition of reading a database's credentials and CA
// certificate: they exist from its creation on and are read in every status — the Terraform
// provider reads both right after a create or an update finishes, while the database may still
// be updating — except while it is suspended or suspending, when the real service answers 400
// (the provider skips them then).
func requireUnsuspended(d cloudstore.Database) error {
	if d.Status == cloudstore.DBSuspended || d.Status == cloudstore.DBSuspending {
		return store.Problems{{Reason: fmt.Sprintf("Database is %s; its credentials and certificate are available once it is resumed", d.Status)}}
	}
	return nil
}

// requireProvisioned is the backups' precondition: anything but provisioning.
func requireProvisioned(d cloudstore.Database) error {
	if d.Status == cloudstore.DBProvisioning {
		return store.Problems{{Reason: "Database is provisioning; its backups are available once it is active"}}
	}
	return nil
}

// statusList words the allowed statuses: "an active", "an active, failed or degraded".
func statusList(allowed []string) string {
	switch len(allowed) {
	case 1:
		return "an " + allowed[0]
	}
	return "an " + strings.Join(allowed[:len(allowed)-1], ", ") + " or " + allowed[len(allowed)-1]
}

// labelPattern is the label rule of databases and their snapshots: letters, digits, '_', '-'
// and '.', beginning and ending with a letter or digit, no two separators in a row.
var labelPattern = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9]|[-_.][a-zA-Z0-9])*$`)

// checkLabel adds the problem of a database (3-32) or snapshot (3-64) label.
func checkLabel(p *store.Problems, field, label string, minLen, maxLen int) {
	switch {
	case len(label) < minLen || len(label) > maxLen:
		p.Add(field, fmt.Sprintf("Label must be %d-%d characters", minLen, maxLen))
	case !labelPattern.MatchString(label):
		p.Add(field, "Label may only contain letters, numbers, underscores, dashes and periods, must begin and end with a letter or number, and cannot have two dashes, underscores or periods in a row")
	}
}

// checkDatabaseLabel adds the problems of a database's new label: the rule, and that no other
// live database of the account has it (current is the database's label now, "" when creating).
func checkDatabaseLabel(p *store.Problems, taken func(string) bool, label, current string) {
	checkLabel(p, "label", label, 3, 32)
	if !strings.EqualFold(label, current) && taken(label) {
		p.Add("label", fmt.Sprintf("A database labeled %q already exists on this account", label))
	}
}

// NormalizeAllowList checks allow_list entries and returns them normalised, so that what is
// stored (and shown) is what the database would enforce: an address becomes a one-address range
// ("203.0.113.1" → "203.0.113.1/32", IPv6 "/128"), a range is cut to its network
// ("192.0.1.7/24" → "192.0.1.0/24"), an IPv4-mapped IPv6 address becomes IPv4, and an entry
// equal to an earlier one after that is dropped. Each bad entry is a problem on field[i].
func NormalizeAllowList(p *store.Problems, field string, in []string) []string {
	out := make([]string, 0, len(in))
	for i, s := range in {
		pfx, ok := parseAllowEntry(strings.TrimSpace(s))
		if !ok {
			p.Add(fmt.Sprintf("%s[%d]", field, i), "Must be an IPv4 or IPv6 address or CIDR range (e.g. 203.0.113.1 or 192.0.2.0/24)")
			continue
		}
		if norm := pfx.String(); !slices.Contains(out, norm) {
			out = append(out, norm)
		}
	}
	return out
}

// parseAllowEntry reads one allow_list entry as a masked prefix.
func parseAllowEntry(s string) (netip.Prefix, bool) {
	if strings.Contains(s, "/") {
		pfx, err := netip.ParsePrefix(s)
		if err != nil || pfx.Addr().Zone() != "" {
			return netip.Prefix{}, false
		}
		if a := pfx.Addr(); a.Is4In6() && pfx.Bits() >= 96 {
			pfx = netip.PrefixFrom(a.Unmap(), pfx.Bits()-96)
		}
		return pfx.Masked(), true
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Prefix{}, false
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), true
}

// defaultWindow is the maintenance window of a new database, as the real service answers it:
// weekly, three hours from 00:00 UTC, the day not chosen yet.
func defaultWindow() cloudstore.MaintenanceWindow {
	return cloudstore.MaintenanceWindow{Frequency: "weekly", Duration: 3}
}

// applyWindow returns w with the change merged and checked, adding problems on
// "updates.<member>". Switching to weekly clears week_of_month unless the request sets it
// (which is then wrong).
func applyWindow(p *store.Problems, w cloudstore.MaintenanceWindow, c cloudstore.WindowChange) cloudstore.MaintenanceWindow {
	if c.Frequency != nil {
		w.Frequency = *c.Frequency
	}
	for _, m := range []struct {
		dst      *int
		src      *int
		name     string
		min, max int
	}{{&w.Duration, c.Duration, "duration", 1, 3}, {&w.HourOfDay, c.HourOfDay, "hour_of_day", 0, 23}} {
		if m.src != nil {
			*m.dst = *m.src
		}
		if *m.dst < m.min || *m.dst > m.max {
			p.Add("updates."+m.name, fmt.Sprintf("Must be an integer from %d to %d", m.min, m.max))
		}
	}
	if c.DayOfWeek != nil {
		w.DayOfWeek = c.DayOfWeek
		if *c.DayOfWeek < 1 || *c.DayOfWeek > 7 {
			p.Add("updates.day_of_week", "Must be an integer from 1 (Monday) to 7 (Sunday)")
		}
	}
	if c.WeekOfMonthSet {
		w.WeekOfMonth = c.WeekOfMonth
	}
	switch w.Frequency {
	case "weekly":
		if c.WeekOfMonthSet && c.WeekOfMonth != nil {
			p.Add("updates.week_of_month", "Must be null for weekly updates")
		}
		w.WeekOfMonth = nil
	case "monthly":
		if w.WeekOfMonth == nil {
			p.Add("updates.week_of_month", "Required for monthly updates")
		} else if *w.WeekOfMonth < 1 || *w.WeekOfMonth > 4 {
			p.Add("updates.week_of_month", "Must be an integer from 1 to 4")
		}
	default:
		p.Add("updates.frequency", "Must be one of weekly, monthly")
	}
	return w
}

// checkReplication settles replication_type (and for PostgreSQL replication_commit_type) of a
// new sqldb database with its defaults: none for one node, semi_synch for three; commit type
// local, or on for semi_synch (local is not allowed there).
func checkReplication(p *store.Problems, d *cloudstore.Database, typ, commit *string) {
	d.ReplicationType = "none"
	if d.ClusterSize == 3 {
		d.ReplicationType = "semi_synch"
	}
	if typ != nil {
		d.ReplicationType = *typ
	}
	switch {
	case !slices.Contains([]string{"none", "asynch", "semi_synch"}, d.ReplicationType):
		p.Add("replication_type", "Must be one of none, asynch, semi_synch")
	case d.ClusterSize == 1 && d.ReplicationType != "none":
		p.Add("replication_type", "Must be none for a single-node cluster")
	case d.ClusterSize == 3 && d.ReplicationType == "none":
		p.Add("replication_type", "Must be asynch or semi_synch for a high availability (3-node) cluster")
	}
	if d.Engine != "postgresql" {
		if commit != nil {
			p.Add("replication_commit_type", "Only PostgreSQL databases have a replication_commit_type")
		}
		return
	}
	allowed := []string{"local", "off"}
	d.ReplicationCommitType = "local"
	if d.ReplicationType == "semi_synch" {
		allowed, d.ReplicationCommitType = []string{"on", "remote_write", "remote_apply"}, "on"
	}
	if commit != nil {
		d.ReplicationCommitType = *commit
		if !slices.Contains(allowed, *commit) {
			p.Add("replication_commit_type", fmt.Sprintf("Must be one of %s for replication_type %s", strings.Join(allowed, ", "), d.ReplicationType))
		}
	}
}
