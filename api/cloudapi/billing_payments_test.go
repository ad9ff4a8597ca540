package cloudapi

import (
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

func TestPayments(t *testing.T) {
	e := newEnv(t, 0)
	e.runJobs() // three months of history, each invoice autopaid: payments 1–3
	pay := func(body string) req {
		return req{method: "POST", path: "/v4/account/payments", token: demoToken, body: body}
	}
	e.run(t, []scenario{
		{name: "list the autopayments", req: req{path: "/v4/account/payments", token: demoToken}, status: 200,
			want: []string{`"results":3`, `{"id":1,"date":"2026-09-01T00:00:00","usd":`}},
		{name: "pay a string amount", req: pay(`{"usd":"120.50"}`), status: 200, exact: `{"id":4,"date":"2026-11-22T12:00:00","usd":120.50}`},
		{name: "pay a number (linodego)", req: pay(`{"usd":120.5}`), status: 200, want: []string{`"usd":120.50}`}},
		{name: "pay with a dollar sign", req: pay(`{"usd":"$20.00","cvv":"123"}`), status: 200, want: []string{`"usd":20.00}`}},
		{name: "pay a whole number", req: pay(`{"usd":20}`), status: 200, want: []string{`"usd":20.00}`}},
		{name: "pay the minimum", req: pay(`{"usd":"5.00"}`), status: 200},
		{name: "pay the maximum", req: pay(`{"usd":"2000.00","payment_method_id":1}`), status: 200},
		{name: "a string needs two decimals", req: pay(`{"usd":"20"}`), status: 400,
			exact: `{"errors":[{"reason":"Must be a dollar amount with two decimals, like 120.50","field":"usd"}]}`},
		{name: "negative string", req: pay(`{"usd":"-5.00"}`), status: 400, want: []string{`"field":"usd"`}},
		{name: "negative number", req: pay(`{"usd":-5}`), status: 400,
			exact: `{"errors":[{"reason":"Must be a positive dollar amount with at most two decimals, like 120.50","field":"usd"}]}`},
		{name: "zero", req: pay(`{"usd":"0.00"}`), status: 400, exact: `{"errors":[{"reason":"Must be more than $0.00","field":"usd"}]}`},
		{name: "zero number", req: pay(`{"usd":0}`), status: 400, want: []string{"more than $0.00"}},
		{name: "three decimals", req: pay(`{"usd":"10.505"}`), status: 400, want: []string{`"field":"usd"`}},
		{name: "three decimals number", req: pay(`{"usd":10.505}`), status: 400, want: []string{`"field":"usd"`}},
		{name: "not a number", req: pay(`{"usd":"abc"}`), status: 400, want: []string{`"field":"usd"`}},
		{name: "exponent", req: pay(`{"usd":1e9}`), status: 400, want: []string{`"field":"usd"`}},
		{name: "huge", req: pay(`{"usd":"1000000000.00"}`), status: 400, want: []string{`"field":"usd"`}},
		{name: "boolean", req: pay(`{"usd":true}`), status: 400, want: []string{`"field":"usd"`}},
		{name: "below the minimum", req: pay(`{"usd":"4.99"}`), status: 400, exact: `{"errors":[{"reason":"Must be at least $5.00","field":"usd"}]}`},
		{name: "above the maximum", req: pay(`{"usd":"2000.01"}`), status: 400, exact: `{"errors":[{"reason":"Must be at most $2000.00","field":"usd"}]}`},
		{name: "missing amount", req: pay(`{}`), status: 400, exact: `{"errors":[{"reason":"usd is required","field":"usd"}]}`},
		{name: "bad cvv", req: pay(`{"usd":"10.00","cvv":"12"}`), status: 400, exact: `{"errors":[{"reason":"CVV must be 3 or 4 digits","field":"cvv"}]}`},
		{name: "several problems", req: pay(`{"usd":"1","cvv":7,"payment_method_id":"x"}`), status: 400,
			want: []string{`"field":"usd"`, `{"reason":"Must be a string","field":"cvv"}`, `{"reason":"Must be an integer","field":"payment_method_id"}`}},
		{name: "another account's method", req: pay(`{"usd":"10.00","payment_method_id":2}`), status: 400,
			exact: `{"errors":[{"reason":"Payment method not found","field":"payment_method_id"}]}`},
		{name: "add the declining test card", req: req{method: "POST", path: "/v4/account/payment-methods", token: demoToken,
			body: cardBody("4000000000000002", 1, 2030, "123", false)}, status: 200},
		{name: "declined", req: pay(`{"usd":"10.00","payment_method_id":3}`), status: 400, exact: `{"errors":[{"reason":"Card declined"}]}`},
		{name: "add the verification test card", req: req{method: "POST", path: "/v4/account/payment-methods", token: demoToken,
			body: cardBody("4000000000003220", 1, 2030, "123", true)}, status: 200},
		{name: "needs verification", req: pay(`{"usd":"10.00"}`), status: 202,
			exact: `{"date":"2026-11-22T12:00:00","id":10,"usd":10.00,"warnings":[{"details":"Payment requires additional verification; it will complete shortly.","title":"Payment pending"}]}`},
		{name: "restricted user with read_only access may not pay", req: req{method: "POST", path: "/v4/account/payments", token: carolToken, body: `{"usd":"10.00"}`}, status: 403},
		{name: "restricted user with read_only access may look", req: req{path: "/v4/account/payments", token: carolToken}, status: 200, want: []string{`"results":10`}},
		{name: "view", req: req{path: "/v4/account/payments/4", token: demoToken}, status: 200, exact: `{"id":4,"date":"2026-11-22T12:00:00","usd":120.50}`},
		{name: "view under v4beta", req: req{path: "/v4beta/account/payments/4", token: demoToken}, status: 200},
		{name: "view missing", req: req{path: "/v4/account/payments/-1", token: demoToken}, status: 404, exact: `{"errors":[{"reason":"Not found"}]}`},
		{name: "view another account's", req: req{path: "/v4/account/payments/4", token: daveToken}, status: 404},
		{name: "partner without a balance or invoices", req: req{path: "/v4/account/payments", token: daveToken}, status: 200,
			exact: `{"data":[],"page":1,"pages":1,"results":0}`},
		{name: "partner pays with a card expiring this month", req: req{method: "POST", path: "/v4/account/payments", token: daveToken, body: `{"usd":"5.00"}`}, status: 200},
	})
	acct := billingAcct(t, e, "demo")
	if want := -int64(12050 + 12050 + 2000 + 2000 + 500 + 200000 + 1000); acct.BalanceCents != want {
		t.Fatalf("balance %d, want %d", acct.BalanceCents, want)
	}
	var submitted int
	e.db.View(func(tx kv.Tx) error {
		evs, _ := cloudstore.AccountEvents(tx, acct.ID)
		for _, ev := range evs {
			if ev.Action == "payment_submitted" {
				submitted++
			}
		}
		return nil
	})
	if submitted != 7 {
		t.Fatalf("%d payment_submitted events, want 7", submitted)
	}
	e.clock.Set(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	e.run(t, []scenario{
		{name: "the partner's card has expired", req: req{method: "POST", path: "/v4/account/payments", token: daveToken, body: `{"usd":"5.00"}`}, status: 400,
			exact: `{"errors":[{"reason":"The payment method has expired"}]}`},
	})
}

// TestConcurrentPayments proves a payment reads the balance in its own write: with a balance
// that allows one payment of its size, eight at once charge it exactly once; payments that all
// fit all go through, and the balance is exactly their sum.
func TestConcurrentPayments(t *testing.T) {
	cases := []struct {
		name        string
		balance     int64
		body        string
		wantOK      int
		wantBalance int64
	}{
		{"a balance that allows one", 300000, `{"usd":"3000.00"}`, 1, 0},
		{"payments that all fit", 0, `{"usd":"100.00"}`, 8, -80000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, 0)
			changeAcct(t, e, "demo", func(a *cloudstore.Account) { a.BalanceCents = c.balance })
			statuses := make(chan int, 8)
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := httptest.NewRequest("POST", "/v4/account/payments", strings.NewReader(c.body))
					r.Header.Set("Authorization", "Bearer "+demoToken)
					r.Header.Set("Content-Type", "application/json")
					resp, err := e.app.Test(r, -1)
					if err != nil {
						t.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					statuses <- resp.StatusCode
				}()
			}
			wg.Wait()
			close(statuses)
			ok := 0
			for s := range statuses {
				if s == 200 {
					ok++
				} else if s != 400 {
					t.Errorf("status %d", s)
				}
			}
			var pays []cloudstore.Payment
			acct := billingAcct(t, e, "demo")
			e.db.View(func(tx kv.Tx) (err error) { pays, err = cloudstore.AccountPayments(tx, acct.ID); return err })
			if ok != c.wantOK || len(pays) != c.wantOK || acct.BalanceCents != c.wantBalance {
				t.Fatalf("%d succeeded, %d payments, balance %d; want %d, %d, %d", ok, len(pays), acct.BalanceCents, c.wantOK, c.wantOK, c.wantBalance)
			}
		})
	}
}

