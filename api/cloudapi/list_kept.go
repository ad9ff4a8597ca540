package cloudapi

import (
	"sync"
	"unsafe"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
)

// keptPages keeps the JSON of list pages rendered from a list the domain keeps (cloudsvc's
// caches, valid until the next commit), by owner (the account), page and page size. A kept
// page is answered again only while the domain hands out the very list it was rendered from
// (the same backing array, which the entry holds so it cannot be reused): a commit that reloads
// the list renders the page anew. Encoding 100 users per request was most of the users page's
// cost. Pages with an X-Filter are rendered per request, as before, and never kept.
type keptPages[T any] struct {
	mu sync.Mutex
	m  map[pageKey]keptPage[T]
}

type pageKey struct {
	owner      uint64
	page, size int
}

type keptPage[T any] struct {
	items []T
	body  []byte
}

// maxKeptPages bounds a keptPages: a client asking for ever new page numbers empties it rather
// than growing it.
const maxKeptPages = 1024

// renderKept answers a list request as renderList does, from kept when it holds the page
// rendered from items.
func renderKept[T, V any](c *fiber.Ctx, kept *keptPages[T], owner uint64, items []T, fields listing.Fields[T], view func(T) V) error {
	page, filter, err := parseList(c, fields)
	if err != nil {
		return err
	}
	if !filter.Trivial() {
		return renderItems(c, items, page, filter, view)
	}
	k := pageKey{owner: owner, page: page.Page, size: page.Size}
	kept.mu.Lock()
	p, ok := kept.m[k]
	kept.mu.Unlock()
	if !ok || len(p.items) != len(items) || unsafe.SliceData(p.items) != unsafe.SliceData(items) {
		body, err := c.App().Config().JSONEncoder(pageOf(items, page, filter, view))
		if err != nil {
			return err
		}
		p = keptPage[T]{items: items, body: body}
		kept.mu.Lock()
		if kept.m == nil || len(kept.m) >= maxKeptPages {
			kept.m = map[pageKey]keptPage[T]{}
		}
		kept.m[k] = p
		kept.mu.Unlock()
	}
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
	return c.Send(p.body) // never changed: fasthttp only writes it out
}
