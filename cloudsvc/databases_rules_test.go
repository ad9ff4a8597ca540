package cloudsvc

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

func TestNormalizeAllowList(t *testing.T) {
	l := func(s ...string) []string { return s }
	cases := []struct {
		name      string
		in        []string
		want, bad string // want: entries joined by spaces; bad: fields with problems
	}{
		{"address becomes /32", l("203.0.113.1"), "203.0.113.1/32", ""},
		{"range is masked", l("192.0.1.7/24"), "192.0.1.0/24", ""},
		{"exact range kept", l("192.0.2.0/24"), "192.0.2.0/24", ""},
		{"everything", l("0.0.0.0/0"), "0.0.0.0/0", ""},
		{"IPv6 address becomes /128", l("2001:DB8::1"), "2001:db8::1/128", ""},
		{"IPv6 range masked", l("2001:db8::1/32"), "2001:db8::/32", ""},
		{"IPv4-mapped address", l("::ffff:198.51.100.7"), "198.51.100.7/32", ""},
		{"IPv4-mapped range", l("::ffff:198.51.100.7/120"), "198.51.100.0/24", ""},
		{"duplicates after normalising", l("203.0.113.1", "203.0.113.1/32", "192.0.2.9/24", "192.0.2.0/24"), "203.0.113.1/32 192.0.2.0/24", ""},
		{"spaces around", l(" 10.0.0.1 "), "10.0.0.1/32", ""},
		{"empty list blocks all", l(), "", ""},
		{"not an address", l("db.example.com"), "", "allow_list[0]"},
		{"octet too big", l("256.1.1.1"), "", "allow_list[0]"},
		{"prefix too long", l("10.0.0.0/33"), "", "allow_list[0]"},
		{"leading zeros", l("010.0.0.1"), "", "allow_list[0]"},
		{"zone", l("fe80::1%eth0"), "", "allow_list[0]"},
		{"empty entry", l(""), "", "allow_list[0]"},
		{"every bad one named", l("1.2.3.4", "nope", "5.6.7.8/8", "x/1"), "1.2.3.4/32 5.0.0.0/8", "allow_list[1] allow_list[3]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p store.Problems
			got := NormalizeAllowList(&p, "allow_list", c.in)
			if strings.Join(got, " ") != c.want || fields(p) != c.bad {
				t.Fatalf("got %q with problems %q; want %q, %q", got, fields(p), c.want, c.bad)
			}
			if got == nil {
				t.Fatal("nil list: must render []")
			}
		})
	}
}

// fields lists the fields of problems, space-separated.
func fields(p store.Problems) string {
	var out []string
	for _, x := range p {
		out = append(out, x.Field)
	}
	return strings.Join(out, " ")
}

func ip(v int) *int       { return &v }
func sp(v string) *string { return &v }

func TestMaintenanceWindow(t *testing.T) {
	weekly := cloudstore.MaintenanceWindow{Frequency: "weekly", Duration: 3, HourOfDay: 0, DayOfWeek: ip(1)}
	monthly := cloudstore.MaintenanceWindow{Frequency: "monthly", Duration: 1, HourOfDay: 8, DayOfWeek: ip(4), WeekOfMonth: ip(3)}
	cases := []struct {
		name   string
		from   cloudstore.MaintenanceWindow
		change cloudstore.WindowChange
		bad    string // fields with problems
		check  func(cloudstore.MaintenanceWindow) bool
	}{
		{"nothing sent", weekly, cloudstore.WindowChange{}, "", func(w cloudstore.MaintenanceWindow) bool { return w.Frequency == "weekly" && w.Duration == 3 }},
		{"to monthly with its week", weekly, cloudstore.WindowChange{Frequency: sp("monthly"), WeekOfMonth: ip(3), WeekOfMonthSet: true}, "",
			func(w cloudstore.MaintenanceWindow) bool { return w.Frequency == "monthly" && *w.WeekOfMonth == 3 }},
		{"to monthly without a week", weekly, cloudstore.WindowChange{Frequency: sp("monthly")}, "updates.week_of_month", nil},
		{"monthly with week null", monthly, cloudstore.WindowChange{WeekOfMonthSet: true}, "updates.week_of_month", nil},
		{"week out of range", monthly, cloudstore.WindowChange{WeekOfMonth: ip(5), WeekOfMonthSet: true}, "updates.week_of_month", nil},
		{"to weekly clears the week", monthly, cloudstore.WindowChange{Frequency: sp("weekly")}, "", func(w cloudstore.MaintenanceWindow) bool { return w.WeekOfMonth == nil }},
		{"weekly with a week", weekly, cloudstore.WindowChange{WeekOfMonth: ip(2), WeekOfMonthSet: true}, "updates.week_of_month", nil},
		{"weekly with week null", weekly, cloudstore.WindowChange{WeekOfMonthSet: true}, "", func(w cloudstore.MaintenanceWindow) bool { return w.WeekOfMonth == nil }},
		{"bad frequency", weekly, cloudstore.WindowChange{Frequency: sp("daily")}, "updates.frequency", nil},
		{"duration 0", weekly, cloudstore.WindowChange{Duration: ip(0)}, "updates.duration", nil},
		{"duration 4", weekly, cloudstore.WindowChange{Duration: ip(4)}, "updates.duration", nil},
		{"hour 24", weekly, cloudstore.WindowChange{HourOfDay: ip(24)}, "updates.hour_of_day", nil},
		{"hour -1", weekly, cloudstore.WindowChange{HourOfDay: ip(-1)}, "updates.hour_of_day", nil},
		{"day 0", weekly, cloudstore.WindowChange{DayOfWeek: ip(0)}, "updates.day_of_week", nil},
		{"day 8", weekly, cloudstore.WindowChange{DayOfWeek: ip(8)}, "updates.day_of_week", nil},
		{"bounds", weekly, cloudstore.WindowChange{Duration: ip(1), HourOfDay: ip(23), DayOfWeek: ip(7)}, "",
			func(w cloudstore.MaintenanceWindow) bool {
				return w.Duration == 1 && w.HourOfDay == 23 && *w.DayOfWeek == 7
			}},
		{"every problem at once", weekly, cloudstore.WindowChange{Frequency: sp("monthly"), Duration: ip(9), HourOfDay: ip(99), DayOfWeek: ip(9)},
			"updates.duration updates.hour_of_day updates.day_of_week updates.week_of_month", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p store.Problems
			got := applyWindow(&p, c.from, c.change)
			if fields(p) != c.bad || c.check != nil && !c.check(got) {
				t.Fatalf("got %+v with problems %q, want %q", got, fields(p), c.bad)
			}
		})
	}
}

