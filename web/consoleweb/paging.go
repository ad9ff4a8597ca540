package consoleweb

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// pageSize is how many rows a console list shows at once: long lists are paged (?page=n), so
// no page grows past the web interface's 100 KB.
const pageSize = 50

// pager is one page of a list: which rows, and links to its neighbours.
type pager struct {
	Page, Pages, Total int
	From, To           int // the rows [From, To) of the whole list
	Path               string
}

// newPager reads ?page= for a list of total rows at path; a page past the end is the last.
func newPager(c *fiber.Ctx, path string, total int) pager {
	p := pager{Total: total, Path: path, Pages: max(1, (total+pageSize-1)/pageSize)}
	p.Page, _ = strconv.Atoi(c.Query("page"))
	p.Page = min(max(p.Page, 1), p.Pages)
	p.From = min((p.Page-1)*pageSize, total)
	p.To = min(p.From+pageSize, total)
	return p
}

// First is the 1-based number of the page's first row (0 for an empty list).
func (p pager) First() int {
	if p.Total == 0 {
		return 0
	}
	return p.From + 1
}

// Prev is the previous page's address ("" on the first).
func (p pager) Prev() string {
	if p.Page <= 1 {
		return ""
	}
	return p.Path + "?page=" + strconv.Itoa(p.Page-1)
}

// Next is the next page's address ("" on the last).
func (p pager) Next() string {
	if p.Page >= p.Pages {
		return ""
	}
	return p.Path + "?page=" + strconv.Itoa(p.Page+1)
}

// paginate cuts list to the page ?page= asks for.
func paginate[T any](c *fiber.Ctx, path string, list []T) ([]T, pager) {
	p := newPager(c, path, len(list))
	return list[p.From:p.To], p
}

// usd is an amount in cents, shown in dollars as the cloud API shows money.
type usd int64

// String writes the amount as $120.50.
func (u usd) String() string { return "$" + cloudstore.FormatCents(int64(u)) }

// stamp is a time as the console shows it: UTC, to the minute.
type stamp time.Time

// String writes the time, or "—" for none.
func (s stamp) String() string {
	t := time.Time(s)
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// stampOf is *t as a stamp (the zero stamp for nil).
func stampOf(t *time.Time) stamp {
	if t == nil {
		return stamp{}
	}
	return stamp(*t)
}
