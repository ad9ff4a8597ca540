package cloudstore

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
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

// VisibleTo is the seed's visibility rule for a transfer as of now (see At): while pending any
// account may view it by token; once accepted only the creating and accepting accounts; once
// cancelled or expired only the creating account. Invisible transfers answer 404.
func VisibleTo(t Transfer, account uint64) bool {
	switch t.Status {
	case TransferPending:
		return true
	case TransferAccepted:
		return account == t.From || account == t.To
	}
	return account == t.From
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
func GetTransfer(tx *bbolt.Tx, token string) (Transfer, error) {
	return store.Get[Transfer](tx, store.CloudTransfers, []byte(strings.ToLower(token)))
}

// ViewTransfer returns the transfer as of now if the account may see it; ErrNotFound otherwise,
// so an invisible transfer looks exactly like an unknown token.
func ViewTransfer(tx *bbolt.Tx, token string, account uint64, now time.Time) (Transfer, error) {
	t, err := GetTransfer(tx, token)
	if err != nil {
		return t, err
	}
	if t = t.At(now); !VisibleTo(t, account) {
		return Transfer{}, fmt.Errorf("transfer %q: %w", token, store.ErrNotFound)
	}
	return t, nil
}

// AccountTransfers lists the transfers the account created or accepted, oldest first, as
// stored (apply At for the status as of now). The list and notification endpoints read it.
func AccountTransfers(tx *bbolt.Tx, account uint64) ([]Transfer, error) {
	out, err := store.IndexedRecords[Transfer](tx, store.CloudAccountTransfers, store.Itob(account), store.CloudTransfers)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Transfer) int {
		return cmp.Or(a.Created.Compare(b.Created), strings.Compare(a.Token, b.Token))
	})
	return out, nil
}

func putTransfer(tx *bbolt.Tx, t Transfer) error {
	return store.Put(tx, store.CloudTransfers, []byte(t.Token), t)
}

// CreateTransfer offers the listed instances of from to any other account, if every creation
// rule of the seed holds (all broken rules are reported at once, see checkCreate), and mails
// the token to the creating account.
func CreateTransfer(tx *bbolt.Tx, kind string, from Account, instanceIDs []uint64, now time.Time) (Transfer, error) {
	if kind != TransferService && kind != TransferEntity {
		return Transfer{}, fmt.Errorf("transfer kind %q: %w", kind, store.ErrInvalid)
	}
	if err := checkCreate(tx, from, instanceIDs, now); err != nil {
		return Transfer{}, err
	}
	t := Transfer{
		Token: newUUID(), Kind: kind, From: from.ID, Status: TransferPending,
		Created: now, Updated: now, Expiry: now.Add(TransferLifetime),
		Entities: TransferEntities{Instances: slices.Clone(instanceIDs)},
	}
	if err := putTransfer(tx, t); err != nil {
		return t, err
	}
	if err := store.IndexAdd(tx, store.CloudAccountTransfers, store.Itob(from.ID), []byte(t.Token)); err != nil {
		return t, err
	}
	return t, mailTransfer(tx, t, now, createdMail, from)
}

// CancelTransfer withdraws a pending transfer on behalf of account. The transfer is re-read in
// tx, so a stale copy cannot cancel what was accepted meanwhile. Invisible: 404; visible but
// not created by the account (an accepting or a bystanding account): 403; not pending: 400.
// The creating account is told by e-mail.
func CancelTransfer(tx *bbolt.Tx, t Transfer, account uint64, now time.Time) (Transfer, error) {
	t, err := ViewTransfer(tx, t.Token, account, now)
	if err != nil {
		return t, err
	}
	if t.From != account {
		return t, &transferRuleError{"Only the account that created this transfer can cancel it", store.ErrForbidden}
	}
	switch t.Status {
	case TransferAccepted:
		return t, store.Problems{{Reason: "Accepted transfers cannot be cancelled"}}
	case TransferExpired:
		return t, store.Problems{{Reason: "Expired transfers cannot be cancelled"}}
	case TransferCancelled:
		return t, store.Problems{{Reason: "This transfer is already cancelled"}}
	}
	t.Status, t.Updated = TransferCancelled, now
	if err := putTransfer(tx, t); err != nil {
		return t, err
	}
	from, err := GetAccount(tx, t.From)
	if err != nil {
		return t, err
	}
	return t, mailTransfer(tx, t, now, cancelledMail, from)
}

