package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
)

// renderList answers a list endpoint: X-Filter (on the resource's filterable fields), ordering,
// then the page the query asks for, each item rendered by view. Every cloud list goes through
// here (or renderPaged), so pagination and filtering behave the same everywhere.
func renderList[T, V any](c *fiber.Ctx, items []T, fields listing.Fields[T], view func(T) V) error {
	page, filter, err := parseList(c, fields)
	if err != nil {
		return err
	}
	return renderItems(c, items, page, filter, view)
}

// renderPaged is renderList for a list the store keeps in the order it is shown (an index's key
// order): without an X-Filter condition or ordering only the page is loaded — pageOf gets the
// window rule and returns the page's items and how many there are in all — else every item is
// (all) and filtered as renderList does. Both paths answer the same bytes for the same data.
func renderPaged[T, V any](c *fiber.Ctx, fields listing.Fields[T], view func(T) V,
	pageOf func(window func(total int) (from, to int)) ([]T, int, error), all func() ([]T, error)) error {
	page, filter, err := parseList(c, fields)
	if err != nil {
		return err
	}
	if !filter.Trivial() {
		items, err := all()
		if err != nil {
			return err
		}
		return renderItems(c, items, page, filter, view)
	}
	items, total, err := pageOf(func(total int) (int, int) { w := listing.Window(total, page); return w.From, w.To })
	if err != nil {
		return err
	}
	w := listing.Window(total, page)
	out := listing.Envelope[V]{Data: make([]V, len(items)), Page: w.Page, Pages: w.Pages, Results: total}
	for i, item := range items {
		out.Data[i] = view(item)
	}
	return c.JSON(out)
}

// parseList reads a list request's page and X-Filter, the page first (its error wins).
func parseList[T any](c *fiber.Ctx, fields listing.Fields[T]) (listing.Page, *listing.Filter[T], error) {
	page, err := listing.ParsePage(c.Query("page"), c.Query("page_size"))
	if err != nil {
		return page, nil, err
	}
	filter, err := listing.ParseFilter(c.Get("X-Filter"), fields)
	return page, filter, err
}

// renderItems filters, orders and pages items and renders the page.
func renderItems[T, V any](c *fiber.Ctx, items []T, page listing.Page, filter *listing.Filter[T], view func(T) V) error {
	return c.JSON(pageOf(items, page, filter, view))
}

// pageOf is the page of items that filter and page select, each item rendered by view.
func pageOf[T, V any](items []T, page listing.Page, filter *listing.Filter[T], view func(T) V) listing.Envelope[V] {
	env := listing.Paginate(filter.Apply(items), page)
	out := listing.Envelope[V]{Data: make([]V, len(env.Data)), Page: env.Page, Pages: env.Pages, Results: env.Results}
	for i, item := range env.Data {
		out.Data[i] = view(item)
	}
	return out
}
