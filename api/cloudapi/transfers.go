package cloudapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// DefaultTransferDelay is cloudsvc.DefaultTransferDelay, under the name serve and the tests know.
const DefaultTransferDelay = cloudsvc.DefaultTransferDelay

// serviceTransferAcceptLimit is the seed's "service transfer accept: 2 requests per minute"
// (per token), applied to the deprecated entity-transfer accept too: it is the same operation.
var serviceTransferAcceptLimit = ratelimit.Limit{Max: 2, Window: time.Minute}

// serviceTransferAccept is the accept route's access: cloudsvc.NeedAcceptTransfer under the
// seed's limit. serviceTransferAcceptRoute is its pattern, which names the limit's counter.
var serviceTransferAccept = func() access {
	acc := accessOf(cloudsvc.NeedAcceptTransfer)
	acc.limit = serviceTransferAcceptLimit
	return acc
}()

const serviceTransferAcceptRoute = "/account/service-transfers/:token/accept"

// TransferAcceptLimit counts a transfer accept made outside the API (the cloud console's) in the
// API's limiter, under the same counter as POST /account/service-transfers/{token}/accept for
// the same token, so a second way in does not double the seed's "2 requests per minute". It
// answers how long to wait when the limit is spent (0: go ahead). scale is --cloud-rate-scale
// (0: no limit).
func TransferAcceptLimit(lim *ratelimit.Limiter, scale float64) func(tokenID uint64) time.Duration {
	limit := serviceTransferAccept.endpointLimit("POST", serviceTransferAcceptRoute).Scale(scale)
	return func(tokenID uint64) time.Duration {
		if scale == 0 {
			return 0
		}
		d := lim.Take(tokenKey(tokenID), limit)
		if d.Allowed || d.Unlimited {
			return 0
		}
		return max(d.RetryAfter, time.Second)
	}
}

// bindTransfers registers service transfers and their deprecated twin, entity transfers, which
// answer 299 with warnings. Both families serve the same transfers (an entity transfer is the old
// name of a service transfer); all are unrestricted only. (cloudsvc's clock job expires
// pending transfers and completes accepted ones.)
func (a *api) bindTransfers(r *routes) {
	svc := access{area: "account", who: unrestrictedOnly}
	svcAccept := serviceTransferAccept
	old := access{area: "account", who: unrestrictedOnly, deprecated: true}
	oldAccept := serviceTransferAccept
	oldAccept.deprecated = true
	r.add(both, "GET", "/account/service-transfers", accessOf(cloudsvc.NeedListServiceTransfers), a.listServiceTransfers)
	r.add(both, "POST", "/account/service-transfers", svc, a.createServiceTransfer(cloudstore.TransferService))
	r.add(both, "GET", "/account/service-transfers/:token", svc, a.getServiceTransfer)
	r.add(both, "DELETE", "/account/service-transfers/:token", svc, a.cancelServiceTransfer)
	r.add(both, "POST", serviceTransferAcceptRoute, svcAccept, a.acceptServiceTransfer)
	r.add(both, "GET", "/account/entity-transfers", old, a.listServiceTransfers)
	r.add(both, "POST", "/account/entity-transfers", old, a.createServiceTransfer(cloudstore.TransferEntity))
	r.add(both, "GET", "/account/entity-transfers/:token", old, a.getServiceTransfer)
	r.add(both, "DELETE", "/account/entity-transfers/:token", old, a.cancelServiceTransfer)
	r.add(both, "POST", "/account/entity-transfers/:token/accept", oldAccept, a.acceptServiceTransfer)
}

// serviceTransferView is a ServiceTransfer (and EntityTransfer) as the API shows it to one account.
type serviceTransferView struct {
	Token    string                      `json:"token"`
	Status   string                      `json:"status"`
	Created  string                      `json:"created"`
	Updated  string                      `json:"updated"`
	IsSender bool                        `json:"is_sender"`
	Expiry   string                      `json:"expiry"`
	Entities cloudstore.TransferEntities `json:"entities"`
}

