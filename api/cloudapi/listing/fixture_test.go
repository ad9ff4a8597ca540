package listing

import (
	"time"
)

// testEntity is a nested struct, reached by dotted field names ("entity.id").
type testEntity struct {
	ID   int
	Type string
}

// testState is a named string type, normalized through reflect.
type testState string

// testItem is the small resource the filter tests run over.
type testItem struct {
	ID      int
	Label   string
	Status  string
	Created time.Time
	Public  bool
	Entity  testEntity
	Action  string
	Owner   *string
	Size    uint64
	Ratio   float64
}

func ts(s string) time.Time {
	t, err := time.Parse("2006-01-02T15:04:05.999", s)
	if err != nil {
		panic(err)
	}
	return t
}

func ptr(s string) *string { return &s }

// testFields declares every field kind ParseFilter must handle.
var testFields = Fields[testItem]{
	"id":      func(r testItem) any { return r.ID },
	"label":   func(r testItem) any { return r.Label },
	"status":  func(r testItem) any { return r.Status },
	"created": func(r testItem) any { return r.Created },
	"public":  func(r testItem) any { return r.Public },
	"entity.id": func(r testItem) any {
		return r.Entity.ID
	},
	"entity.type": func(r testItem) any { return r.Entity.Type },
	"action":      func(r testItem) any { return r.Action },
	// owner returns a plain nil for items without one.
	"owner": func(r testItem) any {
		if r.Owner == nil {
			return nil
		}
		return *r.Owner
	},
	// owner_ptr returns the pointer itself: a nil *string is null too.
	"owner_ptr": func(r testItem) any { return r.Owner },
	"size":      func(r testItem) any { return r.Size },
	"ratio":     func(r testItem) any { return r.Ratio },
	"state":     func(r testItem) any { return testState(r.Status) },
}

func testItems() []testItem {
	return []testItem{
		{ID: 1, Label: "web-1", Status: "running", Created: ts("2022-01-01T00:00:00"), Public: true,
			Entity: testEntity{5, "linode"}, Action: "linode_boot", Owner: ptr("alice"), Size: 10, Ratio: 0.5},
		{ID: 2, Label: "web-2", Status: "offline", Created: ts("2022-06-15T12:30:00"),
			Entity: testEntity{7, "linode"}, Action: "linode_create", Size: 20, Ratio: 1.5},
		{ID: 3, Label: "Worker-1", Status: "running", Created: ts("2023-01-01T00:00:00"), Public: true,
			Entity: testEntity{5, "domain"}, Action: "x", Owner: ptr("bob"), Size: 1<<64 - 1, Ratio: 2},
		{ID: 4, Label: "db-Ümlaut", Status: "provisioning", Created: ts("2021-12-31T23:59:59.5"),
			Entity: testEntity{9, "database"}, Action: "x", Size: 0, Ratio: -1},
		{ID: 5, Label: "a", Status: "offline", Created: ts("2023-06-01T00:00:00"), Public: true,
			Entity: testEntity{5, "linode"}, Action: "x", Owner: ptr("alice"), Size: 5, Ratio: 0},
	}
}

func ids(items []testItem) []int {
	out := []int{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}
