package cloudapi

import (
	"encoding/json"
	"fmt"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// databaseCreateInput reads a sqldb create body. Wrong types are noted on their fields here;
// the rules (required fields, catalogue, replication, allow list) are the domain's, and the
// handler reports both at once (body.with).
func databaseCreateInput(c *fiber.Ctx) (*body, cloudstore.NewDatabase, error) {
	b, err := parseBody(c)
	if err != nil {
		return nil, cloudstore.NewDatabase{}, err
	}
	in := cloudstore.NewDatabase{
		Label: b.str("label"), Engine: b.str("engine"), Type: b.str("type"), Region: b.str("region"),
		ClusterSize: intField(b, "cluster_size"), Encrypted: b.boolean("encrypted"), SSLConnection: b.boolean("ssl_connection"),
		ReplicationType: b.str("replication_type"), ReplicationCommitType: b.str("replication_commit_type"),
	}
	if list, ok := allowListInput(b); ok {
		in.AllowList = list
	}
	in.EngineConfig = b.fields["engine_config"]
	return b, in, nil
}

// databaseUpdateInput reads a PUT body: label, allow_list, updates, engine_config, and the
// current API's type, cluster_size (a resize) and version (an upgrade), each optional.
func databaseUpdateInput(c *fiber.Ctx) (*body, cloudstore.DatabaseUpdate, error) {
	b, err := parseBody(c)
	if err != nil {
		return nil, cloudstore.DatabaseUpdate{}, err
	}
	up := cloudstore.DatabaseUpdate{Label: b.str("label")}
	if list, ok := allowListInput(b); ok {
		up.AllowList = &list
	}
	up.Updates = windowInput(b)
	up.EngineConfig = b.fields["engine_config"]
	up.Type, up.ClusterSize, up.Version = b.str("type"), intField(b, "cluster_size"), b.str("version")
	return b, up, nil
}

// intField returns an integer field (nil when absent or null).
func intField(b *body, name string) *int {
	var v int
	if !b.decode(name, "an integer", &v) {
		return nil
	}
	return &v
}

// allowListInput reads allow_list as raw strings (ok false when absent or unreadable). An entry
// that is not a string is noted on allow_list[i] and passed on as "" so the domain's positions
// stay aligned (its own problem there is not repeated, see body.with).
func allowListInput(b *body) ([]string, bool) {
	var items []json.RawMessage
	if !b.decode("allow_list", "a list of IP addresses or CIDR ranges", &items) {
		return nil, false
	}
	out := make([]string, len(items))
	for i, raw := range items {
		if json.Unmarshal(raw, &out[i]) != nil {
			b.problems.Add(fmt.Sprintf("allow_list[%d]", i), "Must be a string")
		}
	}
	return out, true
}

// windowInput reads the `updates` object (nil when absent); a member of the wrong type is noted
// on "updates.<member>".
func windowInput(b *body) *cloudstore.WindowChange {
	var members map[string]json.RawMessage
	if !b.decode("updates", "an object", &members) {
		return nil
	}
	sub := &body{fields: members}
	w := &cloudstore.WindowChange{Frequency: sub.str("frequency"), Duration: intField(sub, "duration"),
		HourOfDay: intField(sub, "hour_of_day"), DayOfWeek: intField(sub, "day_of_week")}
	if sub.has("week_of_month") {
		w.WeekOfMonthSet, w.WeekOfMonth = true, intField(sub, "week_of_month")
	}
	for _, p := range sub.problems {
		b.problems.Add("updates."+p.Field, p.Reason)
	}
	return w
}
