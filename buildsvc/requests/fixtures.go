package requests

import (
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The request operations inside a caller's transaction, for the demo world (fixtures), which
// loads in one transaction with the clock reading it is given: the same rules as the Service
// methods CreateRequest, ChangeState and ChangeReviewState, but no e-mails — the demo requests
// are the world's past, not news, and a fresh appliance's outbox starts empty.

// CreateRequestTx is CreateRequest by who at now inside tx, without the e-mail.
func CreateRequestTx(tx kv.Tx, who buildstore.Person, r buildstore.Request, addRevision bool, now time.Time) (buildstore.Request, error) {
	return createRequest(tx, who, r, addRevision, now)
}

// ChangeStateTx is ChangeState of request id by who at now inside tx, without the e-mail;
// accepting applies the actions as ChangeState does.
func ChangeStateTx(tx kv.Tx, who buildstore.Person, id uint64, c StateChange, now time.Time) error {
	return updateRequestTx(tx, who, id, func(r *buildstore.Request) error {
		return changeState(tx, who, r, c, now)
	})
}

// ChangeReviewStateTx is ChangeReviewState of request id by who at now inside tx, without the
// e-mail.
func ChangeReviewStateTx(tx kv.Tx, who buildstore.Person, id uint64, by buildsvc.Reviewer, newstate, comment string, now time.Time) error {
	if err := reviewStateValid(newstate); err != nil {
		return err
	}
	return updateRequestTx(tx, who, id, func(r *buildstore.Request) error {
		return changeReviewState(tx, who, r, by, newstate, comment, now)
	})
}

// updateRequestTx runs change on request id (as who may see it) and stores the result.
func updateRequestTx(tx kv.Tx, who buildstore.Person, id uint64, change func(*buildstore.Request) error) error {
	r, err := loadRequest(tx, who, id)
	if err != nil {
		return err
	}
	if err := change(&r); err != nil {
		return err
	}
	return buildstore.PutRequest(tx, r)
}
