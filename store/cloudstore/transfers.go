package cloudstore

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Transfer kinds: the endpoint family that created a transfer. Entity transfers are the
// deprecated name of service transfers, so both families list, show, cancel and accept every
// transfer; the kind only chooses the URL that events and e-mails point at.
const (
	TransferService = "service"
	TransferEntity  = "entity"
)

// Transfer statuses: the seed's four, and only these are ever stored or shown. A completed
// transfer stays accepted (Completed tells); one whose completion failed is cancelled (Failed
// tells), which frees its instances and, like any cancelled transfer, cannot be acted on again.
const (
	TransferPending   = "pending"
	TransferAccepted  = "accepted"
	TransferCancelled = "cancelled"
	TransferExpired   = "expired"
)

// TransferLifetime is how long a pending transfer can be accepted: its expiry is 24 hours after
// creation (the reference; the seed does not show the period).
const TransferLifetime = 24 * time.Hour

// TransferEntities are the services a transfer moves; only instances can be transferred.
type TransferEntities struct {
	Instances []uint64 `json:"instances"`
}

// Transfer is a service (or entity) transfer: a creating account offers instances, another
// account accepts them by token, and the clock completes the move later. Stored under its token
// in store.CloudTransfers and indexed under both accounts in store.CloudAccountTransfers.
type Transfer struct {
	Token   string    `json:"token"` // random v4 UUID, lower-case
	Kind    string    `json:"kind"`  // TransferService or TransferEntity
	From    uint64    `json:"from"`  // the creating account
	To      uint64    `json:"to"`    // the accepting account; 0 until accepted
	Status  string    `json:"status"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Expiry  time.Time `json:"expiry"` // Created + TransferLifetime
	// AcceptedAt is when it was accepted; CompleteAt when its instances are due to move.
	AcceptedAt *time.Time `json:"accepted_at,omitempty"`
	CompleteAt *time.Time `json:"complete_at,omitempty"`
	// Completed is set once the instances have moved to To.
	Completed bool `json:"completed,omitempty"`
	// Failed marks an accepted transfer whose instances could no longer move (status cancelled).
	Failed   bool             `json:"failed,omitempty"`
	Entities TransferEntities `json:"entities"`
}

// At returns t as of now: a pending transfer past its expiry reads as expired (updated at its
// expiry) even before TransferJob has stored that, so reads and the job always agree. Apply it
// to every transfer read from the store before looking at its status.
func (t Transfer) At(now time.Time) Transfer {
	if t.Status == TransferPending && !now.Before(t.Expiry) {
		t.Status, t.Updated = TransferExpired, t.Expiry
	}
	return t
}

// EventEntity is the transfer as the entity of its events (entity_transfer_*), pointing at the
// endpoint family that created it.
func (t Transfer) EventEntity() *EventEntity {
	path := "/v4/account/service-transfers/"
	if t.Kind == TransferEntity {
		path = "/v4/account/entity-transfers/"
	}
	return &EventEntity{ID: t.Token, Label: t.Token, Type: "entity_transfer", URL: path + t.Token}
}

// GetTransfer returns a transfer by token (UUIDs compare case-insensitively), as stored: apply
// At before reading its status.
func GetTransfer(tx kv.Tx, token string) (Transfer, error) {
	return store.Get[Transfer](tx, store.CloudTransfers, []byte(strings.ToLower(token)))
}

// AccountTransfers lists the transfers the account created or accepted, oldest first, as
// stored (apply At for the status as of now). The list and notification endpoints read it.
func AccountTransfers(tx kv.Tx, account uint64) ([]Transfer, error) {
	out, err := store.IndexedRecords[Transfer](tx, store.CloudAccountTransfers, store.Itob(account), store.CloudTransfers)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Transfer) int {
		return cmp.Or(a.Created.Compare(b.Created), strings.Compare(a.Token, b.Token))
	})
	return out, nil
}

// PutTransfer stores t under its token (it is not yet listed under any account: see
// ListTransfer).
func PutTransfer(tx kv.Tx, t Transfer) error {
	return store.Put(tx, store.CloudTransfers, []byte(t.Token), t)
}

// ListTransfer lists t among account's transfers (AccountTransfers): the creating account's
// from creation, the accepting account's from acceptance.
func ListTransfer(tx kv.Tx, account uint64, t Transfer) error {
	return store.IndexAdd(tx, store.CloudAccountTransfers, store.Itob(account), []byte(t.Token))
}

// EachTransfer calls fn with every stored transfer, as stored, until fn returns false.
func EachTransfer(tx kv.Tx, fn func(Transfer) bool) error {
	return store.Each(tx, store.CloudTransfers, nil, func(_ []byte, t Transfer) (bool, error) { return fn(t), nil })
}

// NewTransferToken returns a fresh transfer token: a random v4 UUID, lower-case.
func NewTransferToken() string { return newUUID() }
