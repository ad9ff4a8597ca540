package cloudapi

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// cardBody is a payment-method add body.
func cardBody(number string, month, year int, cvv string, isDefault bool) string {
	return fmt.Sprintf(`{"type":"credit_card","is_default":%t,"data":{"card_number":%q,"expiry_month":%d,"expiry_year":%d,"cvv":%q}}`,
		isDefault, number, month, year, cvv)
}

func TestPaymentMethods(t *testing.T) {
	e := newEnv(t, 0)
	add := func(body string) req {
		return req{method: "POST", path: "/v4/account/payment-methods", token: demoToken, body: body}
	}
	visa := cardBody("4111111111111111", 3, 2029, "123", false)
	e.run(t, []scenario{
		{name: "list", req: req{path: "/v4/account/payment-methods", token: demoToken}, status: 200,
			exact:  `{"data":[{"created":"2026-11-22T12:00:00","data":{"card_type":"Visa","expiry":"12/2028","last_four":"4242"},"id":1,"is_default":true,"type":"credit_card"}],"page":1,"pages":1,"results":1}`,
			header: map[string]string{"X-Accepted-OAuth-Scopes": "account:read_only"}},
		{name: "list under v4beta", req: req{path: "/v4beta/account/payment-methods", token: demoToken}, status: 200, want: []string{`"results":1`}},
		{name: "list not filterable", req: req{path: "/v4/account/payment-methods", token: demoToken, header: map[string]string{"X-Filter": `{"type":"x"}`}}, status: 400,
			want: []string{`"field":"X-Filter"`}},
		{name: "restricted user with read_only access may list", req: req{path: "/v4/account/payment-methods", token: carolToken}, status: 200},
		{name: "view", req: req{path: "/v4/account/payment-methods/1", token: demoToken}, status: 200, want: []string{`"id":1`, `"is_default":true`}},
		{name: "view is stable only", req: req{path: "/v4beta/account/payment-methods/1", token: demoToken}, status: 405},
		{name: "view another account's", req: req{path: "/v4/account/payment-methods/2", token: demoToken}, status: 404, exact: `{"errors":[{"reason":"Not found"}]}`},
		{name: "view missing", req: req{path: "/v4/account/payment-methods/999", token: demoToken}, status: 404},
		{name: "view non-numeric", req: req{path: "/v4/account/payment-methods/abc", token: demoToken}, status: 404},
		{name: "add", req: add(visa), status: 200, exact: `{}`},
		{name: "add is stable only", req: req{method: "POST", path: "/v4beta/account/payment-methods", token: demoToken, body: visa}, status: 405},
		{name: "make default is stable only", req: req{method: "POST", path: "/v4beta/account/payment-methods/1/make-default", token: demoToken}, status: 404},
		{name: "restricted user with read_only access may not add", req: req{method: "POST", path: "/v4/account/payment-methods", token: carolToken, body: visa}, status: 403},
		{name: "added, not default", req: req{path: "/v4/account/payment-methods", token: demoToken}, status: 200,
			want: []string{`"results":2`, `"card_type":"Visa","expiry":"03/2029","last_four":"1111"},"id":3,"is_default":false`}},
		{name: "add a default MasterCard", req: add(cardBody("5105105105105100", 12, 2030, "9876", true)), status: 200},
		{name: "default moved", req: req{path: "/v4/account/payment-methods/1", token: demoToken}, status: 200, want: []string{`"is_default":false`}},
		{name: "new default", req: req{path: "/v4/account/payment-methods/4", token: demoToken}, status: 200,
			want: []string{`"card_type":"MasterCard"`, `"last_four":"5100"`, `"is_default":true`}},
		{name: "account shows the default card", req: req{path: "/v4/account", token: demoToken}, status: 200,
			want: []string{`"credit_card":{"last_four":"5100","expiry":"12/2030"}`}},
		{name: "Luhn", req: add(cardBody("4111111111111112", 3, 2029, "123", false)), status: 400,
			exact: `{"errors":[{"reason":"Card number is not valid","field":"data.card_number"}]}`},
		{name: "too short", req: add(cardBody("4111111111111", 3, 2029, "123", false)), status: 400,
			exact: `{"errors":[{"reason":"Card number must be between 14 and 24 digits","field":"data.card_number"}]}`},
		{name: "too long", req: add(cardBody(strings.Repeat("4", 25), 3, 2029, "123", false)), status: 400, want: []string{"between 14 and 24"}},
		{name: "letters", req: add(cardBody("4111abcd11111111", 3, 2029, "123", false)), status: 400, want: []string{"only digits"}},
		{name: "expired", req: add(cardBody("4111111111111111", 10, 2026, "123", false)), status: 400,
			exact: `{"errors":[{"reason":"Card is expired","field":"data.expiry_year"}]}`},
		{name: "this month is not expired", req: add(cardBody("378282246310005", 11, 2026, "1234", false)), status: 200},
		{name: "month 13", req: add(cardBody("4111111111111111", 13, 2029, "123", false)), status: 400, want: []string{`"field":"data.expiry_month"`}},
		{name: "two-digit year", req: add(cardBody("4111111111111111", 3, 29, "123", false)), status: 400,
			exact: `{"errors":[{"reason":"Expiry year must be 4 digits","field":"data.expiry_year"}]}`},
		{name: "short cvv", req: add(cardBody("4111111111111111", 3, 2029, "12", false)), status: 400,
			exact: `{"errors":[{"reason":"CVV must be 3 or 4 digits","field":"data.cvv"}]}`},
		{name: "cvv letters", req: add(cardBody("4111111111111111", 3, 2029, "12a", false)), status: 400, want: []string{`"field":"data.cvv"`}},
		{name: "everything wrong at once", req: add(cardBody("1234", 0, 20, "1", false)), status: 400,
			want: []string{`"field":"data.card_number"`, `"field":"data.expiry_month"`, `"field":"data.expiry_year"`, `"field":"data.cvv"`}},
		{name: "nothing sent", req: add(`{}`), status: 400,
			exact: `{"errors":[{"reason":"type is required","field":"type"},{"reason":"is_default is required","field":"is_default"},{"reason":"data is required","field":"data"}]}`},
		{name: "empty card", req: add(`{"type":"credit_card","is_default":false,"data":{}}`), status: 400,
			want: []string{`{"reason":"data.card_number is required","field":"data.card_number"}`, `"field":"data.expiry_month"`, `"field":"data.expiry_year"`, `"field":"data.cvv"`}},
		{name: "wrong types", req: add(`{"type":"paypal","is_default":"yes","data":{"card_number":4111111111111111,"expiry_month":"3","expiry_year":2029,"cvv":"123"}}`), status: 400,
			want: []string{`{"reason":"Must be one of credit_card","field":"type"}`, `{"reason":"Must be a boolean","field":"is_default"}`,
				`{"reason":"Must be a string","field":"data.card_number"}`, `{"reason":"Must be an integer","field":"data.expiry_month"}`}},
		{name: "data not an object", req: add(`{"type":"credit_card","is_default":true,"data":"4111"}`), status: 400,
			exact: `{"errors":[{"reason":"Must be an object","field":"data"}]}`},
		{name: "add a fourth", req: add(cardBody("6011111111111117", 1, 2031, "123", false)), status: 200},
		{name: "add a fifth", req: add(cardBody("3530111333300000", 1, 2031, "123", false)), status: 200},
		{name: "the seventh is refused", req: add(visa), status: 400,
			exact: `{"errors":[{"reason":"An account may have at most 6 active payment methods"}]}`},
		{name: "card types", req: req{path: "/v4/account/payment-methods", token: demoToken}, status: 200,
			want: []string{`"results":6`, `"American Express"`, `"Discover"`, `"JCB"`}},
		{name: "delete the default", req: req{method: "DELETE", path: "/v4/account/payment-methods/4", token: demoToken}, status: 400,
			exact: `{"errors":[{"reason":"You cannot delete your default payment method; make another method the default first"}]}`},
		{name: "restricted user with read_only access may not delete", req: req{method: "DELETE", path: "/v4/account/payment-methods/3", token: carolToken}, status: 403,
			header: map[string]string{"X-Accepted-OAuth-Scopes": "account:read_only"}},
		{name: "delete", req: req{method: "DELETE", path: "/v4/account/payment-methods/3", token: demoToken}, status: 200, exact: `{}`},
		{name: "deleted is gone", req: req{path: "/v4/account/payment-methods/3", token: demoToken}, status: 404},
		{name: "delete again", req: req{method: "DELETE", path: "/v4/account/payment-methods/3", token: demoToken}, status: 404},
		{name: "a seventh fits after a delete", req: add(visa), status: 200},
		{name: "delete another account's", req: req{method: "DELETE", path: "/v4/account/payment-methods/2", token: demoToken}, status: 404},
		{name: "make default", req: req{method: "POST", path: "/v4/account/payment-methods/1/make-default", token: demoToken}, status: 200, exact: `{}`},
		{name: "made default", req: req{path: "/v4/account/payment-methods/1", token: demoToken}, status: 200, want: []string{`"is_default":true`}},
		{name: "linodego's make-default path", req: req{method: "POST", path: "/v4/account/payment-methods/4", token: demoToken}, status: 200, exact: `{}`},
		{name: "made default by linodego's path", req: req{path: "/v4/account/payment-methods/1", token: demoToken}, status: 200, want: []string{`"is_default":false`}},
		{name: "make another account's default", req: req{method: "POST", path: "/v4/account/payment-methods/2/make-default", token: demoToken}, status: 404},
		{name: "make a deleted one default", req: req{method: "POST", path: "/v4/account/payment-methods/3", token: demoToken}, status: 404},
		{name: "restricted user may not make default", req: req{method: "POST", path: "/v4/account/payment-methods/1", token: carolToken}, status: 403},
	})
	var adds int
	demo := billingAcct(t, e, "demo").ID
	e.db.View(func(tx kv.Tx) error {
		evs, _ := cloudstore.AccountEvents(tx, demo)
		for _, ev := range evs {
			if ev.Action == "payment_method_add" {
				adds++
			}
		}
		return nil
	})
	if adds != 6 {
		t.Fatalf("%d payment_method_add events, want 6", adds)
	}
}

