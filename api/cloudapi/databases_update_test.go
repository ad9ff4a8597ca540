package cloudapi

import (
	"testing"
	"time"
)

// TestDatabaseUpdate: a PUT checks every field at once (field paths like updates.hour_of_day),
// needs an active database, and answers it updating until the clock ends the update.
func TestDatabaseUpdate(t *testing.T) {
	e := newEnv(t, 0)
	put := func(fam string, id int, body string) req {
		return req{method: "PUT", path: dbPath(fam, id, ""), token: demoToken, body: body}
	}
	doc := func(body string) req { return put("docdb", catalogDoc, body) }
	e.run(t, []scenario{
		{name: "label taken", req: doc(`{"label":"orders-sql"}`), status: 400,
			exact: `{"errors":[{"reason":"A database labeled \"orders-sql\" already exists on this account","field":"label"}]}`},
		{name: "label bad", req: doc(`{"label":"no spaces please"}`), status: 400, want: []string{`"field":"label"`}},
		{name: "allow_list entry", req: doc(`{"allow_list":["192.0.2.1","300.1.1.1"]}`), status: 400, want: []string{`"field":"allow_list[1]"`}},
		{name: "allow_list not a list", req: doc(`{"allow_list":{}}`), status: 400, want: []string{`"field":"allow_list"`}},
		{name: "updates not an object", req: doc(`{"updates":[1]}`), status: 400, exact: `{"errors":[{"reason":"Must be an object","field":"updates"}]}`},
		{name: "updates member of the wrong type", req: doc(`{"updates":{"hour_of_day":"noon"}}`), status: 400,
			exact: `{"errors":[{"reason":"Must be an integer","field":"updates.hour_of_day"}]}`},
		{name: "weekly with a week of month", req: doc(`{"updates":{"frequency":"weekly","week_of_month":2}}`), status: 400,
			exact: `{"errors":[{"reason":"Must be null for weekly updates","field":"updates.week_of_month"}]}`},
		{name: "monthly without a week", req: doc(`{"updates":{"week_of_month":null}}`), status: 400,
			exact: `{"errors":[{"reason":"Required for monthly updates","field":"updates.week_of_month"}]}`},
		{name: "week of month 5", req: doc(`{"updates":{"week_of_month":5}}`), status: 400, want: []string{"from 1 to 4"}},
		{name: "every problem at once", req: doc(`{"label":"x","allow_list":["bad"],"updates":{"frequency":"daily","duration":9,"hour_of_day":24,"day_of_week":0}}`), status: 400,
			exact: `{"errors":[{"reason":"Label must be 3-32 characters","field":"label"},` +
				`{"reason":"Must be an IPv4 or IPv6 address or CIDR range (e.g. 203.0.113.1 or 192.0.2.0/24)","field":"allow_list[0]"},` +
				`{"reason":"Must be an integer from 1 to 3","field":"updates.duration"},{"reason":"Must be an integer from 0 to 23","field":"updates.hour_of_day"},` +
				`{"reason":"Must be an integer from 1 (Monday) to 7 (Sunday)","field":"updates.day_of_week"},{"reason":"Must be one of weekly, monthly","field":"updates.frequency"}]}`},
		{name: "provisioning", req: put("sqldb", reportsPG, `{"label":"reports"}`), status: 400,
			exact: `{"errors":[{"reason":"Database is provisioning; this operation requires an active database"}]}`},
		{name: "degraded, and a bad label", req: put("sqldb", legacySQL, `{"label":"--"}`), status: 400,
			exact: `{"errors":[{"reason":"Database is degraded; this operation requires an active database"},{"reason":"Label must be 3-32 characters","field":"label"}]}`},
		{name: "update", req: put("sqldb", ordersSQL, `{"label":"orders-main","allow_list":["128.173.205.21","123.177.200.20/30"],"updates":{"day_of_week":4,"duration":1,"frequency":"monthly","hour_of_day":8,"week_of_month":3}}`),
			status: 200, want: []string{`"label":"orders-main"`, `"status":"updating"`, `"allow_list":["128.173.205.21/32","123.177.200.20/30"]`,
				`"updates":{"frequency":"monthly","duration":1,"hour_of_day":8,"day_of_week":4,"week_of_month":3}`, `"updated":"2026-11-22T12:00:00"`}},
		{name: "again while updating", req: put("sqldb", ordersSQL, `{"label":"orders-x"}`), status: 400,
			exact: `{"errors":[{"reason":"Database is updating; this operation requires an active database"}]}`},
		{name: "the old label is free", req: doc(`{"label":"orders-sql"}`), status: 200, want: []string{`"label":"orders-sql"`}},
		{name: "an empty list blocks all", req: put("docdb", catalogDoc, `{"allow_list":[]}`), status: 400, want: []string{"updating"}},
		{name: "events", req: req{path: "/v4/account/events", token: demoToken, header: xfilter(`{"action":"database_update"}`)}, status: 200, want: []string{`"results":2`}},
	})
	e.clock.Advance(10 * time.Second)
	e.run(t, []scenario{
		{name: "active again", req: req{path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 200, want: []string{`"status":"active"`, `"updated":"2026-11-22T12:00:10"`}},
		{name: "empty allow list", req: put("docdb", catalogDoc, `{"allow_list":[]}`), status: 200, want: []string{`"allow_list":[]`}},
		{name: "to weekly clears the week", req: req{method: "PUT", path: dbPath("sqldb", ordersSQL, ""), token: demoToken, body: `{"updates":{"frequency":"weekly"}}`}, status: 200,
			want: []string{`"updates":{"frequency":"weekly","duration":1,"hour_of_day":8,"day_of_week":4,"week_of_month":null}`}},
	})
}