// AcceptTransfer takes a pending transfer for the accepting account if every accepting rule of
// the seed holds (see checkAccept); its instances move completionDelay later (TransferJob).
// The transfer is re-read and checked in tx, the one write transaction bbolt runs at a time, so
// of two concurrent accepts the second sees "accepted" and fails. Both accounts are mailed.
func AcceptTransfer(tx *bbolt.Tx, t Transfer, accepting Account, now time.Time, completionDelay time.Duration) (Transfer, error) {
	t, err := ViewTransfer(tx, t.Token, accepting.ID, now)
	if err != nil {
		return t, err
	}
	from, err := GetAccount(tx, t.From)
	if err != nil {
		return t, err
	}
	if err := checkAccept(tx, t, from, accepting); err != nil {
		return t, err
	}
	done := now.Add(completionDelay)
	t.To, t.Status, t.Updated, t.AcceptedAt, t.CompleteAt = accepting.ID, TransferAccepted, now, &now, &done
	if err := putTransfer(tx, t); err != nil {
		return t, err
	}
	if err := store.IndexAdd(tx, store.CloudAccountTransfers, store.Itob(accepting.ID), []byte(t.Token)); err != nil {
		return t, err
	}
	return t, mailTransfer(tx, t, now, acceptedMail, from, accepting)
}

// due reports whether TransferJob has something to do for t at now.
func (t Transfer) due(now time.Time) bool {
	switch t.Status {
	case TransferPending:
		return !now.Before(t.Expiry)
	case TransferAccepted:
		return !t.Completed && t.CompleteAt != nil && !now.Before(*t.CompleteAt)
	}
	return false
}

// TransfersDue reports whether TransferJob would change anything at now, so the job can look in
// a read transaction and write only when something is due. It scans store.CloudTransfers (no
// due-time index exists), which is cheap at the appliance's scale, and stops at the first hit.
func TransfersDue(tx *bbolt.Tx, now time.Time) (bool, error) {
	found := false
	err := store.Each(tx, store.CloudTransfers, nil, func(_ []byte, t Transfer) (bool, error) {
		found = t.due(now)
		return !found, nil
	})
	return found, err
}

// TransferJob is the clock's part of the state machine, run every second: pending transfers
// past expiry become expired (event entity_transfer_stale), and accepted transfers past their
// completion time move their instances to the accepting account, or fail (see completeTransfer).
// It re-reads everything in tx, so running it twice is harmless.
func TransferJob(tx *bbolt.Tx, now time.Time) error {
	var list []Transfer
	err := store.Each(tx, store.CloudTransfers, nil, func(_ []byte, t Transfer) (bool, error) {
		if t.due(now) {
			list = append(list, t)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, t := range list {
		if t.Status == TransferPending {
			err = expireTransfer(tx, t, now)
		} else {
			err = completeTransfer(tx, t, now)
		}
		if err != nil {
			return fmt.Errorf("transfer %s: %w", t.Token, err)
		}
	}
	return nil
}

func expireTransfer(tx *bbolt.Tx, t Transfer, now time.Time) error {
	t = t.At(now)
	if err := putTransfer(tx, t); err != nil {
		return err
	}
	return recordTransferEvent(tx, t, t.From, "entity_transfer_stale", "", now)
}

// completeTransfer moves every instance to the accepting account at now (billing changes hands
// then; backups are part of the instance record), all or nothing. When one can no longer move
// (see completionProblems) none moves: the transfer becomes cancelled with Failed set, both
// accounts get an entity_transfer_fail event and an e-mail. Success records no event: the
// acceptance already did.
func completeTransfer(tx *bbolt.Tx, t Transfer, now time.Time) error {
	reason, err := completionProblems(tx, t)
	if err != nil {
		return err
	}
	t.Updated = now
	if reason != "" {
		t.Status, t.Failed = TransferCancelled, true
		return failTransfer(tx, t, reason, now)
	}
	for _, id := range t.Entities.Instances {
		in, err := GetInstance(tx, id)
		if err != nil {
			return err
		}
		if _, err := MoveInstance(tx, in, t.To, now); err != nil {
			return err
		}
	}
	t.Completed = true
	return putTransfer(tx, t)
}

func recordTransferEvent(tx *bbolt.Tx, t Transfer, account uint64, action, message string, now time.Time) error {
	return RecordEvent(tx, &Event{AccountID: account, Action: action, Created: now, Entity: t.EventEntity(), Message: message})
}