func TestPaymentMethodRules(t *testing.T) {
	e := newEnv(t, 0)
	add := req{method: "POST", path: "/v4/account/payment-methods", token: demoToken, body: cardBody("4111111111111111", 3, 2029, "123", false)}
	// The fixture card counts as today's first addition; 59 more fit in 24 hours.
	for i := 0; i < 59; i++ {
		if got := e.do(t, add); got.Status != 200 {
			t.Fatalf("addition %d: %d %s", i+2, got.Status, got.Body)
		}
		if got := e.do(t, req{method: "DELETE", path: fmt.Sprintf("/v4/account/payment-methods/%d", i+3), token: demoToken}); got.Status != 200 {
			t.Fatalf("delete %d: %d %s", i+3, got.Status, got.Body)
		}
	}
	e.run(t, []scenario{
		{name: "the 61st addition in a day", req: add, status: 400, exact: `{"errors":[{"reason":"An account may add at most 60 payment methods per day"}]}`},
	})
	e.clock.Advance(24 * time.Hour)
	e.run(t, []scenario{{name: "a day later", req: add, status: 200}})

	changeAcct(t, e, "demo", func(a *cloudstore.Account) { a.Zip = "ABC" })
	e.run(t, []scenario{
		{name: "a US account with a bad zip", req: add, status: 400,
			exact: `{"errors":[{"reason":"A valid billing zip code is required before adding a payment method: Must be a valid US zip code, like 19102 or 19102-1234","field":"zip"}]}`},
		{name: "with a bad card too", req: req{method: "POST", path: "/v4/account/payment-methods", token: demoToken, body: cardBody("4111111111111112", 3, 2029, "123", false)},
			status: 400, want: []string{`"field":"zip"`, `"field":"data.card_number"`}},
	})
	changeAcct(t, e, "demo", func(a *cloudstore.Account) { a.Zip = "19102" })
	e.run(t, []scenario{{name: "zip fixed", req: add, status: 200}})
}

