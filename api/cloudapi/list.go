package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
)

// renderList answers a list endpoint: X-Filter (on the resource's filterable fields), ordering,
// then the page the query asks for, each item rendered by view. Every cloud list goes through
// here, so pagination and filtering behave the same everywhere.
func renderList[T, V any](c *fiber.Ctx, items []T, fields listing.Fields[T], view func(T) V) error {
	page, err := listing.ParsePage(c.Query("page"), c.Query("page_size"))
	if err != nil {
		return err
	}
	filter, err := listing.ParseFilter(c.Get("X-Filter"), fields)
	if err != nil {
		return err
	}
	env := listing.Paginate(filter.Apply(items), page)
	out := listing.Envelope[V]{Data: make([]V, len(env.Data)), Page: env.Page, Pages: env.Pages, Results: env.Results}
	for i, item := range env.Data {
		out.Data[i] = view(item)
	}
	return c.JSON(out)
}
