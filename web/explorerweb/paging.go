package explorerweb

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
)

// pageSize is how many hits a page shows: a search that finds every package of every product
// would make a page of megabytes; 200 rows keep it well under 100 KB.
const pageSize = 200

// pager is one page of a long list: which hits it shows (From and To, 1-based, inclusive) of
// Total, and the addresses of its neighbours ("" at either end).
type pager struct {
	Total, From, To int
	Prev, Next      string
}

// Cut reports whether the list is longer than one page (the page then says which part it shows).
func (p pager) Cut() bool { return p.Total > pageSize }

// pageOf reads ?page= (1 when absent or not a positive number; past the end: the last page) and
// returns the pager for n hits with the bounds of its slice; href makes a page's address.
func pageOf(c *fiber.Ctx, n int, href func(page int) string) (p pager, lo, hi int) {
	page, err := strconv.Atoi(c.Query("page"))
	if err != nil || page < 1 {
		page = 1
	}
	last := max(1, (n+pageSize-1)/pageSize)
	page = min(page, last)
	lo, hi = (page-1)*pageSize, min(n, page*pageSize)
	p = pager{Total: n, From: lo + 1, To: hi}
	if n == 0 {
		p.From = 0
	}
	if page > 1 {
		p.Prev = href(page - 1)
	}
	if page < last {
		p.Next = href(page + 1)
	}
	return p, lo, hi
}
