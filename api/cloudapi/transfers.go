package cloudapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// DefaultTransferDelay is how long after acceptance a transfer's instances move when
// --transfer-delay is not set: a few seconds, so a demo sees it happen (the real service takes
// up to three hours).
const DefaultTransferDelay = 5 * time.Second

// serviceTransferAcceptLimit is the seed's "service transfer accept: 2 requests per minute"
// (per token), applied to the deprecated entity-transfer accept too: it is the same operation.
var serviceTransferAcceptLimit = ratelimit.Limit{Max: 2, Window: time.Minute}

// bindTransfers registers service transfers and their deprecated twin, entity transfers, which
// answer 299 with warnings. Both families serve the same transfers (an entity transfer is the old
// name of a service transfer); all are unrestricted only. The clock job expires pending
// transfers and completes accepted ones.
func (a *api) bindTransfers(r *routes) {
	svc := access{area: "account", who: unrestrictedOnly}
	svcAccept := access{area: "account", who: unrestrictedOnly, limit: serviceTransferAcceptLimit}
	old := access{area: "account", who: unrestrictedOnly, deprecated: true}
	oldAccept := access{area: "account", who: unrestrictedOnly, limit: serviceTransferAcceptLimit, deprecated: true}
	r.add(both, "GET", "/account/service-transfers", svc, a.listServiceTransfers)
	r.add(both, "POST", "/account/service-transfers", svc, a.createServiceTransfer(cloudstore.TransferService))
	r.add(both, "GET", "/account/service-transfers/:token", svc, a.getServiceTransfer)
	r.add(both, "DELETE", "/account/service-transfers/:token", svc, a.cancelServiceTransfer)
	r.add(both, "POST", "/account/service-transfers/:token/accept", svcAccept, a.acceptServiceTransfer)
	r.add(both, "GET", "/account/entity-transfers", old, a.listServiceTransfers)
	r.add(both, "POST", "/account/entity-transfers", old, a.createServiceTransfer(cloudstore.TransferEntity))
	r.add(both, "GET", "/account/entity-transfers/:token", old, a.getServiceTransfer)
	r.add(both, "DELETE", "/account/entity-transfers/:token", old, a.cancelServiceTransfer)
	r.add(both, "POST", "/account/entity-transfers/:token/accept", oldAccept, a.acceptServiceTransfer)
	if a.Jobs != nil {
		a.Jobs.Add("transfers", a.serviceTransferJob)
	}
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
	account, now := callerOf(c).user.AccountID, a.Clock.Now()
	var list []cloudstore.Transfer
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		list, err = cloudstore.AccountTransfers(tx, account)
		return err
	}); err != nil {
		return err
	}
	views := make([]serviceTransferView, 0, len(list))
	for _, t := range list {
		if t = t.At(now); cloudstore.VisibleTo(t, account) {
			views = append(views, viewServiceTransfer(t, account))
		}
	}
	return renderList(c, views, serviceTransferFields, func(v serviceTransferView) serviceTransferView { return v })
}

// getServiceTransfer shows a transfer by token to any account allowed to see it (404 otherwise).
func (a *api) getServiceTransfer(c *fiber.Ctx) error {
	account, now := callerOf(c).user.AccountID, a.Clock.Now()
	var t cloudstore.Transfer
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		t, err = cloudstore.ViewTransfer(tx, c.Params("token"), account, now)
		return err
	}); err != nil {
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
		cl, now := callerOf(c), a.Clock.Now()
		var t cloudstore.Transfer
		err = a.Store.Write(func(tx *bbolt.Tx) error {
			from, err := cloudstore.GetAccount(tx, cl.user.AccountID)
			if err != nil {
				return err
			}
			if t, err = cloudstore.CreateTransfer(tx, kind, from, ids, now); b.with(err) != nil {
				return b.with(err)
			}
			return a.record(tx, cl, "entity_transfer_create", t.EventEntity(), now)
		})
		if err != nil {
			return err
		}
		return c.JSON(viewServiceTransfer(t, cl.user.AccountID))
	}
}

// serviceTransferInput reads the create body {"entities":{"instances":[ids]}}, noting each
// malformed part on its field: "entities", "entities.instances" or "entities.instances[i]". A
// malformed id is passed on as 0, so the domain's positions stay aligned (its second problem
// there is not repeated, see body.with). When the list cannot be read at all, its problems are
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
	cl, now, token := callerOf(c), a.Clock.Now(), strings.Clone(c.Params("token"))
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		t, err := cloudstore.GetTransfer(tx, token)
		if err != nil {
			return err
		}
		if t, err = cloudstore.CancelTransfer(tx, t, cl.user.AccountID, now); err != nil {
			return err
		}
		return a.record(tx, cl, "entity_transfer_cancel", t.EventEntity(), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// acceptServiceTransfer takes a pending transfer for the caller's account and answers {}. The
// transfer is read, checked and changed in one write transaction (see cloudstore.AcceptTransfer), so
// two concurrent accepts cannot both succeed. Both accounts get an entity_transfer_accept event:
// the creator's has no username (it was not one of its users).
func (a *api) acceptServiceTransfer(c *fiber.Ctx) error {
	cl, now, token := callerOf(c), a.Clock.Now(), strings.Clone(c.Params("token"))
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		t, err := cloudstore.GetTransfer(tx, token)
		if err != nil {
			return err
		}
		accepting, err := cloudstore.GetAccount(tx, cl.user.AccountID)
		if err != nil {
			return err
		}
		if t, err = cloudstore.AcceptTransfer(tx, t, accepting, now, a.transferDelay()); err != nil {
			return err
		}
		if err := a.record(tx, cl, "entity_transfer_accept", t.EventEntity(), now); err != nil {
			return err
		}
		return cloudstore.RecordEvent(tx, &cloudstore.Event{AccountID: t.From, Action: "entity_transfer_accept", Created: now, Entity: t.EventEntity()})
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// serviceTransferJob runs every second: it looks in a read transaction and writes only when a
// transfer is due to expire or complete.
func (a *api) serviceTransferJob(now time.Time) error {
	due := false
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		due, err = cloudstore.TransfersDue(tx, now)
		return err
	}); err != nil || !due {
		return err
	}
	return a.Store.Write(func(tx *bbolt.Tx) error { return cloudstore.TransferJob(tx, now) })
}

// transferDelay is the configured completion delay.
func (a *api) transferDelay() time.Duration {
	if a.TransferDelay <= 0 {
		return DefaultTransferDelay
	}
	return a.TransferDelay
}
