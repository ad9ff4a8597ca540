package cloudapi

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// TestInvoiceHistory checks the first run of the billing job: the demo account's months since
// it became active are invoiced (August, its first month with instances, onwards) and autopaid.
func TestInvoiceHistory(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{{name: "nothing before the job runs", req: req{path: "/v4/account/invoices", token: demoToken}, status: 200,
		exact: `{"data":[],"page":1,"pages":1,"results":0}`}})
	e.runJobs()
	e.runJobs() // a second run at the same instant changes nothing
	e.run(t, []scenario{
		{name: "list", req: req{path: "/v4/account/invoices", token: demoToken}, status: 200,
			want:   []string{`"results":3`, `"date":"2026-09-01T00:00:00"`, `"date":"2026-10-01T00:00:00"`, `"date":"2026-11-01T00:00:00"`},
			header: map[string]string{"X-Accepted-OAuth-Scopes": "account:read_only"}},
		{name: "August", req: req{path: "/v4/account/invoices/1", token: demoToken}, status: 200,
			exact: `{"billing_source":"akamai","date":"2026-09-01T00:00:00","id":1,"label":"Invoice","subtotal":31.50,"tax":1.90,"tax_summary":[{"name":"PA STATE TAX","tax":1.90}],"total":33.40}`},
		{name: "August's items", req: req{path: "/v4/account/invoices/1/items", token: demoToken}, status: 200,
			exact: `{"data":[` +
				`{"amount":15.12,"from":"2026-08-14T12:00:00","label":"Instance web-1 (g6-standard-2)","quantity":420,"region":"us-east","tax":0.91,"to":"2026-08-31T23:59:59","total":16.03,"type":"hourly","unit_price":"0.036"},` +
				`{"amount":1.26,"from":"2026-08-14T12:00:00","label":"Backup Service - web-1","quantity":420,"region":"us-east","tax":0.08,"to":"2026-08-31T23:59:59","total":1.34,"type":"hourly","unit_price":"0.003"},` +
				`{"amount":15.12,"from":"2026-08-14T12:00:00","label":"Instance web-2 (g6-standard-2)","quantity":420,"region":"us-east","tax":0.91,"to":"2026-08-31T23:59:59","total":16.03,"type":"hourly","unit_price":"0.036"}` +
				`],"page":1,"pages":1,"results":3}`},
		{name: "items paginated", req: req{path: "/v4/account/invoices/3/items?page_size=25&page=2", token: demoToken}, status: 200, want: []string{`"page":2`}},
		{name: "items not filterable", req: req{path: "/v4/account/invoices/1/items", token: demoToken, header: map[string]string{"X-Filter": `{"type":"hourly"}`}}, status: 400},
		{name: "under v4beta", req: req{path: "/v4beta/account/invoices/2", token: demoToken}, status: 200, want: []string{`"id":2`}},
		{name: "restricted user with read_only access", req: req{path: "/v4/account/invoices/1/items", token: carolToken}, status: 200},
		{name: "another account's", req: req{path: "/v4/account/invoices/1", token: daveToken}, status: 404, exact: `{"errors":[{"reason":"Not found"}]}`},
		{name: "another account's items", req: req{path: "/v4/account/invoices/1/items", token: daveToken}, status: 404},
		{name: "missing", req: req{path: "/v4/account/invoices/99", token: demoToken}, status: 404},
		{name: "non-numeric", req: req{path: "/v4/account/invoices/x", token: demoToken}, status: 404},
		{name: "autopaid", req: req{path: "/v4/account/payments/1", token: demoToken}, status: 200,
			exact: `{"id":1,"date":"2026-09-01T00:00:00","usd":33.40}`},
		{name: "nothing owed", req: req{path: "/v4/account", token: demoToken}, status: 200, want: []string{`"balance":0.00,`}},
		{name: "the partner's first month is not over", req: req{path: "/v4/account/invoices", token: daveToken}, status: 200, want: []string{`"results":0`}},
	})
}

