package cloudapi

import (
	"fmt"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// withEvents records n events of the demo account over the last 80 days, on 500 instances' ids.
func (e *env) withEvents(tb testing.TB, n int) {
	err := e.db.Exclusive(func(tx kv.Tx) error {
		who := "demo"
		for i := 0; i < n; i++ {
			ev := &cloudstore.Event{AccountID: 1, Action: []string{"linode_boot", "linode_reboot", "linode_shutdown"}[i%3], Username: &who,
				Created: e.clock.Now().Add(-80 * 24 * time.Hour).Add(time.Duration(i) * 69 * time.Second),
				Entity:  &cloudstore.EventEntity{ID: i % 500, Label: fmt.Sprintf("vm-%d", i%500), Type: "instance"}}
			if err := cloudstore.RecordEvent(tx, ev); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkEventsFilter: GET /v4/account/events with an X-Filter on id, created or entity.id over
// 100,000 events, through HTTP on loopback; raw is the same candidates read straight from the
// index with the page decoded, no HTTP. p50/p99 are the app's per request. Budget: p50 ≤ 5 ms.
func BenchmarkEventsFilter(b *testing.B) {
	e := newEnv(b, 0)
	e.withEvents(b, 100_000)
	e.app = fiber.New(fiber.Config{ErrorHandler: RenderError, JSONEncoder: kit.MarshalJSON, DisableStartupMessage: true})
	Bind(e.app, Deps{Store: e.db, Clock: e.clock, Log: nopLog(), ExternalURL: func() string { return "" },
		Cloud: cloudsvc.New(e.db, e.clock, nopLog(), cloudsvc.Options{}), Limiter: newLimiter(e)})
	base := serveLoopback(b, e.app) + "/v4/account/events"
	cases := []struct {
		name, filter string
		r            cloudstore.EventRange
	}{
		{"id", `{"id":{"+gte":50000,"+lt":50100}}`, cloudstore.EventRange{IDFrom: 50000, IDTo: 50099}},
		{"created", `{"created":{"+gte":"2026-10-01T00:00:00","+lt":"2026-10-02T00:00:00"}}`,
			cloudstore.EventRange{From: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC).Add(-1)}},
		{"entity.id", `{"entity.id":123}`, cloudstore.EventRange{EntityID: "123"}},
		{"none (newest page of all)", ``, cloudstore.EventRange{}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			gets := newTimedGets(b, base, c.filter)
			raw := func(int) {
				e.db.View(func(tx kv.Tx) error {
					var ids []uint64
					r := c.r
					r.From = later(r.From, e.clock.Now().Add(-eventHistory))
					cloudstore.EventCandidates(tx, 1, r, func(id uint64) bool { ids = append(ids, id); return true })
					for _, id := range listing.Paginate(ids, listing.Page{Page: 1, Size: 100}).Data {
						cloudstore.AccountEvent(tx, 1, id)
					}
					return nil
				})
			}
			bench.Compare(b, 1, gets.get, raw)
			gets.report()
		})
	}
}
