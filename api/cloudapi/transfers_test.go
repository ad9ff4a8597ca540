package cloudapi

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

const (
	serviceTransfersPath = "/v4/account/service-transfers"
	transferDemoMail     = "billing@demo.pocketforge.test"
	transferPartnerMail  = "billing@partner.pocketforge.test"
)

// serviceTransferWorld readies the demo world for transfers: the partner gets a card of its own (so the
// test does not depend on the billing fixtures) and the instance ids are looked up by label.
func serviceTransferWorld(t *testing.T, e *env) map[string]uint64 {
	t.Helper()
	ids := map[string]uint64{}
	err := e.db.Write(func(tx kv.Tx) error {
		for _, name := range []string{"demo", "partner"} {
			acct, err := cloudstore.AccountByName(tx, name)
			if err != nil {
				return err
			}
			list, err := cloudstore.AccountInstances(tx, acct.ID)
			for _, in := range list {
				ids[in.Label] = in.ID
			}
			if err != nil || name == "demo" {
				continue
			}
			id, err := store.NextID(tx, store.CloudPaymentMethods)
			pm := cloudstore.PaymentMethod{ID: id, AccountID: acct.ID, Type: "credit_card", Created: start, CardType: "Visa", LastFour: "1881", Expiry: "12/2099", Active: true}
			if err := store.Put(tx, store.CloudPaymentMethods, store.Itob(id), pm); err != nil {
				return err
			}
			if err := store.IndexAdd(tx, store.CloudAccountPaymentMethods, store.Itob(acct.ID), store.Itob(id)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// transferBody is a create body listing the instances.
func transferBody(ids ...uint64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return `{"entities":{"instances":[` + strings.Join(s, ",") + `]}}`
}

// createTransfer creates a transfer as the demo owner and returns its token.
func (e *env) createTransfer(t *testing.T, path string, ids ...uint64) string {
	t.Helper()
	r := e.do(t, req{method: "POST", path: path, token: demoToken, body: transferBody(ids...)})
	var v struct{ Token string }
	decode(t, r.Body, &v)
	if r.Status/100 != 2 || len(v.Token) != 36 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	return v.Token
}

// serviceTransferEvents lists the account's entity_transfer_* events as "action url".
func serviceTransferEvents(tx kv.Tx, name string) []string {
	acct, _ := cloudstore.AccountByName(tx, name)
	events, _ := cloudstore.AccountEvents(tx, acct.ID)
	var out []string
	for _, ev := range events {
		if strings.HasPrefix(ev.Action, "entity_transfer_") {
			out = append(out, ev.Action+" "+ev.Entity.URL)
		}
	}
	return out
}

func TestTransferCreateAndAuthorization(t *testing.T) {
	e := newEnv(t, 0)
	id := serviceTransferWorld(t, e)
	readOnly := e.token(t, "demo", "account:read_only", nil)
	post := func(body string) req {
		return req{method: "POST", path: serviceTransfersPath, token: demoToken, body: body}
	}
	e.run(t, []scenario{
		{name: "no token", req: req{path: serviceTransfersPath}, status: 401},
		{name: "restricted user may not list", req: req{path: serviceTransfersPath, token: carolToken}, status: 403},
		{name: "restricted user may not create", req: req{method: "POST", path: serviceTransfersPath, token: carolToken, body: transferBody(id["worker-1"])}, status: 403},
		{name: "read-only scope may list", req: req{path: serviceTransfersPath, token: readOnly}, status: 200,
			exact: `{"data":[],"page":1,"pages":1,"results":0}`, header: map[string]string{"X-Accepted-OAuth-Scopes": "account:read_only"}},
		{name: "read-only scope may not create", req: req{method: "POST", path: serviceTransfersPath, token: readOnly, body: transferBody(id["worker-1"])}, status: 403},
		{name: "not JSON", req: post(`{"entities":`), status: 400, want: []string{"Malformed JSON"}},
		{name: "not an object", req: post(`[1]`), status: 400, want: []string{"JSON object"}},
		{name: "entities missing", req: post(`{}`), status: 400, exact: `{"errors":[{"reason":"entities is required","field":"entities"}]}`},
		{name: "entities null", req: post(`{"entities":null}`), status: 400, want: []string{`"field":"entities"`}},
		{name: "entities not an object", req: post(`{"entities":[3]}`), status: 400, exact: `{"errors":[{"reason":"Must be an object","field":"entities"}]}`},
		{name: "instances missing", req: post(`{"entities":{"volumes":[3]}}`), status: 400,
			exact: `{"errors":[{"reason":"entities.instances is required","field":"entities.instances"}]}`},
		{name: "instances not a list", req: post(`{"entities":{"instances":3}}`), status: 400,
			exact: `{"errors":[{"reason":"Must be a list of instance ids","field":"entities.instances"}]}`},
		{name: "instances empty", req: post(`{"entities":{"instances":[]}}`), status: 400,
			exact: `{"errors":[{"reason":"List at least one instance to transfer","field":"entities.instances"}]}`},
		{name: "strings instead of ids", req: post(`{"entities":{"instances":["3",-1,` + fmt.Sprint(id["web-1"]) + `]}}`), status: 400, exact: `{"errors":[` +
			`{"reason":"Must be an instance id","field":"entities.instances[0]"},{"reason":"Must be an instance id","field":"entities.instances[1]"},` +
			`{"reason":"Instance 1 (web-1) is assigned to a balancer and a firewall","field":"entities.instances[2]"}]}`},
		{name: "another account's instance", req: post(transferBody(id["partner-app-1"])), status: 400,
			exact: `{"errors":[{"reason":"Instance 6 was not found on this account","field":"entities.instances[0]"}]}`},
		{name: "unknown instance", req: post(transferBody(999)), status: 400, want: []string{"Instance 999 was not found", `"field":"entities.instances[0]"`}},
		{name: "rules 5 to 8 at once", req: post(transferBody(id["web-1"], id["web-2"], id["edge-1"])), status: 400, exact: `{"errors":[` +
			`{"reason":"Instance 1 (web-1) is assigned to a balancer and a firewall","field":"entities.instances[0]"},` +
			`{"reason":"Instance 2 (web-2) has an attached block storage volume","field":"entities.instances[1]"},` +
			`{"reason":"Instance 5 (edge-1) has shared IP addresses","field":"entities.instances[2]"},` +
			`{"reason":"Instance 5 (edge-1) has the IPv6 range 2600:3c00:e000:100::/56 assigned","field":"entities.instances[2]"}]}`},
		{name: "create", req: post(transferBody(id["worker-1"])), status: 200, want: []string{
			`"status":"pending","created":"2026-11-22T12:00:00","updated":"2026-11-22T12:00:00","is_sender":true,"expiry":"2026-11-23T12:00:00","entities":{"instances":[3]}}`}},
		{name: "the same instance again", req: post(transferBody(id["batch-1"], id["worker-1"])), status: 400,
			exact: `{"errors":[{"reason":"Instance 3 (worker-1) is already in a pending transfer","field":"entities.instances[1]"}]}`},
		{name: "nor through the entity transfers", req: req{method: "POST", path: "/v4/account/entity-transfers", token: demoToken, body: transferBody(id["worker-1"])},
			status: 400, want: []string{"already in a pending transfer"}},
	})
	e.db.View(func(tx kv.Tx) error {
		mails, _ := outbox.List(tx, transferDemoMail, 0)
		if len(mails) != 1 || !strings.Contains(mails[0].Subject, "created") {
			t.Errorf("mails %+v", mails)
		}
		if got := serviceTransferEvents(tx, "demo"); len(got) != 1 || !strings.HasPrefix(got[0], "entity_transfer_create /v4/account/service-transfers/") {
			t.Errorf("events %v", got)
		}
		return nil
	})
}

// TestTransferAfterManagedEnable: enabling the managed service for the account assigns no
// instance to it, so a free instance can still be offered; an instance the account put under
// the service (its managed attachment) cannot, before or after.
func TestTransferAfterManagedEnable(t *testing.T) {
	e := newEnv(t, 0)
	id := serviceTransferWorld(t, e)
	err := e.db.Write(func(tx kv.Tx) error {
		in, err := cloudstore.GetInstance(tx, id["batch-1"])
		if err != nil {
			return err
		}
		in.Attached.Managed = true
		return cloudstore.PutInstance(tx, in)
	})
	if err != nil {
		t.Fatal(err)
	}
	e.run(t, []scenario{
		{name: "managed-enable", req: req{method: "POST", path: "/v4/account/settings/managed-enable", token: demoToken}, status: 200, exact: `{}`},
		{name: "a managed instance stays", req: req{method: "POST", path: serviceTransfersPath, token: demoToken, body: transferBody(id["batch-1"])}, status: 400,
			exact: `{"errors":[{"reason":"Instance 4 (batch-1) is assigned to the managed service","field":"entities.instances[0]"}]}`},
		{name: "another instance moves", req: req{method: "POST", path: serviceTransfersPath, token: demoToken, body: transferBody(id["worker-1"])}, status: 200,
			want: []string{`"status":"pending"`, `"entities":{"instances":[3]}`}},
	})
}

// TestTransferFlow: demo offers worker-1, partner's dave accepts, and after the completion delay
// the instance is partner's; every step as the accounts see it.
func TestTransferFlow(t *testing.T) {
	e := newEnv(t, 0)
	id := serviceTransferWorld(t, e)
	tok := e.createTransfer(t, serviceTransfersPath, id["worker-1"])
	cancelled := e.createTransfer(t, serviceTransfersPath, id["batch-1"])
	one := serviceTransfersPath + "/" + tok
	e.run(t, []scenario{
		{name: "the creator sees it", req: req{path: one, token: demoToken}, status: 200, want: []string{`"token":"` + tok + `","status":"pending"`, `"is_sender":true`}},
		{name: "any account sees a pending one", req: req{path: one, token: daveToken}, status: 200, want: []string{`"is_sender":false`}},
		{name: "by upper-case token, under v4beta", req: req{path: "/v4beta/account/service-transfers/" + strings.ToUpper(tok), token: daveToken}, status: 200},
		{name: "restricted user", req: req{path: one, token: carolToken}, status: 403},
		{name: "unknown token", req: req{path: serviceTransfersPath + "/00000000-0000-4000-8000-000000000000", token: demoToken}, status: 404, exact: `{"errors":[{"reason":"Not found"}]}`},
		{name: "not a token", req: req{path: serviceTransfersPath + "/nope", token: demoToken}, status: 404},
		{name: "list of the creator", req: req{path: serviceTransfersPath, token: demoToken}, status: 200, want: []string{`"results":2`}},
		{name: "filter is_sender", req: req{path: serviceTransfersPath, token: demoToken, header: map[string]string{"X-Filter": `{"is_sender":false}`}}, status: 200, want: []string{`"results":0`}},
		{name: "filter status", req: req{path: serviceTransfersPath, token: demoToken, header: map[string]string{"X-Filter": `{"status":"pending"}`}}, status: 200, want: []string{`"results":2`}},
		{name: "not filterable", req: req{path: serviceTransfersPath, token: demoToken, header: map[string]string{"X-Filter": `{"token":"x"}`}}, status: 400},
		{name: "a bystander's list", req: req{path: serviceTransfersPath, token: daveToken}, status: 200, want: []string{`"results":0`}},
		{name: "another account cannot cancel", req: req{method: "DELETE", path: one, token: daveToken}, status: 403,
			exact: `{"errors":[{"reason":"Only the account that created this transfer can cancel it"}]}`},
		{name: "the creator cannot accept", req: req{method: "POST", path: one + "/accept", token: demoToken}, status: 400,
			exact: `{"errors":[{"reason":"Users of the account that created this transfer cannot accept it"}]}`},
		{name: "restricted user cannot accept", req: req{method: "POST", path: one + "/accept", token: carolToken}, status: 403},
		{name: "cancel", req: req{method: "DELETE", path: serviceTransfersPath + "/" + cancelled, token: demoToken}, status: 200, exact: `{}`},
		{name: "cancelled again", req: req{method: "DELETE", path: serviceTransfersPath + "/" + cancelled, token: demoToken}, status: 400,
			exact: `{"errors":[{"reason":"This transfer is already cancelled"}]}`},
		{name: "cancelled, the creator sees it", req: req{path: serviceTransfersPath + "/" + cancelled, token: demoToken}, status: 200, want: []string{`"status":"cancelled"`}},
		{name: "cancelled, hidden from others", req: req{path: serviceTransfersPath + "/" + cancelled, token: daveToken}, status: 404},
		{name: "cancelled cannot be accepted", req: req{method: "POST", path: serviceTransfersPath + "/" + cancelled + "/accept", token: daveToken}, status: 404},
		{name: "accept", req: req{method: "POST", path: one + "/accept", token: daveToken}, status: 200, exact: `{}`},
		{name: "accepted twice", req: req{method: "POST", path: one + "/accept", token: daveToken}, status: 400,
			exact: `{"errors":[{"reason":"This transfer has already been accepted"}]}`},
		{name: "the receiver sees it", req: req{path: one, token: daveToken}, status: 200, want: []string{`"status":"accepted"`, `"is_sender":false`}},
		{name: "the receiver's list", req: req{path: serviceTransfersPath, token: daveToken}, status: 200, want: []string{`"results":1`, tok}},
		{name: "accepted cannot be cancelled", req: req{method: "DELETE", path: one, token: demoToken}, status: 400,
			exact: `{"errors":[{"reason":"Accepted transfers cannot be cancelled"}]}`},
		{name: "not offered again before completion", req: req{method: "POST", path: serviceTransfersPath, token: demoToken, body: transferBody(id["worker-1"])}, status: 400,
			want: []string{"already in an accepted transfer that has not completed"}},
	})
	owner := func() (demo, partner int, acct uint64) {
		e.db.View(func(tx kv.Tx) error {
			d, _ := cloudstore.AccountByName(tx, "demo")
			p, _ := cloudstore.AccountByName(tx, "partner")
			mine, _ := cloudstore.AccountInstances(tx, d.ID)
			theirs, _ := cloudstore.AccountInstances(tx, p.ID)
			in, _ := cloudstore.GetInstance(tx, id["worker-1"])
			demo, partner, acct = len(mine), len(theirs), in.AccountID
			return nil
		})
		return
	}
	e.clock.Advance(DefaultTransferDelay - time.Second)
	e.runJobs()
	if d, p, _ := owner(); d != 5 || p != 1 {
		t.Fatalf("moved before the delay: demo %d, partner %d", d, p)
	}
	e.clock.Advance(2 * time.Second)
	e.runJobs()
	if d, p, acct := owner(); d != 4 || p != 2 || acct != 2 {
		t.Fatalf("after completion: demo %d, partner %d, worker-1 owned by %d", d, p, acct)
	}
	e.run(t, []scenario{
		{name: "completed transfers stay accepted", req: req{path: one, token: daveToken}, status: 200, want: []string{`"status":"accepted"`}},
		{name: "dave's users unaffected", req: req{path: "/v4/account/users", token: daveToken}, status: 200, want: []string{`"results":1`, `"username":"dave"`}},
	})
	e.db.View(func(tx kv.Tx) error {
		url := "/v4/account/service-transfers/"
		want := []string{"entity_transfer_create " + url + tok, "entity_transfer_create " + url + cancelled,
			"entity_transfer_cancel " + url + cancelled, "entity_transfer_accept " + url + tok}
		if got := serviceTransferEvents(tx, "demo"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("demo events %v", got)
		}
		if got := serviceTransferEvents(tx, "partner"); len(got) != 1 || got[0] != "entity_transfer_accept "+url+tok {
			t.Errorf("partner events %v", got)
		}
		for addr, n := range map[string]int{transferDemoMail: 4, transferPartnerMail: 1} { // created ×2, cancelled, accepted; accepted
			if mails, _ := outbox.List(tx, addr, 0); len(mails) != n {
				t.Errorf("%s got %d mails", addr, len(mails))
			}
		}
		return nil
	})
}

// TestTransferExpiryOverHTTP: 24 hours on, a pending transfer reads as expired at once (before
// the job runs), only its creator sees it, and it can be neither cancelled nor accepted.
func TestTransferExpiryOverHTTP(t *testing.T) {
	e := newEnv(t, 0)
	id := serviceTransferWorld(t, e)
	one := serviceTransfersPath + "/" + e.createTransfer(t, serviceTransfersPath, id["worker-1"])
	e.clock.Advance(24 * time.Hour)
	e.run(t, []scenario{
		{name: "expired", req: req{path: one, token: demoToken}, status: 200, want: []string{`"status":"expired","created":"2026-11-22T12:00:00","updated":"2026-11-23T12:00:00"`}},
		{name: "hidden from others", req: req{path: one, token: daveToken}, status: 404},
		{name: "cannot be accepted", req: req{method: "POST", path: one + "/accept", token: daveToken}, status: 404},
		{name: "cannot be cancelled", req: req{method: "DELETE", path: one, token: demoToken}, status: 400, exact: `{"errors":[{"reason":"Expired transfers cannot be cancelled"}]}`},
		{name: "frees the instance", req: req{method: "POST", path: serviceTransfersPath, token: demoToken, body: transferBody(id["worker-1"])}, status: 200},
	})
	e.runJobs()
	e.db.View(func(tx kv.Tx) error {
		if got := serviceTransferEvents(tx, "demo"); len(got) != 3 || !strings.HasPrefix(got[2], "entity_transfer_stale ") {
			t.Errorf("events %v", got)
		}
		return nil
	})
}

// TestEntityTransfers: the deprecated twin answers 299 with warnings over the same transfers.
func TestEntityTransfers(t *testing.T) {
	e := newEnv(t, 0)
	id := serviceTransferWorld(t, e)
	const old = "/v4/account/entity-transfers"
	tok := e.createTransfer(t, old, id["worker-1"])
	warn := `"warnings":[{"details":`
	e.run(t, []scenario{
		{name: "list", req: req{path: old, token: demoToken}, status: StatusDeprecated, want: []string{`"results":1`, warn}},
		{name: "view", req: req{path: old + "/" + tok, token: daveToken}, status: StatusDeprecated, want: []string{`"status":"pending"`, warn}},
		{name: "the same transfer as a service transfer", req: req{path: serviceTransfersPath + "/" + tok, token: demoToken}, status: 200, not: []string{"warnings"}},
		{name: "errors stay errors", req: req{method: "POST", path: old, token: demoToken, body: `{}`}, status: 400},
		{name: "restricted user", req: req{path: old, token: carolToken}, status: 403},
		{name: "accept", req: req{method: "POST", path: old + "/" + tok + "/accept", token: daveToken}, status: StatusDeprecated, exact: `{"warnings":[{"details":` +
			`"This endpoint is deprecated and may be removed; see the API changelog for its replacement.","title":"Deprecated endpoint"}]}`},
		{name: "cancel", req: req{method: "DELETE", path: old + "/" + tok, token: demoToken}, status: 400},
	})
	e.db.View(func(tx kv.Tx) error {
		if got := serviceTransferEvents(tx, "partner"); len(got) != 1 || got[0] != "entity_transfer_accept "+old+"/"+tok {
			t.Errorf("events %v", got)
		}
		return nil
	})
}

// TestTransferAcceptRateLimit: the third accept within a minute is refused before it runs.
func TestTransferAcceptRateLimit(t *testing.T) {
	e := newEnv(t, 1)
	id := serviceTransferWorld(t, e)
	first := serviceTransfersPath + "/" + e.createTransfer(t, serviceTransfersPath, id["worker-1"]) + "/accept"
	second := serviceTransfersPath + "/" + e.createTransfer(t, serviceTransfersPath, id["batch-1"]) + "/accept"
	e.run(t, []scenario{
		{name: "first", req: req{method: "POST", path: first, token: daveToken}, status: 200, header: map[string]string{"X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "1"}},
		{name: "second", req: req{method: "POST", path: second, token: daveToken}, status: 200},
		{name: "third", req: req{method: "POST", path: first, token: daveToken}, status: 429, exact: `{"errors":[{"reason":"Too many requests"}]}`},
		{name: "other endpoints still answer", req: req{path: serviceTransfersPath, token: daveToken}, status: 200},
	})
	e.clock.Advance(time.Minute)
	e.run(t, []scenario{{name: "a new window", req: req{method: "POST", path: first, token: daveToken}, status: 400, want: []string{"already been accepted"}}})
}

// TestTransferAcceptLimitShared (issue 37): an accept counted by TransferAcceptLimit (the
// console's) spends the same per-token budget as the API's accept route: after two such
// accepts of dave's token the API refuses its third, and the other way round a token that spent
// its two at the API is refused by the console's count.
func TestTransferAcceptLimitShared(t *testing.T) {
	e := newEnv(t, 1)
	id := serviceTransferWorld(t, e)
	dave, err := e.cloud.Authenticate(daveToken)
	if err != nil {
		t.Fatal(err)
	}
	consoleAccept := TransferAcceptLimit(e.limit, 1)
	for i := range 2 {
		if wait := consoleAccept(dave.Token.ID); wait != 0 {
			t.Fatalf("console accept %d: wait %v", i+1, wait)
		}
	}
	first := serviceTransfersPath + "/" + e.createTransfer(t, serviceTransfersPath, id["worker-1"]) + "/accept"
	e.run(t, []scenario{{name: "the API's third", req: req{method: "POST", path: first, token: daveToken}, status: 429}})
	if wait := consoleAccept(dave.Token.ID); wait <= 0 || wait > time.Minute {
		t.Fatalf("the console's fourth: wait %v", wait)
	}
	e.clock.Advance(time.Minute)
	e.run(t, []scenario{{name: "a new window", req: req{method: "POST", path: first, token: daveToken}, status: 200}})
	if wait := TransferAcceptLimit(e.limit, 0)(dave.Token.ID); wait != 0 {
		t.Fatalf("no limit at scale 0: wait %v", wait)
	}
}
