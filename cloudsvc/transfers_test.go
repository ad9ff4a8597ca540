package cloudsvc

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// errRollback ends a test transaction without keeping what it wrote.
var errRollback = errors.New("rollback")

// transferWorld is a small cloud for transfer tests: a sender whose instances each break one rule (or
// none), a receiver and another account with a card, and a bare account without one.
type transferWorld struct {
	t                             *testing.T
	db                            *store.DB
	sender, receiver, other, bare cloudstore.Account
	ids                           map[string]uint64 // instance label → id
}

func newTransferWorld(t *testing.T) *transferWorld {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	w := &transferWorld{t: t, db: db, ids: map[string]uint64{}}
	w.must(func(tx kv.Tx) error {
		for _, a := range []struct {
			acct *cloudstore.Account
			name string
		}{{&w.sender, "sender"}, {&w.receiver, "receiver"}, {&w.other, "other"}, {&w.bare, "bare"}} {
			*a.acct = cloudstore.Account{Name: a.name, Email: "billing@" + a.name + ".test"}
			if err := cloudstore.CreateAccount(tx, a.acct); err != nil {
				return err
			}
		}
		for _, in := range []cloudstore.Instance{
			{Label: "free-1"}, {Label: "free-2"}, {Label: "free-3"},
			{Label: "lb", Attached: cloudstore.Attachments{Balancer: true, Firewall: true}},
			{Label: "vlan", Attached: cloudstore.Attachments{VLAN: true}},
			{Label: "managed", Attached: cloudstore.Attachments{Managed: true}},
			{Label: "vol", Attached: cloudstore.Attachments{Volumes: 1}},
			{Label: "vols", Attached: cloudstore.Attachments{Volumes: 2}},
			{Label: "shared", Attached: cloudstore.Attachments{SharedIPs: 1}},
			{Label: "v6", Attached: cloudstore.Attachments{IPv6Ranges: []string{"2600:3c00:e000:100::/56", "2600:3c00::1:0/116"}}},
			{Label: "v6-48", Attached: cloudstore.Attachments{IPv6Ranges: []string{"2600:3c02::/48"}}},
		} {
			if err := w.addInstance(tx, in, w.sender.ID); err != nil {
				return err
			}
		}
		if err := w.addInstance(tx, cloudstore.Instance{Label: "theirs"}, w.receiver.ID); err != nil {
			return err
		}
		return errors.Join(putCard(tx, w.receiver.ID), putCard(tx, w.other.ID))
	})
	return w
}

func (w *transferWorld) addInstance(tx kv.Tx, in cloudstore.Instance, account uint64) error {
	in.AccountID, in.Created = account, t0.Add(-24*time.Hour)
	err := cloudstore.CreateInstance(tx, &in)
	w.ids[in.Label] = in.ID
	return err
}

// putCard gives the account an active payment method, straight in the store.
func putCard(tx kv.Tx, account uint64) error {
	id, err := store.NextID(tx, store.CloudPaymentMethods)
	if err != nil {
		return err
	}
	pm := cloudstore.PaymentMethod{ID: id, AccountID: account, Type: "credit_card", IsDefault: true, Created: t0, CardType: "Visa", LastFour: "4242", Expiry: "12/2099", Active: true}
	if err := store.Put(tx, store.CloudPaymentMethods, store.Itob(id), pm); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountPaymentMethods, store.Itob(account), store.Itob(id))
}

func (w *transferWorld) must(fn func(tx kv.Tx) error) {
	w.t.Helper()
	if err := w.db.Write(fn); err != nil {
		w.t.Fatal(err)
	}
}

func (w *transferWorld) view(fn func(tx kv.Tx) error) {
	w.t.Helper()
	if err := w.db.View(fn); err != nil {
		w.t.Fatal(err)
	}
}

func (w *transferWorld) list(labels ...string) []uint64 {
	out := make([]uint64, len(labels))
	for i, l := range labels {
		out[i] = w.ids[l]
	}
	return out
}