func TestWalletPayments(t *testing.T) {
	e := newEnv(t, 0)
	stage := func(body string) req {
		return req{method: "POST", path: "/v4/account/payments/wallet", token: demoToken, body: body}
	}
	disabled := `{"warnings":[{"details":"This endpoint is deprecated and may be removed; see the API changelog for its replacement.","title":"Deprecated endpoint"},` +
		`{"details":"Wallet payments can no longer be made; nothing was charged. Use POST /v4/account/payments with a payment method instead.","title":"Wallet payments are disabled"}]}`
	e.run(t, []scenario{
		{name: "stage", req: stage(`{"usd":"50.00","redirect_url":"https://shop.example.com/ok","cancel_url":"https://shop.example.com/cancel"}`),
			status: StatusDeprecated, exact: disabled, header: map[string]string{"Content-Type": "application/json"}},
		{name: "stage missing fields", req: stage(`{}`), status: 400,
			want: []string{`"field":"usd"`, `"field":"redirect_url"`, `"field":"cancel_url"`}},
		{name: "stage too much", req: stage(`{"usd":"600.00","redirect_url":"https://a.example.com","cancel_url":"https://a.example.com"}`), status: 400,
			exact: `{"errors":[{"reason":"Must be between $5.00 and $500.00","field":"usd"}]}`},
		{name: "stage bad urls", req: stage(`{"usd":"50.00","redirect_url":"nope","cancel_url":"ftp://x"}`), status: 400,
			want: []string{`"field":"redirect_url"`, `"field":"cancel_url"`}},
		{name: "execute", req: req{method: "POST", path: "/v4/account/payments/wallet/execute", token: demoToken, body: `{"payment_id":"PAY-1","payer_id":"P-1"}`},
			status: StatusDeprecated, exact: disabled},
		{name: "execute missing fields", req: req{method: "POST", path: "/v4/account/payments/wallet/execute", token: demoToken, body: `{"payer_id":5}`},
			status: 400, want: []string{`{"reason":"payment_id is required","field":"payment_id"}`, `{"reason":"Must be a string","field":"payer_id"}`}},
		{name: "restricted user", req: req{method: "POST", path: "/v4/account/payments/wallet", token: carolToken, body: `{}`}, status: 403},
		{name: "no money moved", req: req{path: "/v4/account/payments", token: demoToken}, status: 200, want: []string{`"results":0`}},
	})
}