func TestReplication(t *testing.T) {
	cases := []struct {
		name, engine       string
		nodes              int
		typ, commit        *string
		wantType, wantComm string
		bad                string
	}{
		{"one node defaults to none", "mysql", 1, nil, nil, "none", "", ""},
		{"three nodes default to semi_synch", "mysql", 3, nil, nil, "semi_synch", "", ""},
		{"asynch on three", "mysql", 3, sp("asynch"), nil, "asynch", "", ""},
		{"replication on one node", "mysql", 1, sp("asynch"), nil, "", "", "replication_type"},
		{"none on three", "mysql", 3, sp("none"), nil, "", "", "replication_type"},
		{"unknown", "mysql", 3, sp("sync"), nil, "", "", "replication_type"},
		{"commit type on mysql", "mysql", 1, nil, sp("local"), "", "", "replication_commit_type"},
		{"postgresql default local", "postgresql", 1, nil, nil, "none", "local", ""},
		{"postgresql asynch local", "postgresql", 3, sp("asynch"), nil, "asynch", "local", ""},
		{"postgresql asynch off", "postgresql", 3, sp("asynch"), sp("off"), "asynch", "off", ""},
		{"postgresql semi_synch default on", "postgresql", 3, nil, nil, "semi_synch", "on", ""},
		{"postgresql semi_synch remote_apply", "postgresql", 3, nil, sp("remote_apply"), "semi_synch", "remote_apply", ""},
		{"postgresql semi_synch local", "postgresql", 3, nil, sp("local"), "", "", "replication_commit_type"},
		{"postgresql asynch on", "postgresql", 3, sp("asynch"), sp("on"), "", "", "replication_commit_type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p store.Problems
			d := cloudstore.Database{Engine: c.engine, ClusterSize: c.nodes}
			checkReplication(&p, &d, c.typ, c.commit)
			if fields(p) != c.bad || c.bad == "" && (d.ReplicationType != c.wantType || d.ReplicationCommitType != c.wantComm) {
				t.Fatalf("got %q/%q with problems %q", d.ReplicationType, d.ReplicationCommitType, fields(p))
			}
		})
	}
}

func TestLabels(t *testing.T) {
	cases := []struct {
		label    string
		max      int
		wantOK   bool
		whatsBad string
	}{
		{"orders-sql", 32, true, ""},
		{"a.b_c-d9", 32, true, ""},
		{"db", 32, false, "3-32"},
		{strings.Repeat("a", 32), 32, true, ""},
		{strings.Repeat("a", 33), 32, false, "3-32"},
		{strings.Repeat("a", 64), 64, true, ""},
		{strings.Repeat("a", 65), 64, false, "3-64"},
		{"-start", 32, false, "begin and end"},
		{"end.", 32, false, "begin and end"},
		{"two--dashes", 32, false, "in a row"},
		{"dot._mix", 32, false, "in a row"},
		{"spa ce", 32, false, "letters"},
		{"ünïcode", 32, false, "letters"},
	}
	for _, c := range cases {
		t.Run(c.label, func(t *testing.T) {
			var p store.Problems
			checkLabel(&p, "label", c.label, 3, c.max)
			if (len(p) == 0) != c.wantOK || !c.wantOK && !strings.Contains(p[0].Reason, c.whatsBad) {
				t.Fatalf("problems %+v", p)
			}
		})
	}
}