// create offers the labelled instances of the sender at now.
func (w *transferWorld) create(now time.Time, labels ...string) (tr cloudstore.Transfer) {
	w.t.Helper()
	w.must(func(tx kv.Tx) (err error) {
		tr, err = createTransfer(tx, cloudstore.TransferService, w.sender, w.list(labels...), now)
		return err
	})
	return tr
}

// accept has the account accept the transfer at now, re-reading both in the transaction.
func (w *transferWorld) accept(token string, by uint64, now time.Time) error {
	return w.db.Write(func(tx kv.Tx) error {
		tr, err := cloudstore.GetTransfer(tx, token)
		if err != nil {
			return err
		}
		acct, err := cloudstore.GetAccount(tx, by)
		if err != nil {
			return err
		}
		if tr, err = acceptTransfer(tx, tr, acct, now, 5*time.Second); err != nil {
			return err
		}
		return recordAccepted(tx, cloudstore.User{AccountID: by, Username: "taker"}, tr, now)
	})
}

func (w *transferWorld) cancel(token string, by uint64, now time.Time) error {
	return w.db.Write(func(tx kv.Tx) error {
		_, err := cancelTransfer(tx, cloudstore.Transfer{Token: token}, by, now)
		return err
	})
}

func (w *transferWorld) job(now time.Time) {
	w.t.Helper()
	w.must(func(tx kv.Tx) error { return transferJob(tx, now) })
}

func (w *transferWorld) get(token string) (tr cloudstore.Transfer) {
	w.t.Helper()
	w.view(func(tx kv.Tx) (err error) { tr, err = cloudstore.GetTransfer(tx, token); return err })
	return tr
}

// reasons lists the reasons of a Problems error ("" for nil; the error text for anything else).
func reasons(err error) string {
	var p store.Problems
	if errors.As(err, &p) {
		var out []string
		for _, x := range p {
			out = append(out, x.Reason)
		}
		return strings.Join(out, " | ")
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return ""
}

// TestTransferExpires: pending → expired after 24 hours, by read and by the job alike; an
// expired transfer can be neither accepted nor cancelled, and only its creator still sees it.
func TestTransferExpires(t *testing.T) {
	w := newTransferWorld(t)
	tr := w.create(t0, "free-1")
	if tr.Expiry != t0.Add(24*time.Hour) || tr.Status != cloudstore.TransferPending || len(tr.Token) != 36 || tr.Token != strings.ToLower(tr.Token) {
		t.Fatalf("created %+v", tr)
	}
	before, at := tr.Expiry.Add(-time.Second), tr.Expiry
	w.view(func(tx kv.Tx) error {
		if due, _ := transfersDue(tx, before); due || tr.At(before).Status != cloudstore.TransferPending {
			t.Error("due or expired before its expiry")
		}
		if due, _ := transfersDue(tx, at); !due || tr.At(at).Status != cloudstore.TransferExpired || tr.At(at).Updated != at {
			t.Error("not due or not expired at its expiry")
		}
		if _, err := viewTransfer(tx, tr.Token, w.other.ID, at); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an expired transfer is visible to another account: %v", err)
		}
		return nil
	})
	w.job(at.Add(time.Second))
	got := w.get(tr.Token)
	if got.Status != cloudstore.TransferExpired || got.Updated != at {
		t.Fatalf("after the job: %+v", got)
	}
	w.view(func(tx kv.Tx) error {
		if due, _ := transfersDue(tx, at.Add(time.Hour)); due {
			t.Error("still due after the job")
		}
		return checkEvents(t, tx, w.sender.ID, "entity_transfer_stale")
	})
	if err := w.cancel(tr.Token, w.sender.ID, at); reasons(err) != "Expired transfers cannot be cancelled" {
		t.Errorf("cancel: %v", err)
	}
	if err := w.accept(tr.Token, w.sender.ID, at); reasons(err) != "This transfer has expired" {
		t.Errorf("accept by the creator: %v", err)
	}
	if err := w.accept(tr.Token, w.receiver.ID, at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("accept by another account: %v", err)
	}
}

