package cloudapi

import (
	"encoding/json"
	"math"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// listEvents answers GET /account/events: the last 90 days, newest first, only what the
// caller's grants allow (cloudsvc.ListEvents). The X-Filter's top-level conditions on id,
// created and entity.id pick a key range of an index (store/cloudstore EventCandidates), so
// they never scan the whole history; when the filter holds nothing else, the domain may cut the
// page from the index keys and decode only its events.
func (a *api) listEvents(c *fiber.Ctx) error {
	page, err := listing.ParsePage(c.Query("page"), c.Query("page_size"))
	if err != nil {
		return err
	}
	header := c.Get("X-Filter")
	filter, err := listing.ParseFilter(header, eventFields)
	if err != nil {
		return err
	}
	r, covered := eventRange(header)
	list, err := a.Cloud.ListEvents(callerOf(c).User, cloudsvc.EventQuery{Range: r, Covered: covered, Match: filter.Match,
		Window: func(total int) (int, int) { w := listing.Window(total, page); return w.From, w.To }})
	if err != nil {
		return err
	}
	if list.Windowed {
		w := listing.Window(list.Total, page)
		out := listing.Envelope[eventView]{Data: make([]eventView, len(list.Events)), Page: w.Page, Pages: w.Pages, Results: list.Total}
		for i, e := range list.Events {
			out.Data[i] = viewEvent(e)
		}
		return c.JSON(out)
	}
	env := listing.Paginate(filter.Apply(list.Events), page) // Apply only orders here: all match
	out := listing.Envelope[eventView]{Data: make([]eventView, len(env.Data)), Page: env.Page, Pages: env.Pages, Results: env.Results}
	for i, e := range env.Data {
		out.Data[i] = viewEvent(e)
	}
	return c.JSON(out)
}

// eventRange reads the X-Filter's top-level conditions an index can answer. covered is true
// when the filter has no other condition and no ordering, so the index range alone is the
// answer. The full filter is validated (and applied when not covered) by listing.ParseFilter:
// this only narrows, so anything unexpected here just counts as not covered.
func eventRange(header string) (cloudstore.EventRange, bool) {
	var r cloudstore.EventRange
	var top map[string]json.RawMessage
	if strings.TrimSpace(header) == "" {
		return r, true
	}
	if json.Unmarshal([]byte(header), &top) != nil {
		return r, false
	}
	covered := true
	for key, raw := range top {
		ok := false
		switch key {
		case "id":
			ok = idBounds(raw, &r)
		case "created":
			ok = createdBounds(raw, &r)
		case "entity.id":
			r.EntityID, ok = scalarText(raw)
		case "entity.type":
			r.EntityType, ok = scalarText(raw)
		}
		covered = covered && ok
	}
	if r.EntityID == "" && r.EntityType != "" {
		r.EntityType, covered = "", false // a type alone is not an index key
	}
	return r, covered
}

// scalarText reads a plain string or integer value as EntityIDText writes it.
func scalarText(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		if x == math.Trunc(x) && x >= 0 {
			return cloudstore.EntityIDText(x), true
		}
	}
	return "", false
}

// idBounds reads {"id": n} or {"id": {"+gte": n, …}} into the range.
func idBounds(raw json.RawMessage, r *cloudstore.EventRange) bool {
	var n uint64
	if json.Unmarshal(raw, &n) == nil {
		r.IDFrom, r.IDTo = n, n
		return n > 0
	}
	var ops map[string]float64
	if json.Unmarshal(raw, &ops) != nil || len(ops) == 0 {
		return false
	}
	for op, v := range ops {
		if v != math.Trunc(v) || v < 0 || v > 1<<53 {
			return false
		}
		switch u := uint64(v); op {
		case "+gt":
			r.IDFrom = max(r.IDFrom, u+1)
		case "+gte":
			r.IDFrom = max(r.IDFrom, u)
		case "+lt":
			if u == 0 {
				return false
			}
			r.IDTo = minTo(r.IDTo, u-1)
		case "+lte":
			r.IDTo = minTo(r.IDTo, u)
		default:
			return false
		}
	}
	return r.IDTo > 0 || r.IDFrom > 0
}

func minTo(cur, v uint64) uint64 {
	if cur == 0 || v < cur {
		return max(v, 1)
	}
	return cur
}

// createdBounds reads {"created": "T"} or {"created": {"+gte": "T", …}} into the range, with
// the same one-second resolution as the filter's comparisons.
func createdBounds(raw json.RawMessage, r *cloudstore.EventRange) bool {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t, err := time.ParseInLocation(cloudTime, s, time.UTC)
		if err != nil {
			return false
		}
		r.From, r.To = t, t.Add(time.Second-1)
		return true
	}
	var ops map[string]string
	if json.Unmarshal(raw, &ops) != nil || len(ops) == 0 {
		return false
	}
	for op, v := range ops {
		t, err := time.ParseInLocation(cloudTime, v, time.UTC)
		if err != nil {
			return false
		}
		switch op {
		case "+gt":
			r.From = later(r.From, t.Add(time.Second))
		case "+gte":
			r.From = later(r.From, t)
		case "+lt":
			r.To = earlier(r.To, t.Add(-1))
		case "+lte":
			r.To = earlier(r.To, t.Add(time.Second-1))
		default:
			return false
		}
	}
	return true
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func earlier(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}
