package cloudsvc

import (
	"fmt"
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// visibleTo is the seed's visibility rule for a transfer as of now (see At): while pending any
// account may view it by token; once accepted only the creating and accepting accounts; once
// cancelled or expired only the creating account. Invisible transfers answer 404.
func visibleTo(t cloudstore.Transfer, account uint64) bool {
	switch t.Status {
	case cloudstore.TransferPending:
		return true
	case cloudstore.TransferAccepted:
		return account == t.From || account == t.To
	}
	return account == t.From
}

// viewTransfer returns the transfer as of now if the account may see it; ErrNotFound otherwise,
// so an invisible transfer looks exactly like an unknown token.
func viewTransfer(tx kv.Tx, token string, account uint64, now time.Time) (cloudstore.Transfer, error) {
	t, err := cloudstore.GetTransfer(tx, token)
	if err != nil {
		return t, err
	}
	if t = t.At(now); !visibleTo(t, account) {
		return cloudstore.Transfer{}, fmt.Errorf("transfer %q: %w", token, store.ErrNotFound)
	}
	return t, nil
}

// createTransfer offers the listed instances of from to any other account, if every creation
// rule of the seed holds (all broken rules are reported at once, see checkCreate), and mails
// the token to the creating account.
func createTransfer(tx kv.Tx, kind string, from cloudstore.Account, instanceIDs []uint64, now time.Time) (cloudstore.Transfer, error) {
	if kind != cloudstore.TransferService && kind != cloudstore.TransferEntity {
		return cloudstore.Transfer{}, fmt.Errorf("transfer kind %q: %w", kind, store.ErrInvalid)
	}
	if err := checkCreate(tx, from, instanceIDs, now); err != nil {
		return cloudstore.Transfer{}, err
	}
	t := cloudstore.Transfer{
		Token: cloudstore.NewTransferToken(), Kind: kind, From: from.ID, Status: cloudstore.TransferPending,
		Created: now, Updated: now, Expiry: now.Add(cloudstore.TransferLifetime),
		Entities: cloudstore.TransferEntities{Instances: slices.Clone(instanceIDs)},
	}
	if err := cloudstore.PutTransfer(tx, t); err != nil {
		return t, err
	}
	if err := cloudstore.ListTransfer(tx, from.ID, t); err != nil {
		return t, err
	}
	return t, mailTransfer(tx, t, now, createdMail, from)
}

// cancelTransfer withdraws a pending transfer on behalf of account. The transfer is re-read in
// tx, so a stale copy cannot cancel what was accepted meanwhile. Invisible: 404; visible but
// not created by the account (an accepting or a bystanding account): 403; not pending: 400.
// The creating account is told by e-mail.
func cancelTransfer(tx kv.Tx, t cloudstore.Transfer, account uint64, now time.Time) (cloudstore.Transfer, error) {
	t, err := viewTransfer(tx, t.Token, account, now)
	if err != nil {
		return t, err
	}
	if t.From != account {
		return t, fault.Forbidden("", "Only the account that created this transfer can cancel it")
	}
	switch t.Status {
	case cloudstore.TransferAccepted:
		return t, store.Problems{{Reason: "Accepted transfers cannot be cancelled"}}
	case cloudstore.TransferExpired:
		return t, store.Problems{{Reason: "Expired transfers cannot be cancelled"}}
	case cloudstore.TransferCancelled:
		return t, store.Problems{{Reason: "This transfer is already cancelled"}}
	}
	t.Status, t.Updated = cloudstore.TransferCancelled, now
	if err := cloudstore.PutTransfer(tx, t); err != nil {
		return t, err
	}
	from, err := cloudstore.GetAccount(tx, t.From)
	if err != nil {
		return t, err
	}
	return t, mailTransfer(tx, t, now, cancelledMail, from)
}

// acceptTransfer takes a pending transfer for the accepting account if every accepting rule of
// the seed holds (see checkAccept); its instances move completionDelay later (transferJob).
// The transfer is re-read and checked in tx, the one write transaction bbolt runs at a time, so
// of two concurrent accepts the second sees "accepted" and fails. Both accounts are mailed.
func acceptTransfer(tx kv.Tx, t cloudstore.Transfer, accepting cloudstore.Account, now time.Time, completionDelay time.Duration) (cloudstore.Transfer, error) {
	t, err := viewTransfer(tx, t.Token, accepting.ID, now)
	if err != nil {
		return t, err
	}
	from, err := cloudstore.GetAccount(tx, t.From)
	if err != nil {
		return t, err
	}
	if err := checkAccept(tx, t, from, accepting); err != nil {
		return t, err
	}
	done := now.Add(completionDelay)
	t.To, t.Status, t.Updated, t.AcceptedAt, t.CompleteAt = accepting.ID, cloudstore.TransferAccepted, now, &now, &done
	if err := cloudstore.PutTransfer(tx, t); err != nil {
		return t, err
	}
	if err := cloudstore.ListTransfer(tx, accepting.ID, t); err != nil {
		return t, err
	}
	return t, mailTransfer(tx, t, now, acceptedMail, from, accepting)
}

// transferDue reports whether transferJob has something to do for t at now.
func transferDue(t cloudstore.Transfer, now time.Time) bool {
	switch t.Status {
	case cloudstore.TransferPending:
		return !now.Before(t.Expiry)
	case cloudstore.TransferAccepted:
		return !t.Completed && t.CompleteAt != nil && !now.Before(*t.CompleteAt)
	}
	return false
}

// transfersDue reports whether transferJob would change anything at now, so the job can look in
// a read transaction and write only when something is due. It scans store.CloudTransfers (no
// due-time index exists), which is cheap at the appliance's scale, and stops at the first hit.
func transfersDue(tx kv.Tx, now time.Time) (bool, error) {
	found := false
	err := cloudstore.EachTransfer(tx, func(t cloudstore.Transfer) bool {
		found = transferDue(t, now)
		return !found
	})
	return found, err
}

// transferJob is the clock's part of the state machine, run every second: pending transfers
// past expiry become expired (event entity_transfer_stale), and accepted transfers past their
// completion time move their instances to the accepting account, or fail (see completeTransfer).
// It re-reads everything in tx, so running it twice is harmless.
func transferJob(tx kv.Tx, now time.Time) error {
	var list []cloudstore.Transfer
	err := cloudstore.EachTransfer(tx, func(t cloudstore.Transfer) bool {
		if transferDue(t, now) {
			list = append(list, t)
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, t := range list {
		if t.Status == cloudstore.TransferPending {
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

func expireTransfer(tx kv.Tx, t cloudstore.Transfer, now time.Time) error {
	t = t.At(now)
	if err := cloudstore.PutTransfer(tx, t); err != nil {
		return err
	}
	return recordTransferEvent(tx, t, t.From, "entity_transfer_stale", "", now)
}

// completeTransfer moves every instance to the accepting account at now (billing changes hands
// then; backups are part of the instance record), all or nothing. When one can no longer move
// (see completionProblems) none moves: the transfer becomes cancelled with Failed set, both
// accounts get an entity_transfer_fail event and an e-mail. Success records no event: the
// acceptance already did.
func completeTransfer(tx kv.Tx, t cloudstore.Transfer, now time.Time) error {
	reason, err := completionProblems(tx, t)
	if err != nil {
		return err
	}
	t.Updated = now
	if reason != "" {
		t.Status, t.Failed = cloudstore.TransferCancelled, true
		return failTransfer(tx, t, reason, now)
	}
	for _, id := range t.Entities.Instances {
		in, err := cloudstore.GetInstance(tx, id)
		if err != nil {
			return err
		}
		if _, err := cloudstore.MoveInstance(tx, in, t.To, now); err != nil {
			return err
		}
	}
	t.Completed = true
	return cloudstore.PutTransfer(tx, t)
}

func recordTransferEvent(tx kv.Tx, t cloudstore.Transfer, account uint64, action, message string, now time.Time) error {
	return cloudstore.RecordEvent(tx, &cloudstore.Event{AccountID: account, Action: action, Created: now, Entity: t.EventEntity(), Message: message})
}
