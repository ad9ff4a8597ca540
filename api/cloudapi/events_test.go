package cloudapi

import (
	"fmt"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// addEvents records events of account 1 straight in the store: ago is how long before the
// test's start each one happened.
func (e *env) addEvent(t testing.TB, account uint64, action, who string, entity *cloudstore.EventEntity, ago time.Duration) uint64 {
	t.Helper()
	ev := &cloudstore.Event{AccountID: account, Action: action, Created: e.clock.Now().Add(-ago), Entity: entity}
	if who != "" {
		ev.Username = &who
	}
	if err := e.db.Write(func(tx kv.Tx) error { return cloudstore.RecordEvent(tx, ev) }); err != nil {
		t.Fatal(err)
	}
	return ev.ID
}

func instanceEntity(id int, label string) *cloudstore.EventEntity {
	return &cloudstore.EventEntity{ID: id, Label: label, Type: "instance", URL: fmt.Sprintf("/v4/linode/instances/%d", id)}
}

func TestEvents(t *testing.T) {
	e := newEnv(t, 0)
	old := e.addEvent(t, 1, "linode_boot", "demo", instanceEntity(1, "web-1"), 100*24*time.Hour) // past the 90 days
	e1 := e.addEvent(t, 1, "linode_boot", "demo", instanceEntity(1, "web-1"), 48*time.Hour)
	e2 := e.addEvent(t, 1, "linode_reboot", "demo", instanceEntity(3, "worker-1"), 24*time.Hour)
	e3 := e.addEvent(t, 1, "account_update", "demo", &cloudstore.EventEntity{ID: "x", Label: "demo", Type: "account", URL: "/v4/account"}, time.Hour)
	e4 := e.addEvent(t, 1, "token_create", "carol", &cloudstore.EventEntity{ID: 9, Label: "t", Type: "token"}, 30*time.Minute)
	e5 := e.addEvent(t, 1, "linode_shutdown", "demo", instanceEntity(2, "web-2"), time.Minute)
	partner := e.addEvent(t, 2, "linode_boot", "dave", instanceEntity(6, "partner-app-1"), time.Minute)
	filter := func(f string) map[string]string { return map[string]string{"X-Filter": f} }
	in := func(id uint64) string { return fmt.Sprintf(`{"id":%d,"action"`, id) }
	e.run(t, []scenario{
		{name: "newest first, last 90 days", req: req{path: "/v4/account/events", token: demoToken}, status: 200,
			want: []string{`"results":5`, `{"data":[{"id":` + fmt.Sprint(e5)}, not: []string{in(old), in(partner)}},
		{name: "shape", req: req{path: fmt.Sprintf("/v4/account/events/%d", e1), token: demoToken}, status: 200,
			want: []string{`"action":"linode_boot"`, `"entity":{"id":1,"label":"web-1","type":"instance","url":"/v4/linode/instances/1"}`,
				`"status":"notification"`, `"seen":false`, `"read":false`, `"username":"demo"`, `"percent_complete":null`, `"secondary_entity":null`}},
		{name: "filter by id", req: req{path: "/v4/account/events", token: demoToken, header: filter(fmt.Sprintf(`{"id":%d}`, e2))}, status: 200,
			want: []string{`"results":1`, in(e2)}},
		{name: "filter by id range", req: req{path: "/v4/account/events", token: demoToken, header: filter(fmt.Sprintf(`{"id":{"+gte":%d,"+lt":%d}}`, e2, e5))}, status: 200,
			want: []string{`"results":3`, in(e2), in(e3), in(e4)}},
		{name: "filter by created", req: req{path: "/v4/account/events", token: demoToken, header: filter(`{"created":{"+gte":"` + formatTime(start.Add(-2*time.Hour)) + `"}}`)}, status: 200,
			want: []string{`"results":3`, in(e3), in(e4), in(e5)}},
		{name: "filter by entity", req: req{path: "/v4/account/events", token: demoToken, header: filter(`{"entity.id":1,"entity.type":"instance"}`)}, status: 200,
			want: []string{`"results":1`, in(e1)}, not: []string{in(old)}},
		{name: "filter by action (decoded path)", req: req{path: "/v4/account/events", token: demoToken, header: filter(`{"action":"linode_reboot"}`)}, status: 200,
			want: []string{`"results":1`, in(e2)}},
		{name: "filter mixing index and residual", req: req{path: "/v4/account/events", token: demoToken, header: filter(`{"+and":[{"entity.type":"instance"},{"action":{"+contains":"BOOT"}}]}`)}, status: 200,
			want: []string{`"results":2`, in(e1), in(e2)}},
		{name: "ordered oldest first", req: req{path: "/v4/account/events", token: demoToken, header: filter(`{"+order_by":"created","+order":"asc"}`)}, status: 200,
			want: []string{`{"data":[{"id":` + fmt.Sprint(e1)}},
		{name: "filter on a field that is not filterable", req: req{path: "/v4/account/events", token: demoToken, header: filter(`{"seen":true}`)}, status: 400,
			exact: `{"errors":[{"reason":"Cannot filter on seen","field":"X-Filter"}]}`},
		{name: "another account's event", req: req{path: fmt.Sprintf("/v4/account/events/%d", partner), token: demoToken}, status: 404},
		{name: "an event past 90 days", req: req{path: fmt.Sprintf("/v4/account/events/%d", old), token: demoToken}, status: 404},
		{name: "bad id", req: req{path: "/v4/account/events/abc", token: demoToken}, status: 404},
		{name: "carol sees what her grants allow", req: req{path: "/v4/account/events", token: carolToken}, status: 200,
			want: []string{`"results":4`, in(e1), in(e3), in(e4), in(e5)}, not: []string{in(e2)}},
		{name: "carol filtered the slow way", req: req{path: "/v4/account/events", token: carolToken, header: filter(`{"entity.id":3}`)}, status: 200, want: []string{`"results":0`}},
		{name: "carol cannot view worker-1's event", req: req{path: fmt.Sprintf("/v4/account/events/%d", e2), token: carolToken}, status: 404},
		{name: "mark read", req: req{method: "POST", path: fmt.Sprintf("/v4/account/events/%d/read", e1), token: demoToken}, status: 200, exact: `{}`},
		{name: "read", req: req{path: fmt.Sprintf("/v4/account/events/%d", e1), token: demoToken}, status: 200, want: []string{`"read":true`, `"seen":false`}},
		{name: "carol may not mark seen (needs read_write)", req: req{method: "POST", path: fmt.Sprintf("/v4/account/events/%d/seen", e3), token: carolToken}, status: 403},
		{name: "mark seen up to e3", req: req{method: "POST", path: fmt.Sprintf("/v4/account/events/%d/seen", e3), token: demoToken}, status: 200},
		{name: "e2 seen", req: req{path: fmt.Sprintf("/v4/account/events/%d", e2), token: demoToken}, status: 200, want: []string{`"seen":true`}},
		{name: "e5 not seen", req: req{path: fmt.Sprintf("/v4/account/events/%d", e5), token: demoToken}, status: 200, want: []string{`"seen":false`}},
		{name: "list shows seen", req: req{path: "/v4/account/events", token: demoToken, header: filter(fmt.Sprintf(`{"id":%d}`, e1))}, status: 200, want: []string{`"read":true,"secondary_entity":null,"seen":true`}},
		{name: "wrong scope", req: req{path: "/v4/account/events", token: e.token(t, "demo", "account:read_write", nil)}, status: 403},
	})
}