// viewServiceTransfer renders t (already taken to now with At) for the caller's account.
func viewServiceTransfer(t cloudstore.Transfer, account uint64) serviceTransferView {
	ids := t.Entities.Instances
	if ids == nil {
		ids = []uint64{}
	}
	return serviceTransferView{
		Token: t.Token, Status: t.Status, Created: formatTime(t.Created), Updated: formatTime(t.Updated),
		IsSender: t.From == account, Expiry: formatTime(t.Expiry), Entities: cloudstore.TransferEntities{Instances: ids},
	}
}

// serviceTransferFields are the transfer's filterable fields (the reference marks status and
// is_sender).
var serviceTransferFields = listing.Fields[serviceTransferView]{
	"status":    func(v serviceTransferView) any { return v.Status },
	"is_sender": func(v serviceTransferView) any { return v.IsSender },
}

// listServiceTransfers lists the transfers the caller's account created or accepted, whoever
// made them, as of now and as far as the account may still see them.
func (a *api) listServiceTransfers(c *fiber.Ctx) error {
	account := callerOf(c).User.AccountID
	list, err := a.Cloud.VisibleTransfers(account)
	if err != nil {
		return err
	}
	views := make([]serviceTransferView, 0, len(list))
	for _, t := range list {
		views = append(views, viewServiceTransfer(t, account))
	}
	return renderList(c, views, serviceTransferFields, func(v serviceTransferView) serviceTransferView { return v })
}

// getServiceTransfer shows a transfer by token to any account allowed to see it (404 otherwise).
func (a *api) getServiceTransfer(c *fiber.Ctx) error {
	account := callerOf(c).User.AccountID
	t, err := a.Cloud.Transfer(account, c.Params("token"))
	if err != nil {
		return err
	}
	return c.JSON(viewServiceTransfer(t, account))
}

// createServiceTransfer offers instances of the caller's account; kind records which family
// was used.
func (a *api) createServiceTransfer(kind string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		b, ids, err := serviceTransferInput(c)
		if err != nil {
			return err
		}
		cl := callerOf(c)
		t, err := a.Cloud.CreateTransfer(cl.User, kind, ids, b.problems)
		if err != nil {
			return err
		}
		return c.JSON(viewServiceTransfer(t, cl.User.AccountID))
	}
}

// serviceTransferInput reads the create body {"entities":{"instances":[ids]}}, noting each
// malformed part on its field: "entities", "entities.instances" or "entities.instances[i]". A
// malformed id is passed on as 0, so the domain's positions stay aligned (its second problem
// there is not repeated, see cloudsvc.CreateTransfer). When the list cannot be read at all, its problems are
// the answer. The real service's name for the list, "linodes" (what linodego sends), is accepted
// as an alias of the seed's "instances", so real clients can transfer; answers use "instances".
func serviceTransferInput(c *fiber.Ctx) (*body, []uint64, error) {
	b, err := parseBody(c)
	if err != nil {
		return nil, nil, err
	}
	b.require("entities")
	var entities map[string]json.RawMessage
	if !b.decode("entities", "an object", &entities) {
		return nil, nil, b.err()
	}
	raw, ok := entities["instances"]
	if !ok {
		raw, ok = entities["linodes"]
	}
	if !ok || string(raw) == "null" {
		b.problems.Add("entities.instances", "entities.instances is required")
		return nil, nil, b.err()
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		b.problems.Add("entities.instances", "Must be a list of instance ids")
		return nil, nil, b.err()
	}
	ids := make([]uint64, len(items))
	for i, item := range items {
		if json.Unmarshal(item, &ids[i]) != nil {
			ids[i] = 0
			b.problems.Add(fmt.Sprintf("entities.instances[%d]", i), "Must be an instance id")
		}
	}
	return b, ids, nil
}

// cancelServiceTransfer withdraws a pending transfer of the caller's account and answers {}.
func (a *api) cancelServiceTransfer(c *fiber.Ctx) error {
	if err := a.Cloud.CancelTransfer(callerOf(c).User, strings.Clone(c.Params("token"))); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// acceptServiceTransfer takes a pending transfer for the caller's account (both accounts get an
// event; see cloudsvc.AcceptTransfer) and answers {}.
func (a *api) acceptServiceTransfer(c *fiber.Ctx) error {
	if err := a.Cloud.AcceptTransfer(callerOf(c).User, strings.Clone(c.Params("token"))); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}
