package cloudsvc

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// checkCreate applies the seed's creation rules 1–8, reporting every broken one: the account's
// standing (rule 2) without a field; the list itself on "entities.instances"; each instance's
// problems on "entities.instances[i]" (unknown and other accounts' instances read the same, so
// nothing leaks about them).
func checkCreate(tx kv.Tx, from cloudstore.Account, ids []uint64, now time.Time) error {
	var p store.Problems
	if from.PastDueSince != nil {
		p.Add("", "Your account has a past-due balance; pay it before transferring services")
	}
	if from.ToSViolation {
		p.Add("", "Your account has an active Terms of Service violation")
	}
	if len(ids) == 0 {
		p.Add("entities.instances", "List at least one instance to transfer")
		return p.Err()
	}
	busy, err := instancesInTransfer(tx, from.ID, now)
	if err != nil {
		return err
	}
	seen := map[uint64]bool{}
	for i, id := range ids {
		field := fmt.Sprintf("entities.instances[%d]", i)
		if seen[id] {
			p.Add(field, fmt.Sprintf("Instance %d is listed more than once", id))
			continue
		}
		seen[id] = true
		in, err := cloudstore.GetInstance(tx, id)
		if errors.Is(err, store.ErrNotFound) || err == nil && in.AccountID != from.ID {
			p.Add(field, fmt.Sprintf("Instance %d was not found on this account", id))
			continue
		} else if err != nil {
			return err
		}
		if why, ok := busy[id]; ok {
			p.Add(field, fmt.Sprintf("%s is already in %s", instanceName(in), why))
		}
		instanceProblems(&p, field, in)
	}
	return p.Err()
}

// instancesInTransfer maps each instance of the account's transfers that are pending, or
// accepted and not completed (rule 4, either kind), to a description of that transfer. The
// account's own index suffices: an instance it owns can only be offered by a transfer it created.
func instancesInTransfer(tx kv.Tx, account uint64, now time.Time) (map[uint64]string, error) {
	list, err := cloudstore.AccountTransfers(tx, account)
	if err != nil {
		return nil, err
	}
	busy := map[uint64]string{}
	for _, t := range list {
		why := ""
		switch t = t.At(now); {
		case t.Status == cloudstore.TransferPending:
			why = "a pending transfer"
		case t.Status == cloudstore.TransferAccepted && !t.Completed:
			why = "an accepted transfer that has not completed"
		default:
			continue
		}
		for _, id := range t.Entities.Instances {
			busy[id] = why
		}
	}
	return busy, nil
}

// instanceProblems applies rules 5–8 to one instance: no balancer, firewall, VLAN or managed
// service, no block storage volume, no shared IP address, no /56, /64 or /116 IPv6 range.
//
// "Assigned to the managed service" is the instance's own attachment (Attached.Managed: the
// account put that instance under the service's monitoring), not the account's subscription:
// POST /account/settings/managed-enable makes the product available to the whole account
// (Settings.Managed) and assigns no instance, so enabling it must not freeze every instance.
func instanceProblems(p *store.Problems, field string, in cloudstore.Instance) {
	a, name := in.Attached, instanceName(in)
	var tied []string
	for _, x := range []struct {
		on   bool
		what string
	}{{a.Balancer, "a balancer"}, {a.Firewall, "a firewall"}, {a.VLAN, "a VLAN"}, {a.Managed, "the managed service"}} {
		if x.on {
			tied = append(tied, x.what)
		}
	}
	if len(tied) > 0 {
		p.Add(field, fmt.Sprintf("%s is assigned to %s", name, joinAnd(tied)))
	}
	if a.Volumes == 1 {
		p.Add(field, name+" has an attached block storage volume")
	} else if a.Volumes > 1 {
		p.Add(field, fmt.Sprintf("%s has %d attached block storage volumes", name, a.Volumes))
	}
	if a.SharedIPs > 0 {
		p.Add(field, name+" has shared IP addresses")
	}
	for _, r := range a.IPv6Ranges {
		if pfx, err := netip.ParsePrefix(r); err != nil || pfx.Bits() == 56 || pfx.Bits() == 64 || pfx.Bits() == 116 {
			p.Add(field, fmt.Sprintf("%s has the IPv6 range %s assigned", name, r))
		}
	}
}

// instanceName is how rules name an instance: "Instance 1 (web-1)".
func instanceName(in cloudstore.Instance) string {
	return fmt.Sprintf("Instance %d (%s)", in.ID, in.Label)
}

func joinAnd(list []string) string {
	if len(list) == 1 {
		return list[0]
	}
	return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
}

// checkAccept applies the seed's accepting rules 1–5 to t as of now; all are 400s without a
// field (accepting has no body). A status problem is reported alone (nothing else matters then).
func checkAccept(tx kv.Tx, t cloudstore.Transfer, from, accepting cloudstore.Account) error {
	switch t.Status {
	case cloudstore.TransferAccepted:
		return store.Problems{{Reason: "This transfer has already been accepted"}}
	case cloudstore.TransferExpired:
		return store.Problems{{Reason: "This transfer has expired"}}
	case cloudstore.TransferCancelled:
		return store.Problems{{Reason: "This transfer has been cancelled"}}
	}
	if accepting.ID == t.From {
		return store.Problems{{Reason: "Users of the account that created this transfer cannot accept it"}}
	}
	var p store.Problems
	if has, err := cloudstore.HasPaymentMethod(tx, accepting.ID); err != nil {
		return err
	} else if !has {
		p.Add("", "Your account needs a payment method before it can accept a transfer")
	}
	if accepting.PastDueSince != nil {
		p.Add("", "Your account has a past-due balance")
	}
	if accepting.Cancelled != nil {
		p.Add("", "Your account is cancelled")
	}
	if accepting.ToSViolation {
		p.Add("", "Your account has an active Terms of Service violation")
	}
	if from.ToSViolation {
		p.Add("", "The sending account has an active Terms of Service violation")
	}
	if err := stillMovable(tx, &p, t); err != nil {
		return err
	}
	return p.Err()
}