func TestDeprecatedCreditCard(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{
		{name: "add", req: req{method: "POST", path: "/v4/account/credit-card", token: demoToken,
			body: `{"card_number":"5555555555554444","expiry_month":6,"expiry_year":2030,"cvv":"321"}`}, status: StatusDeprecated,
			exact: `{"warnings":[{"details":"This endpoint is deprecated and may be removed; see the API changelog for its replacement.","title":"Deprecated endpoint"}]}`},
		{name: "it is the default", req: req{path: "/v4/account", token: demoToken}, status: 200,
			want: []string{`"credit_card":{"last_four":"4444","expiry":"06/2030"}`}},
		{name: "the old one stays, not default", req: req{path: "/v4/account/payment-methods/1", token: demoToken}, status: 200, want: []string{`"is_default":false`}},
		{name: "under v4beta too", req: req{method: "POST", path: "/v4beta/account/credit-card", token: demoToken,
			body: `{"card_number":"4242424242424242","expiry_month":6,"expiry_year":2030,"cvv":"321"}`}, status: StatusDeprecated},
		{name: "bad card", req: req{method: "POST", path: "/v4/account/credit-card", token: demoToken,
			body: `{"card_number":"5555555555554445","expiry_month":6,"expiry_year":2030}`}, status: 400,
			exact: `{"errors":[{"reason":"cvv is required","field":"cvv"},{"reason":"Card number is not valid","field":"card_number"}]}`},
		{name: "restricted user", req: req{method: "POST", path: "/v4/account/credit-card", token: carolToken, body: `{}`}, status: 403},
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
	if got := strings.Count(strings.Join(actions, " "), "credit_card_updated"); got != 2 {
		t.Fatalf("events %v: want 2 credit_card_updated", actions)
	}
}