// TestBillingCycle moves the clock over a month boundary: the new invoices bill each instance
// for its hours at its price (capped at the monthly price), backups, promo credit and tax; the
// demo account is autopaid, the partner's expired card is not, which makes it past due 21 days
// later until it pays.
func TestBillingCycle(t *testing.T) {
	e := newEnv(t, 0)
	e.runJobs()
	e.run(t, []scenario{
		{name: "partner redeems a promo code", req: req{method: "POST", path: "/v4/account/promo-codes", token: daveToken, body: `{"promo_code":"POCKET10"}`}, status: 200,
			want: []string{`"this_month_credit_remaining":"1.36"`}}, // 480 h × $0.018 = $8.64 of November's $10 already used
	})
	e.clock.Set(time.Date(2026, 12, 1, 0, 0, 30, 0, time.UTC))
	e.runJobs()
	demo, partner := billingAcct(t, e, "demo"), billingAcct(t, e, "partner")
	nov := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	dec := nov.AddDate(0, 1, 0)
	inv := lastInvoice(t, e, demo.ID)
	checkUsageItems(t, e, demo.ID, inv, nov, dec)
	if inv.SubtotalCents != 13900 || inv.TaxCents != 834 || inv.TotalCents != 14734 || !inv.Date.Equal(dec) {
		t.Fatalf("demo's November invoice: %+v", inv)
	}
	if demo.BalanceCents != 0 || demo.PastDueSince != nil {
		t.Fatalf("demo after autopay: balance %d, past due %v", demo.BalanceCents, demo.PastDueSince)
	}
	pinv := lastInvoice(t, e, partner.ID)
	checkUsageItems(t, e, partner.ID, pinv, nov, dec)
	if n := len(pinv.Items); n != 2 || pinv.Items[0].Quantity != 684 || pinv.Items[0].AmountCents != 1200 || pinv.Items[1].Type != "misc" || pinv.Items[1].AmountCents != -1000 {
		t.Fatalf("partner's items: %+v", pinv.Items)
	}
	if pinv.TaxCents != 0 || pinv.TotalCents != 200 || partner.BalanceCents != 200 {
		t.Fatalf("partner's invoice %+v, balance %d", pinv, partner.BalanceCents)
	}
	e.run(t, []scenario{
		{name: "demo's November", req: req{path: fmt.Sprintf("/v4/account/invoices/%d", inv.ID), token: demoToken}, status: 200,
			want: []string{`"subtotal":139.00,"tax":8.34,"tax_summary":[{"name":"PA STATE TAX","tax":8.34}],"total":147.34`}},
		{name: "demo autopaid", req: req{path: "/v4/account/payments", token: demoToken}, status: 200,
			want: []string{`"results":4`, `{"id":4,"date":"2026-12-01T00:00:00","usd":147.34}`}},
		{name: "partner's credit shows", req: req{path: fmt.Sprintf("/v4/account/invoices/%d/items", pinv.ID), token: daveToken}, status: 200,
			want: []string{`{"amount":-10.00,"from":"2026-11-01T00:00:00","label":"Promotion POCKET10: $10 off your services a month","quantity":1,"region":null,"tax":0.00,"to":"2026-11-30T23:59:59","total":-10.00,"type":"misc","unit_price":"-10.00"}`}},
		{name: "partner's untaxed invoice", req: req{path: fmt.Sprintf("/v4/account/invoices/%d", pinv.ID), token: daveToken}, status: 200,
			want: []string{`"subtotal":2.00,"tax":0.00,"tax_summary":[],"total":2.00`}},
		{name: "partner owes", req: req{path: "/v4/account", token: daveToken}, status: 200,
			want: []string{`"balance":2.00,`, `"credit_remaining":"50.00"`}},
	})
	mailed(t, e, "billing@partner.pocketforge.test", "could not charge")

	e.clock.Set(dec.Add(cloudsvc.PastDueAfter - time.Second))
	e.runJobs()
	if p := billingAcct(t, e, "partner"); p.PastDueSince != nil {
		t.Fatalf("past due too early: %v", p.PastDueSince)
	}
	e.clock.Set(dec.Add(cloudsvc.PastDueAfter))
	e.runJobs()
	if p := billingAcct(t, e, "partner"); p.PastDueSince == nil || !p.PastDueSince.Equal(dec.Add(cloudsvc.PastDueAfter)) {
		t.Fatalf("past due since %v, want %v", p.PastDueSince, dec.Add(cloudsvc.PastDueAfter))
	}
	e.run(t, []scenario{
		{name: "expired card refused", req: req{method: "POST", path: "/v4/account/payments", token: daveToken, body: `{"usd":"2.00"}`}, status: 400},
		{name: "a new card", req: req{method: "POST", path: "/v4/account/payment-methods", token: daveToken, body: cardBody("4242424242424242", 1, 2030, "123", true)}, status: 200},
		{name: "below $5 is fine when the balance is lower", req: req{method: "POST", path: "/v4/account/payments", token: daveToken, body: `{"usd":"2.00"}`}, status: 200},
	})
	if p := billingAcct(t, e, "partner"); p.PastDueSince != nil || p.BalanceCents != 0 {
		t.Fatalf("after paying: past due %v, balance %d", p.PastDueSince, p.BalanceCents)
	}
}

// lastInvoice is an account's newest invoice.
func lastInvoice(t *testing.T, e *env, account uint64) cloudstore.Invoice {
	t.Helper()
	var invs []cloudstore.Invoice
	e.db.View(func(tx kv.Tx) (err error) { invs, err = cloudstore.AccountInvoices(tx, account); return err })
	if len(invs) == 0 {
		t.Fatal("no invoice")
	}
	return invs[len(invs)-1]
}

