package cloudapi

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// billingAcct reads an account of the demo world straight from the store.
func billingAcct(t testing.TB, e *env, name string) cloudstore.Account {
	t.Helper()
	var acct cloudstore.Account
	if err := e.db.View(func(tx kv.Tx) (err error) { acct, err = cloudstore.AccountByName(tx, name); return err }); err != nil {
		t.Fatal(err)
	}
	return acct
}

// changeAcct changes an account of the demo world straight in the store.
func changeAcct(t testing.TB, e *env, name string, change func(*cloudstore.Account)) {
	t.Helper()
	err := e.db.Write(func(tx kv.Tx) error {
		acct, err := cloudstore.AccountByName(tx, name)
		if err != nil {
			return err
		}
		change(&acct)
		return cloudstore.PutAccount(tx, acct)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAccountRecord(t *testing.T) {
	e := newEnv(t, 0)
	e.runJobs() // the demo world's invoice history: autopaid, so the balance is 0
	readOnly := e.token(t, "demo", "account:read_only", nil)
	long := strings.Repeat("x", 65)
	e.run(t, []scenario{
		{name: "view", req: req{path: "/v4/account", token: demoToken}, status: 200,
			want: []string{`"active_promotions":[]`, `"active_since":"2026-07-25T12:00:00"`, `"address_1":"1 Forge Way"`, `"balance":0.00,`,
				`"billing_source":"akamai"`, `"capabilities":["Linodes","NodeBalancers","Block Storage","Object Storage","Managed Databases"]`,
				`"credit_card":{"last_four":"4242","expiry":"12/2028"}`, `"email":"billing@demo.pocketforge.test"`, `"country":"US"`,
				`"zip":"19102"`, `"tax_id":""`, `"euuid":"`},
			header: map[string]string{"X-Accepted-OAuth-Scopes": "account:read_only", "Content-Type": "application/json"}},
		{name: "view under v4beta", req: req{path: "/v4beta/account", token: demoToken}, status: 200, want: []string{`"billing_source":"akamai"`}},
		{name: "uninvoiced usage this month", req: req{path: "/v4/account", token: demoToken}, status: 200, not: []string{`"balance_uninvoiced":0.00`}},
		{name: "restricted user with read_only access may look", req: req{path: "/v4/account", token: carolToken}, status: 200},
		{name: "restricted user may not change", req: req{method: "PUT", path: "/v4/account", token: carolToken, body: `{"city":"X"}`}, status: 403},
		{name: "read_only scope may not change", req: req{method: "PUT", path: "/v4/account", token: readOnly, body: `{"city":"X"}`}, status: 403,
			header: map[string]string{"X-Accepted-OAuth-Scopes": "account:read_write"}},
		{name: "no token", req: req{path: "/v4/account"}, status: 401},
		{name: "partner sees its own", req: req{path: "/v4/account", token: daveToken}, status: 200,
			want: []string{`"country":"DE"`, `"credit_card":{"last_four":"4444","expiry":"11/2026"}`, `"tax_id":"DE123456789"`}},
		{name: "update one field", req: req{method: "PUT", path: "/v4/account", token: demoToken, body: `{"city":"Pittsburgh"}`}, status: 200,
			want: []string{`"city":"Pittsburgh"`, `"zip":"19102"`, `"first_name":"Dana"`, `"balance":0.00`}},
		{name: "update zip plus four", req: req{method: "PUT", path: "/v4/account", token: demoToken, body: `{"zip":"15201-1234"}`}, status: 200,
			want: []string{`"zip":"15201-1234"`}},
		{name: "bad US zip", req: req{method: "PUT", path: "/v4/account", token: demoToken, body: `{"zip":"ABCDE"}`}, status: 400,
			exact: `{"errors":[{"reason":"Must be a valid US zip code, like 19102 or 19102-1234","field":"zip"}]}`},
		{name: "US zip too short", req: req{method: "PUT", path: "/v4/account", token: demoToken, body: `{"zip":"1910"}`}, status: 400, want: []string{`"field":"zip"`}},
		{name: "moving to the US with a foreign zip", req: req{method: "PUT", path: "/v4/account", token: daveToken, body: `{"country":"US","zip":"EC1A 1BB"}`}, status: 400,
			want: []string{`"field":"zip"`}},
		{name: "moving to the US with a zip", req: req{method: "PUT", path: "/v4/account", token: daveToken, body: `{"country":"us","zip":"10115","state":"NY"}`}, status: 200,
			want: []string{`"country":"US"`, `"zip":"10115"`}},
		{name: "foreign zip with letters", req: req{method: "PUT", path: "/v4/account", token: daveToken, body: `{"country":"GB","zip":"SW1A 1AA","state":""}`}, status: 200,
			want: []string{`"zip":"SW1A 1AA"`}},
		{name: "foreign zip too long", req: req{method: "PUT", path: "/v4/account", token: daveToken, body: `{"zip":"1234567890"}`}, status: 400, want: []string{`"field":"zip"`}},
		{name: "country not alpha-2", req: req{method: "PUT", path: "/v4/account", token: demoToken, body: `{"country":"USA"}`}, status: 400,
			exact: `{"errors":[{"reason":"Must be a 2-letter ISO 3166-1 country code","field":"country"}]}`},
		{name: "US state not a code", req: req{method: "PUT", path: "/v4/account", token: demoToken, body: `{"state":"Pennsylvania"}`}, status: 400, want: []string{`"field":"state"`}},
		{name: "every problem at once", req: req{method: "PUT", path: "/v4/account", token: demoToken, body: `{"address_1":"` + long + `","email":"nope","phone":7,"zip":"x"}`},
			status: 400, want: []string{`"field":"address_1"`, `"field":"email"`, `{"reason":"Must be a string","field":"phone"}`, `"field":"zip"`}},
		{name: "nothing changed after a refusal", req: req{path: "/v4/account", token: demoToken}, status: 200,
			want: []string{`"zip":"15201-1234"`, `"email":"billing@demo.pocketforge.test"`}},
		{name: "update email", req: req{method: "PUT", path: "/v4/account", token: demoToken, body: `{"email":"money@demo.example.com"}`}, status: 200,
			want: []string{`"email":"money@demo.example.com"`}},
	})
	var actions []string
	demo := billingAcct(t, e, "demo").ID
	e.db.View(func(tx kv.Tx) error {
		evs, _ := cloudstore.AccountEvents(tx, demo)
		for _, ev := range evs {
			actions = append(actions, ev.Action)
		}
		return nil
	})
	if strings.Count(strings.Join(actions, " "), "account_update") != 3 {
		t.Fatalf("events %v: want 3 account_update", actions)
	}
	partner := billingAcct(t, e, "partner").ID
	e.db.Write(func(tx kv.Tx) error {
		pms, _ := cloudstore.ActivePaymentMethods(tx, partner)
		pms[0].Active = false
		return cloudstore.PutPaymentMethod(tx, pms[0])
	})
	e.run(t, []scenario{{name: "no card on file", req: req{path: "/v4/account", token: daveToken}, status: 200,
		want: []string{`"credit_card":{"last_four":null,"expiry":null}`}}})
}

func TestAccountCancel(t *testing.T) {
	e := newEnv(t, 0)
	e.runJobs()
	cases := []struct {
		name   string
		change func(*testing.T)
		status int
		want   string
	}{
		{"missing comments", nil, 400, `{"errors":[{"reason":"comments is required","field":"comments"}]}`},
		{"restricted user", nil, 403, ""},
		{"declining card", func(t *testing.T) { setDefaultCard(t, e, "Visa", "0002") }, 409,
			`{"errors":[{"reason":"We were unable to charge your credit card for services rendered. We cannot cancel this account until the balance has been paid."}]}`},
		{"expired card", func(t *testing.T) { setDefaultCard(t, e, "Visa", "4242"); expireCards(t, e, "demo") }, 409, "unable to charge"},
		{"success", func(t *testing.T) { setDefaultCard(t, e, "Visa", "1881") }, 200,
			`{"survey_link":"http://pocketforge.test/survey/cancel?account=` + billingAcct(t, e, "demo").Euuid + `"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.change != nil {
				c.change(t)
			}
			r := req{method: "POST", path: "/v4/account/cancel", token: demoToken, body: `{"comments":"moving on"}`}
			switch c.name {
			case "missing comments":
				r.body = `{}`
			case "restricted user":
				r.token = carolToken
			}
			got := e.do(t, r)
			if got.Status != c.status || !strings.Contains(got.Body, c.want) {
				t.Fatalf("%d %s; want %d %s", got.Status, got.Body, c.status, c.want)
			}
		})
	}
	acct := billingAcct(t, e, "demo")
	if acct.Cancelled == nil || acct.BalanceCents != 0 {
		t.Fatalf("after cancel: cancelled %v, balance %d", acct.Cancelled, acct.BalanceCents)
	}
	e.run(t, []scenario{
		{name: "the owner's token is dead", req: req{path: "/v4/account", token: demoToken}, status: 401},
		{name: "carol's token is dead", req: req{path: "/v4/account", token: carolToken}, status: 401},
		{name: "the other account is untouched", req: req{path: "/v4/account", token: daveToken}, status: 200},
		{name: "the survey page", req: req{path: "/survey/cancel?account=x"}, status: 200, want: []string{"cancelled"}},
	})
	// Its users cannot sign in again for a new token.
	r := e.do(t, req{method: "POST", path: "/oauth/authorize", header: form,
		body: url.Values{"client_id": {cliClient}, "username": {"demo"}, "password": {"demo-password"}, "decision": {"approve"}}.Encode()})
	if r.Status != 401 {
		t.Fatalf("a cancelled account's user signs in: %d", r.Status)
	}
	e.db.View(func(tx kv.Tx) error {
		invs, _ := cloudstore.AccountInvoices(tx, acct.ID)
		last := invs[len(invs)-1]
		if !last.Date.Equal(start) || !last.From.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("final invoice %+v: want this month up to now", last)
		}
		pays, _ := cloudstore.AccountPayments(tx, acct.ID)
		if p := pays[len(pays)-1]; p.USDCents != last.TotalCents || !p.Date.Equal(start) {
			t.Errorf("final charge %+v, want the final invoice's %d", p, last.TotalCents)
		}
		mails, _ := outbox.List(tx, "billing@demo.pocketforge.test", 0)
		if len(mails) == 0 || !strings.Contains(mails[0].Body, "moving on") {
			t.Errorf("cancellation mail: %+v", mails)
		}
		return nil
	})
}

// setDefaultCard adds a card of the given type and last four to the demo account and makes it
// the default, straight in the store (test cards are keyed on type and last four).
func setDefaultCard(t *testing.T, e *env, cardType, last4 string) {
	t.Helper()
	number := map[string]string{"0002": "4000000000000002", "3220": "4000000000003220", "4242": "4242424242424242", "1881": "4012888888881881"}[last4]
	err := e.db.Write(func(tx kv.Tx) error {
		acct, err := cloudstore.AccountByName(tx, "demo")
		if err != nil {
			return err
		}
		pms, _ := cloudstore.ActivePaymentMethods(tx, acct.ID)
		for _, pm := range pms {
			if pm.LastFour == last4 {
				return cloudstore.SetDefaultPaymentMethod(tx, pm)
			}
		}
		card := cloudstore.Card{Number: number, ExpiryMonth: 1, ExpiryYear: 2030, CVV: "123"}
		pm, err := cloudsvc.AddPaymentMethod(tx, acct, cloudstore.NewPaymentMethod{Card: card, IsDefault: true}, e.clock.Now())
		if err == nil && pm.CardType != cardType {
			t.Errorf("card %s is a %s", number, pm.CardType)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// expireCards backdates the expiry of every card of an account to last year.
func expireCards(t *testing.T, e *env, name string) {
	t.Helper()
	err := e.db.Write(func(tx kv.Tx) error {
		acct, err := cloudstore.AccountByName(tx, name)
		if err != nil {
			return err
		}
		pms, _ := cloudstore.ActivePaymentMethods(tx, acct.ID)
		for _, pm := range pms {
			pm.Expiry = "01/2025"
			if err := cloudstore.PutPaymentMethod(tx, pm); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
