package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// VisibleTransfers lists the transfers account created or accepted, whoever made them, as they
// stand now and as far as the account may still see them.
func (s *Service) VisibleTransfers(account uint64) ([]cloudstore.Transfer, error) {
	now := s.clk.Now()
	var list []cloudstore.Transfer
	if err := s.db.View(func(tx kv.Tx) (err error) {
		list, err = cloudstore.AccountTransfers(tx, account)
		return err
	}); err != nil {
		return nil, err
	}
	out := make([]cloudstore.Transfer, 0, len(list))
	for _, t := range list {
		if t = t.At(now); visibleTo(t, account) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Transfer returns the transfer token as it stands now, to an account allowed to see it (not
// found otherwise).
func (s *Service) Transfer(account uint64, token string) (cloudstore.Transfer, error) {
	now := s.clk.Now()
	var t cloudstore.Transfer
	err := s.db.View(func(tx kv.Tx) (err error) {
		t, err = viewTransfer(tx, token, account, now)
		return err
	})
	return t, err
}

// CreateTransfer offers instances ids of by's account and records entity_transfer_create; kind
// records which family of endpoints was used. parsed are the problems the caller found reading
// the request (see CreateUser): an id it could not read is passed as 0, so the positions of
// the transfer's own problems stay aligned.
func (s *Service) CreateTransfer(by cloudstore.User, kind string, ids []uint64, parsed store.Problems) (cloudstore.Transfer, error) {
	now := s.clk.Now()
	var t cloudstore.Transfer
	err := s.db.Write(func(tx kv.Tx) error {
		from, err := cloudstore.GetAccount(tx, by.AccountID)
		if err != nil {
			return err
		}
		if t, err = createTransfer(tx, kind, from, ids, now); withParsed(parsed, err) != nil {
			return withParsed(parsed, err)
		}
		return record(tx, by, "entity_transfer_create", t.EventEntity(), now)
	})
	return t, err
}

// CancelTransfer withdraws a pending transfer of by's account and records
// entity_transfer_cancel.
func (s *Service) CancelTransfer(by cloudstore.User, token string) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		t, err := cloudstore.GetTransfer(tx, token)
		if err != nil {
			return err
		}
		if t, err = cancelTransfer(tx, t, by.AccountID, now); err != nil {
			return err
		}
		return record(tx, by, "entity_transfer_cancel", t.EventEntity(), now)
	})
}

// AcceptTransfer takes a pending transfer for by's account; its instances move after the
// configured delay. The transfer is read, checked and changed in one write transaction (see
// acceptTransfer), so two concurrent accepts cannot both succeed. Both accounts get
// an entity_transfer_accept event: the creator's has no username (it was not one of its users).
func (s *Service) AcceptTransfer(by cloudstore.User, token string) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		t, err := cloudstore.GetTransfer(tx, token)
		if err != nil {
			return err
		}
		accepting, err := cloudstore.GetAccount(tx, by.AccountID)
		if err != nil {
			return err
		}
		if t, err = acceptTransfer(tx, t, accepting, now, s.transferDelay()); err != nil {
			return err
		}
		return recordAccepted(tx, by, t, now)
	})
}

// recordAccepted records entity_transfer_accept for both accounts (the creator's without a
// username: it was not one of its users). The acceptance is under way until the instances move
// (finished) or cannot (failed: failTransfer says so), as an operation's event.
func recordAccepted(tx kv.Tx, by cloudstore.User, t cloudstore.Transfer, now time.Time) error {
	name := by.Username
	mine := cloudstore.Event{AccountID: by.AccountID, Action: "entity_transfer_accept", Created: now, Username: &name, Entity: t.EventEntity()}
	theirs := cloudstore.Event{AccountID: t.From, Action: "entity_transfer_accept", Created: now, Entity: t.EventEntity()}
	for _, e := range []*cloudstore.Event{&mine, &theirs} {
		if t.CompleteAt != nil && t.CompleteAt.After(now) {
			e.StartedUntil(*t.CompleteAt, cloudstore.EventFinished)
		}
		if err := cloudstore.RecordEvent(tx, e); err != nil {
			return err
		}
	}
	return nil
}
