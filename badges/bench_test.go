package badges

import (
	"bytes"
	"testing"

	svg "github.com/ajstarks/svgo"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
)

// The badges' budgets (DESIGN.md): a badge ≥ 50,000 renders/s per core before caching; a
// 50×10 table ≤ 2 ms. Each benchmark times the drawing next to the raw layer beneath it — svgo
// writing the same elements with no measuring, escaping or layout — in the same run (x-raw).

// rawBadge is svgo drawing a build|passing badge's elements with the numbers already known.
func rawBadge(buf *bytes.Buffer) {
	buf.Reset()
	c := svg.New(buf)
	c.Start(88, 20)
	c.Rect(0, 0, 37, 20, `fill="#555"`)
	c.Rect(37, 0, 51, 20, `fill="#44cc11"`)
	c.Text(195, 140, "build", `transform="scale(.1)"`)
	c.Text(615, 140, "passing", `transform="scale(.1)"`)
	c.End()
}

// BenchmarkBadge: a project badge over 30 packages in 4 repository/archs (a typical home
// project), drawn from its statuses.
func BenchmarkBadge(b *testing.B) {
	st := results(names("pkg-", 30), []string{"standard/x86_64", "standard/aarch64", "images/x86_64", "images/aarch64"},
		"succeeded", "succeeded", "failed", "building", "excluded")
	var buf bytes.Buffer
	bench.Compare(b, 1, func(int) { Project("home:alice", "", st, testLinks) }, func(int) { rawBadge(&buf) })
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "renders/s")
}

// BenchmarkFlatBadge: the two-sided badge alone (measuring, escaping, links), the part every
// badge shares.
func BenchmarkFlatBadge(b *testing.B) {
	var buf bytes.Buffer
	badge := Badge{Label: "build", Message: "passing", Colour: ColourPassing}
	bench.Compare(b, 1, func(int) { badge.SVG() }, func(int) { rawBadge(&buf) })
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "renders/s")
}

// BenchmarkTable50x10: a table of 50 packages × 10 repository/archs; raw is svgo writing a rect
// and a text per cell.
func BenchmarkTable50x10(b *testing.B) {
	cols := repoNames(10)
	st := results(names("pkg-", 50), cols, "succeeded", "succeeded", "failed", "building", "blocked", "excluded")
	cells := st.flat()
	var buf bytes.Buffer
	bench.Compare(b, 1, func(int) { Table("openSUSE:Factory", st, TableOptions{}, testLinks) }, func(int) {
		buf.Reset()
		c := svg.New(&buf)
		c.Start(1000, 1020)
		for i, s := range cells {
			c.Rect(100*(i%10), 20*(i/10), 100, 20, `fill="#44cc11"`)
			c.Text(100*(i%10)+50, 20*(i/10)+14, s.Code)
		}
		c.End()
	})
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/table")
}