// stillMovable applies accepting rules 4 and 5 (and completion's re-check): each instance still
// exists, is still owned by the creating account and still meets rules 5–8.
func stillMovable(tx kv.Tx, p *store.Problems, t cloudstore.Transfer) error {
	for _, id := range t.Entities.Instances {
		in, err := cloudstore.GetInstance(tx, id)
		if errors.Is(err, store.ErrNotFound) || err == nil && in.AccountID != t.From {
			p.Add("", fmt.Sprintf("Instance %d is no longer owned by the sending account", id))
			continue
		} else if err != nil {
			return err
		}
		instanceProblems(p, "", in)
	}
	return nil
}

// completionProblems says why an accepted transfer can no longer complete ("" when it can):
// an account is gone or the receiver was cancelled, or an instance fails stillMovable.
func completionProblems(tx kv.Tx, t cloudstore.Transfer) (string, error) {
	_, err := cloudstore.GetAccount(tx, t.From)
	if errors.Is(err, store.ErrNotFound) {
		return "The sending account no longer exists", nil
	}
	to, err2 := cloudstore.GetAccount(tx, t.To)
	if errors.Is(err2, store.ErrNotFound) || err2 == nil && to.Cancelled != nil {
		return "The receiving account is no longer active", nil
	}
	if err := errors.Join(err, err2); err != nil {
		return "", err
	}
	var p store.Problems
	if err := stillMovable(tx, &p, t); err != nil || len(p) == 0 {
		return "", err
	}
	return p.Error(), nil
}

// failTransfer stores a transfer whose completion failed and tells both accounts (event
// entity_transfer_fail and an e-mail each); their entity_transfer_accept events end failed.
func failTransfer(tx kv.Tx, t cloudstore.Transfer, reason string, now time.Time) error {
	if err := cloudstore.PutTransfer(tx, t); err != nil {
		return err
	}
	var to []cloudstore.Account
	for _, id := range []uint64{t.From, t.To} {
		if _, err := cloudstore.FailOperation(tx, id, "entity_transfer_accept", t.EventEntity()); err != nil {
			return err
		}
		if err := recordTransferEvent(tx, t, id, "entity_transfer_fail", reason, now); err != nil {
			return err
		}
		if a, err := cloudstore.GetAccount(tx, id); err == nil {
			to = append(to, a)
		}
	}
	return mailTransfer(tx, t, now, func(t cloudstore.Transfer) (string, string) {
		return "Service transfer " + t.Token + " failed", fmt.Sprintf(
			"The service transfer %s of %s could not complete: %s.\nNothing was moved; the services stay with the sending account.\n",
			t.Token, instanceList(t), reason)
	}, to...)
}

// transferMail writes the subject and body of one transfer e-mail.
type transferMail func(t cloudstore.Transfer) (subject, body string)

func createdMail(t cloudstore.Transfer) (string, string) {
	return "Service transfer " + t.Token + " created", fmt.Sprintf(
		"Your account created a service transfer of %s.\n\nTransfer token: %s\n\nGive this token to the receiving account; it can be accepted until %s UTC.\n",
		instanceList(t), t.Token, t.Expiry.UTC().Format(time.DateTime))
}

func acceptedMail(t cloudstore.Transfer) (string, string) {
	return "Service transfer " + t.Token + " accepted", fmt.Sprintf(
		"The service transfer %s of %s was accepted. The services move to the receiving account by %s UTC; billing changes hands then.\n",
		t.Token, instanceList(t), t.CompleteAt.UTC().Format(time.DateTime))
}

func cancelledMail(t cloudstore.Transfer) (string, string) {
	return "Service transfer " + t.Token + " cancelled", fmt.Sprintf(
		"The service transfer %s of %s was cancelled. It cannot be acted on again.\n", t.Token, instanceList(t))
}

// mailTransfer sends one e-mail about t to each account's address (the outbox).
func mailTransfer(tx kv.Tx, t cloudstore.Transfer, now time.Time, write transferMail, to ...cloudstore.Account) error {
	subject, body := write(t)
	for _, a := range to {
		if a.Email == "" {
			continue
		}
		m := &outbox.Mail{Time: now, API: "cloud", From: "no-reply@pocketforge.test", To: []string{a.Email}, Subject: subject, Body: body}
		if err := outbox.Send(tx, m); err != nil {
			return err
		}
	}
	return nil
}

func instanceList(t cloudstore.Transfer) string {
	ids := make([]string, len(t.Entities.Instances))
	for i, id := range t.Entities.Instances {
		ids[i] = fmt.Sprint(id)
	}
	if len(ids) == 1 {
		return "instance " + ids[0]
	}
	return "instances " + strings.Join(ids, ", ")
}
