package listing

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchItems builds n items with a spread of statuses, labels and times.
func benchItems(n int) []testItem {
	statuses := []string{"running", "offline", "provisioning", "running"}
	base := ts("2022-01-01T00:00:00")
	items := make([]testItem, n)
	for i := range items {
		items[i] = testItem{
			ID:      i + 1,
			Label:   fmt.Sprintf("%s-%d", []string{"web", "worker", "db"}[i%3], i),
			Status:  statuses[i%len(statuses)],
			Created: base.Add(time.Duration((i*7919)%n) * time.Minute),
			Public:  i%2 == 0,
			Entity:  testEntity{i % 50, "linode"},
		}
	}
	return items
}

const benchHeader = `{"status":"running","id":{"+gte":100},"label":{"+contains":"WEB"},"+order_by":"created","+order":"desc"}`

// BenchmarkFilterApply measures a 3-condition filter with +order_by over 10,000 items.
func BenchmarkFilterApply(b *testing.B) {
	items := benchItems(10000)
	f, err := ParseFilter(benchHeader, testFields)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		f.Apply(items)
	}
	b.ReportMetric(float64(b.N)*float64(len(items))/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkFilterApplyRaw is the same filter and sort written by hand in Go: the floor
// BenchmarkFilterApply is compared with.
func BenchmarkFilterApplyRaw(b *testing.B) {
	items := benchItems(10000)
	b.ReportAllocs()
	for b.Loop() {
		out := make([]testItem, 0, len(items))
		for _, it := range items {
			if it.Status == "running" && it.ID >= 100 && strings.Contains(strings.ToLower(it.Label), "web") {
				out = append(out, it)
			}
		}
		slices.SortStableFunc(out, func(a, b testItem) int { return b.Created.Compare(a.Created) })
	}
	b.ReportMetric(float64(b.N)*float64(len(items))/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkParseFilter measures compiling the header, done once per list request.
func BenchmarkParseFilter(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseFilter(benchHeader, testFields); err != nil {
			b.Fatal(err)
		}
	}
}
