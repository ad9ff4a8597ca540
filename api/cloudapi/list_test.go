package cloudapi

import (
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/cloudsvc"
)

// TestPagedListingsAnswerAsFullListings: the listings that load only their page (payments,
// invoices, OAuth clients) answer byte for byte what filtering and paging the whole list
// answers, on every page, past the end, on a huge page (the last), with "{}" as X-Filter, and
// through the full path when a filter is given.
func TestPagedListingsAnswerAsFullListings(t *testing.T) {
	e := newEnv(t, 0)
	e.runJobs() // three months of invoices and their autopayments
	for i := 0; i < 57; i++ {
		if r := e.do(t, req{method: "POST", path: "/v4/account/payments", token: demoToken, body: `{"usd":"5.00"}`}); r.Status != 200 {
			t.Fatalf("payment: %d %s", r.Status, r.Body)
		}
	}
	for i := 0; i < 30; i++ {
		body := fmt.Sprintf(`{"label":"app %02d","redirect_uri":"https://app.example.com/cb","public":%v}`, i, i%3 == 0)
		if r := e.do(t, req{method: "POST", path: "/v4/account/oauth-clients", token: demoToken, body: body}); r.Status != 200 {
			t.Fatalf("client: %d %s", r.Status, r.Body)
		}
	}
	url := func() string { return "http://pocketforge.test" }
	svc := cloudsvc.New(e.db, e.clock, slog.New(slog.NewTextHandler(io.Discard, nil)), cloudsvc.Options{ExternalURL: url})
	a := &api{Deps: Deps{ExternalURL: url}}
	account := uint64(1)
	full := map[string]func(listing.Page) any{
		"/v4/account/payments": func(p listing.Page) any {
			all, err := svc.Payments(account)
			return page(t, all, err, p, viewPayment)
		},
		"/v4/account/invoices": func(p listing.Page) any {
			all, err := svc.Invoices(account)
			return page(t, all, err, p, viewInvoice)
		},
		"/v4/account/oauth-clients": func(p listing.Page) any {
			all, err := svc.AccountClients(account)
			return page(t, all, err, p, a.viewClient)
		},
	}
	queries := []struct {
		query string
		page  listing.Page
	}{
		{"", listing.Page{Page: 1, Size: 100}},
		{"?page=1&page_size=25", listing.Page{Page: 1, Size: 25}},
		{"?page=2&page_size=25", listing.Page{Page: 2, Size: 25}},
		{"?page=3&page_size=25", listing.Page{Page: 3, Size: 25}},
		{"?page=4&page_size=25", listing.Page{Page: 4, Size: 25}},
		{"?page=99&page_size=25", listing.Page{Page: 99, Size: 25}},
		{"?page=99999999999999999999999&page_size=25", listing.Page{Page: 1 << 62, Size: 25}},
		{"?page_size=500", listing.Page{Page: 1, Size: 500}},
	}
	for path, want := range full {
		for _, q := range queries {
			for _, filter := range []string{"", "{}"} {
				got := e.do(t, req{path: path + q.query, token: demoToken, header: map[string]string{"X-Filter": filter}})
				body, _ := kit.MarshalJSON(want(q.page))
				if got.Status != 200 || got.Body != string(body) {
					t.Errorf("%s%s (X-Filter %q): %d\n%s\nwant\n%s", path, q.query, filter, got.Status, got.Body, body)
				}
			}
		}
	}
	var payments listing.Envelope[struct{ ID int }]
	decode(t, e.do(t, req{path: "/v4/account/payments?page=2&page_size=25", token: demoToken}).Body, &payments)
	if payments.Results != 60 || payments.Pages != 3 || len(payments.Data) != 25 || payments.Data[0].ID != 26 {
		t.Fatalf("payments page 2: %+v", payments)
	}
	// A filter takes the full path; the answer is the filtered list, paged.
	got := e.do(t, req{path: "/v4/account/oauth-clients?page_size=25", token: demoToken, header: map[string]string{"X-Filter": `{"public":true}`}})
	var env listing.Envelope[clientView]
	decode(t, got.Body, &env)
	if got.Status != 200 || env.Results != 10 || len(env.Data) != 10 {
		t.Fatalf("filtered: %d %s", got.Status, got.Body)
	}
}

// page is the envelope renderList answers for all, unfiltered.
func page[T, V any](t *testing.T, all []T, err error, p listing.Page, view func(T) V) any {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	env := listing.Paginate(all, p)
	out := listing.Envelope[V]{Data: make([]V, len(env.Data)), Page: env.Page, Pages: env.Pages, Results: env.Results}
	for i, item := range env.Data {
		out.Data[i] = view(item)
	}
	return out
}