// checkUsageItems recomputes, from the instances in the store, what each one should cost the
// account in [from, to) and compares it with the invoice's hourly items.
func checkUsageItems(t *testing.T, e *env, account uint64, inv cloudstore.Invoice, from, to time.Time) {
	t.Helper()
	var want []string
	e.db.View(func(tx kv.Tx) error {
		return store.Each(tx, store.CloudInstances, nil, func(_ []byte, in cloudstore.Instance) (bool, error) {
			if in.Owners[0].AccountID != account {
				return true, nil
			}
			begin := from
			if in.Created.After(from) {
				begin = in.Created
			}
			hours := int(math.Ceil(to.Sub(begin).Hours()))
			cents := int(math.Min(math.Round(float64(hours)*in.HourlyPrice*100), in.MonthlyPrice*100))
			want = append(want, fmt.Sprintf("Instance %s (%s) %d h %d", in.Label, in.Type, hours, cents))
			if in.BackupsEnabled {
				want = append(want, fmt.Sprintf("Backup Service - %s %d h %d", in.Label, hours, min(int(math.Round(float64(hours)*0.3)), 200)))
			}
			return true, nil
		})
	})
	var got []string
	for _, it := range inv.Items {
		if it.Type == "hourly" {
			got = append(got, fmt.Sprintf("%s %d h %d", it.Label, it.Quantity, it.AmountCents))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// mailed checks that the outbox holds a mail to address containing text.
func mailed(t *testing.T, e *env, address, text string) {
	t.Helper()
	var mails []outbox.Mail
	e.db.View(func(tx kv.Tx) (err error) { mails, err = outbox.List(tx, address, 0); return err })
	for _, m := range mails {
		if strings.Contains(m.Subject+m.Body, text) {
			return
		}
	}
	t.Fatalf("no mail to %s about %q: %+v", address, text, mails)
}

func TestPromoCodes(t *testing.T) {
	e := newEnv(t, 0)
	readOnly := e.token(t, "dave", "account:read_only", nil)
	redeem := func(token, body string) req {
		return req{method: "POST", path: "/v4/account/promo-codes", token: token, body: body}
	}
	e.run(t, []scenario{
		{name: "the 120-day-old demo account", req: redeem(demoToken, `{"promo_code":"POCKET10"}`), status: 400,
			exact: `{"errors":[{"reason":"Promo codes can only be added to accounts less than 90 days old"}]}`},
		{name: "every problem at once", req: redeem(demoToken, `{"promo_code":"NOPE"}`), status: 400,
			exact: `{"errors":[{"reason":"Promo codes can only be added to accounts less than 90 days old"},{"reason":"Invalid promo code","field":"promo_code"}]}`},
		{name: "restricted user", req: redeem(carolToken, `{"promo_code":"POCKET10"}`), status: 403},
		{name: "missing", req: redeem(daveToken, `{}`), status: 400, exact: `{"errors":[{"reason":"promo_code is required","field":"promo_code"}]}`},
		{name: "empty", req: redeem(daveToken, `{"promo_code":""}`), status: 400, exact: `{"errors":[{"reason":"Must be 1-32 characters","field":"promo_code"}]}`},
		{name: "too long", req: redeem(daveToken, `{"promo_code":"`+strings.Repeat("A", 33)+`"}`), status: 400, want: []string{"1-32"}},
		{name: "not a string", req: redeem(daveToken, `{"promo_code":10}`), status: 400, want: []string{"Must be a string"}},
		{name: "unknown", req: redeem(daveToken, `{"promo_code":"FREEMONEY"}`), status: 400, exact: `{"errors":[{"reason":"Invalid promo code","field":"promo_code"}]}`},
		{name: "expired", req: redeem(daveToken, `{"promo_code":"EXPIRED5"}`), status: 400,
			exact: `{"errors":[{"reason":"Promo code EXPIRED5 has expired","field":"promo_code"}]}`},
		{name: "the 20-day-old partner account, any case, read_only scope", req: redeem(readOnly, `{"promo_code":"pocket10"}`), status: 200,
			exact:  `{"credit_monthly_cap":"10.00","credit_remaining":"60.00","description":"Up to $10 off every month for 6 months; unused credit expires.","expire_dt":"2027-04-30T23:59:59","image_url":"","service_type":"all","summary":"$10 off your services a month","this_month_credit_remaining":"1.36"}`,
			header: map[string]string{"X-Accepted-OAuth-Scopes": "account:read_only"}},
		{name: "duplicate", req: redeem(daveToken, `{"promo_code":"POCKET10"}`), status: 400,
			exact: `{"errors":[{"reason":"This account already has an active promo credit"}]}`},
		{name: "another code while one is active", req: redeem(daveToken, `{"promo_code":"FORGE25"}`), status: 400, want: []string{"already has"}},
		{name: "the account shows it", req: req{path: "/v4/account", token: daveToken}, status: 200,
			want: []string{`"active_promotions":[{"credit_monthly_cap":"10.00","credit_remaining":"60.00"`}},
	})
}