// checkEvents compares the account's event actions, oldest first.
func checkEvents(t *testing.T, tx kv.Tx, account uint64, want ...string) error {
	t.Helper()
	events, err := cloudstore.AccountEvents(tx, account)
	var got []string
	for _, e := range events {
		got = append(got, e.Action)
		if e.Entity == nil || e.Entity.Type != "entity_transfer" || !strings.HasPrefix(e.Entity.URL, "/v4/account/service-transfers/") {
			t.Errorf("event entity %+v", e.Entity)
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("account %d events %v, want %v", account, got, want)
	}
	return err
}

// TestTransferCompletes: pending → accepted → completed after the delay; the instances, their
// grantable-entity index and their billing history move; the e-mails went out.
func TestTransferCompletes(t *testing.T) {
	w := newTransferWorld(t)
	tr := w.create(t0, "free-1", "free-2")
	acceptAt := t0.Add(time.Hour)
	if err := w.accept(tr.Token, w.receiver.ID, acceptAt); err != nil {
		t.Fatal(err)
	}
	got := w.get(tr.Token)
	if got.Status != cloudstore.TransferAccepted || got.To != w.receiver.ID || !got.AcceptedAt.Equal(acceptAt) ||
		!got.CompleteAt.Equal(acceptAt.Add(5*time.Second)) || got.Completed {
		t.Fatalf("accepted: %+v", got)
	}
	w.job(acceptAt.Add(4 * time.Second))
	if w.get(tr.Token).Completed {
		t.Fatal("completed before the delay")
	}
	// the acceptance is an operation under way until the instances move (issue 33)
	acceptance(t, w, w.sender.ID, acceptAt.Add(4*time.Second), cloudstore.EventStarted)
	acceptance(t, w, w.receiver.ID, acceptAt.Add(6*time.Second), cloudstore.EventFinished)
	doneAt := acceptAt.Add(6 * time.Second)
	w.job(doneAt)
	w.view(func(tx kv.Tx) error {
		got, _ := cloudstore.GetTransfer(tx, tr.Token)
		if got.Status != cloudstore.TransferAccepted || !got.Completed || !got.Updated.Equal(doneAt) {
			t.Errorf("completed: %+v", got)
		}
		mine, _ := cloudstore.AccountInstances(tx, w.sender.ID)
		theirs, _ := cloudstore.AccountInstances(tx, w.receiver.ID)
		if len(mine) != 9 || len(theirs) != 3 {
			t.Errorf("sender has %d, receiver %d instances", len(mine), len(theirs))
		}
		for _, id := range w.list("free-1", "free-2") {
			in, _ := cloudstore.GetInstance(tx, id)
			o := in.Owners
			if in.AccountID != w.receiver.ID || len(o) != 2 || o[0].AccountID != w.sender.ID || o[0].To == nil ||
				!o[0].To.Equal(doneAt) || o[1].AccountID != w.receiver.ID || !o[1].From.Equal(doneAt) || o[1].To != nil {
				t.Errorf("instance %d: account %d owners %+v", id, in.AccountID, o)
			}
		}
		for _, acct := range []uint64{w.sender.ID, w.receiver.ID} {
			if list, _ := cloudstore.AccountTransfers(tx, acct); len(list) != 1 || list[0].Token != tr.Token {
				t.Errorf("account %d transfers %+v", acct, list)
			}
		}
		if due, _ := transfersDue(tx, doneAt.Add(time.Hour)); due {
			t.Error("still due after completion")
		}
		mails, _ := outbox.List(tx, "", 0)
		var subjects []string
		for _, m := range mails {
			subjects = append(subjects, m.To[0]+": "+strings.Fields(m.Subject)[3])
		}
		want := "billing@receiver.test: accepted billing@sender.test: accepted billing@sender.test: created"
		if strings.Join(subjects, " ") != want || !strings.Contains(mails[2].Body, tr.Token) {
			t.Errorf("mails %v, want %s", subjects, want)
		}
		return nil
	})
	// The moved instances are the receiver's to offer now.
	w.must(func(tx kv.Tx) error {
		receiver, _ := cloudstore.GetAccount(tx, w.receiver.ID)
		_, err := createTransfer(tx, cloudstore.TransferEntity, receiver, w.list("free-1"), doneAt)
		return err
	})
}

// TestTransferCompletionFails: an instance that can no longer move fails the whole transfer,
// which becomes cancelled (the seed's statuses) and frees its instances.
func TestTransferCompletionFails(t *testing.T) {
	w := newTransferWorld(t)
	tr := w.create(t0, "free-1", "free-2")
	if err := w.accept(tr.Token, w.receiver.ID, t0); err != nil {
		t.Fatal(err)
	}
	w.must(func(tx kv.Tx) error { // a firewall is attached before completion
		in, _ := cloudstore.GetInstance(tx, w.ids["free-2"])
		in.Attached.Firewall = true
		return cloudstore.PutInstance(tx, in)
	})
	w.job(t0.Add(time.Minute))
	got := w.get(tr.Token)
	if got.Status != cloudstore.TransferCancelled || !got.Failed || got.Completed {
		t.Fatalf("failed: %+v", got)
	}
	w.view(func(tx kv.Tx) error {
		if in, _ := cloudstore.GetInstance(tx, w.ids["free-1"]); in.AccountID != w.sender.ID || len(in.Owners) != 1 {
			t.Errorf("free-1 moved: %+v", in)
		}
		mails, _ := outbox.List(tx, "billing@receiver.test", 1)
		if len(mails) != 1 || !strings.Contains(mails[0].Body, "is assigned to a firewall") {
			t.Errorf("failure mail %+v", mails)
		}
		if _, err := viewTransfer(tx, tr.Token, w.receiver.ID, t0.Add(time.Minute)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the receiver still sees a cancelled transfer: %v", err)
		}
		return errors.Join(checkEvents(t, tx, w.sender.ID, "entity_transfer_accept entity_transfer_fail"),
			checkEvents(t, tx, w.receiver.ID, "entity_transfer_accept entity_transfer_fail"))
	})
	acceptance(t, w, w.sender.ID, t0.Add(time.Minute), cloudstore.EventFailed)
	acceptance(t, w, w.receiver.ID, t0.Add(time.Minute), cloudstore.EventFailed)
	w.create(t0.Add(time.Minute), "free-1") // free again
}

// TestConcurrentAccept: of many simultaneous accepts exactly one wins, and the instances move
// once.
func TestConcurrentAccept(t *testing.T) {
	w := newTransferWorld(t)
	tr := w.create(t0, "free-1", "free-2")
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		by := w.receiver.ID
		if i%2 == 1 {
			by = w.other.ID
		}
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = w.accept(tr.Token, by, t0) }()
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		if err == nil {
			wins++
		}
	}
	if wins != 1 {
		t.Fatalf("%d accepts succeeded: %v", wins, errs)
	}
	winner := w.get(tr.Token).To
	w.job(t0.Add(time.Minute))
	w.job(t0.Add(2 * time.Minute))
	w.view(func(tx kv.Tx) error {
		for _, id := range w.list("free-1", "free-2") {
			if in, _ := cloudstore.GetInstance(tx, id); in.AccountID != winner || len(in.Owners) != 2 {
				t.Errorf("instance %d: account %d, owners %+v", id, in.AccountID, in.Owners)
			}
		}
		return nil
	})
}

// acceptance checks the status at now of account's entity_transfer_accept event.
func acceptance(t *testing.T, w *transferWorld, account uint64, now time.Time, want string) {
	t.Helper()
	w.view(func(tx kv.Tx) error {
		events, err := cloudstore.AccountEvents(tx, account)
		for _, e := range events {
			if e.Action == "entity_transfer_accept" {
				if got := e.At(now).Status; got != want {
					t.Errorf("account %d: entity_transfer_accept %s, want %s", account, got, want)
				}
				return err
			}
		}
		t.Errorf("account %d: no entity_transfer_accept in %+v", account, events)
		return err
	})
}
