package listing

// Envelope is the body of every list response, {"data":[…],"page":N,"pages":N,"results":N},
// in the field order the real API uses. Build it with Paginate, which guarantees Data is never
// nil (an empty page renders "[]", not null, as clients iterate over it).
type Envelope[T any] struct {
	Data    []T `json:"data"`
	Page    int `json:"page"`
	Pages   int `json:"pages"`
	Results int `json:"results"`
}

// Paginate cuts page p out of items (already filtered and sorted), so every list endpoint pages
// the same way. Pages is at least 1, so an empty collection is
// {"data":[],"page":1,"pages":1,"results":0} as the real API answers.
//
// A page above 2^64/Size answers the last page (spec "Limits"). A page between Pages+1 and that
// bound answers an empty Data with Page set to the requested page: the real API's behaviour
// there is undocumented, and an honest empty page tells a client that walks pages it is done.
// A zero or negative Size counts as DefaultSize and a Page below 1 as page 1, so a zero Page
// built in code lists the first page. Data shares items' backing array (capacity clipped).
func Paginate[T any](items []T, p Page) Envelope[T] {
	w := Window(len(items), p)
	env := Envelope[T]{Data: []T{}, Page: w.Page, Pages: w.Pages, Results: len(items)}
	if w.To > w.From {
		env.Data = items[w.From:w.To:w.To]
	}
	return env
}

// Span is the part of a list of Results items that one page shows: items [From, To).
type Span struct {
	Page, Pages, From, To int
}

// Window applies the paging rules of Paginate to a list of total items without the items, for
// callers that count a list from an index and then fetch only the page's items.
func Window(total int, p Page) Span {
	size := p.Size
	if size < 1 {
		size = DefaultSize
	}
	page := max(p.Page, 1)
	pages := max(1, (total+size-1)/size)
	if uint64(page) > overflowBound(size) {
		page = pages
	}
	w := Span{Page: page, Pages: pages}
	if page > pages {
		return w
	}
	w.From = (page - 1) * size
	w.To = min(w.From+size, total)
	return w
}
