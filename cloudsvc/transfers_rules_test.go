package cloudsvc

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// TestCreateTransferRules: each of the seed's creation rules 1–8, each problem on its field, and
// several broken rules at once. Every case runs in a transaction that is rolled back.
func TestCreateTransferRules(t *testing.T) {
	prob := func(field, reason string) store.Problem { return store.Problem{Field: field, Reason: reason} }
	w := newTransferWorld(t)
	id := func(label string) uint64 { return w.ids[label] }
	past := t0.Add(-48 * time.Hour)
	cases := []struct {
		name   string
		sender func(a *cloudstore.Account)
		ids    []uint64
		want   store.Problems
	}{
		{name: "free instances", ids: w.list("free-1", "free-2", "v6-48")},
		{name: "rule 1: nothing listed", ids: nil,
			want: store.Problems{prob("entities.instances", "List at least one instance to transfer")}},
		{name: "listed twice", ids: w.list("free-1", "free-1"),
			want: store.Problems{prob("entities.instances[1]", fmt.Sprintf("Instance %d is listed more than once", id("free-1")))}},
		{name: "rule 2: past due", sender: func(a *cloudstore.Account) { a.PastDueSince = &past }, ids: w.list("free-1"),
			want: store.Problems{prob("", "Your account has a past-due balance; pay it before transferring services")}},
		{name: "rule 2: terms of service", sender: func(a *cloudstore.Account) { a.ToSViolation = true }, ids: w.list("free-1"),
			want: store.Problems{prob("", "Your account has an active Terms of Service violation")}},
		{name: "rule 3: unknown instance", ids: []uint64{999},
			want: store.Problems{prob("entities.instances[0]", "Instance 999 was not found on this account")}},
		{name: "rule 3: another account's instance", ids: w.list("theirs"),
			want: store.Problems{prob("entities.instances[0]", fmt.Sprintf("Instance %d was not found on this account", id("theirs")))}},
		{name: "rule 5: balancer and firewall", ids: w.list("lb"),
			want: store.Problems{prob("entities.instances[0]", fmt.Sprintf("Instance %d (lb) is assigned to a balancer and a firewall", id("lb")))}},
		{name: "rule 5: VLAN", ids: w.list("vlan"),
			want: store.Problems{prob("entities.instances[0]", fmt.Sprintf("Instance %d (vlan) is assigned to a VLAN", id("vlan")))}},
		{name: "rule 5: managed instance", ids: w.list("managed"),
			want: store.Problems{prob("entities.instances[0]", fmt.Sprintf("Instance %d (managed) is assigned to the managed service", id("managed")))}},
		{name: "rule 5: an account with the managed service moves its other instances", sender: func(a *cloudstore.Account) { a.Settings.Managed = true },
			ids: w.list("free-1")},
		{name: "rule 5: an account with the managed service keeps its managed instance", sender: func(a *cloudstore.Account) { a.Settings.Managed = true },
			ids:  w.list("free-1", "managed"),
			want: store.Problems{prob("entities.instances[1]", fmt.Sprintf("Instance %d (managed) is assigned to the managed service", id("managed")))}},
		{name: "rule 6: a volume", ids: w.list("vol"),
			want: store.Problems{prob("entities.instances[0]", fmt.Sprintf("Instance %d (vol) has an attached block storage volume", id("vol")))}},
		{name: "rule 6: volumes", ids: w.list("vols"),
			want: store.Problems{prob("entities.instances[0]", fmt.Sprintf("Instance %d (vols) has 2 attached block storage volumes", id("vols")))}},
		{name: "rule 7: shared IP", ids: w.list("shared"),
			want: store.Problems{prob("entities.instances[0]", fmt.Sprintf("Instance %d (shared) has shared IP addresses", id("shared")))}},
		{name: "rule 8: /56 and /116 ranges", ids: w.list("v6"), want: store.Problems{
			prob("entities.instances[0]", fmt.Sprintf("Instance %d (v6) has the IPv6 range 2600:3c00:e000:100::/56 assigned", id("v6"))),
			prob("entities.instances[0]", fmt.Sprintf("Instance %d (v6) has the IPv6 range 2600:3c00::1:0/116 assigned", id("v6")))}},
		{name: "all at once", sender: func(a *cloudstore.Account) { a.ToSViolation = true }, ids: []uint64{id("free-1"), id("vol"), 999, id("shared")}, want: store.Problems{
			prob("", "Your account has an active Terms of Service violation"),
			prob("entities.instances[1]", fmt.Sprintf("Instance %d (vol) has an attached block storage volume", id("vol"))),
			prob("entities.instances[2]", "Instance 999 was not found on this account"),
			prob("entities.instances[3]", fmt.Sprintf("Instance %d (shared) has shared IP addresses", id("shared")))}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sender := w.sender
			if c.sender != nil {
				c.sender(&sender)
			}
			err := w.db.Write(func(tx kv.Tx) error {
				_, err := createTransfer(tx, cloudstore.TransferService, sender, c.ids, t0)
				return errors.Join(err, errRollback)
			})
			var got store.Problems
			errors.As(err, &got)
			if fmt.Sprint(got) != fmt.Sprint(c.want) || !errors.Is(err, errRollback) {
				t.Errorf("got %v\nwant %v", err, c.want)
			}
		})
	}
}

// TestCreateTransferRule4: an instance in a pending transfer, or an accepted one that has not
// completed (of either kind), cannot be offered again; expired, cancelled and failed transfers
// free it.
func TestCreateTransferRule4(t *testing.T) {
	w := newTransferWorld(t)
	w.create(t0, "free-1")
	accepted := w.create(t0, "free-2")
	if err := w.accept(accepted.Token, w.receiver.ID, t0); err != nil {
		t.Fatal(err)
	}
	var entity cloudstore.Transfer
	w.must(func(tx kv.Tx) (err error) {
		entity, err = createTransfer(tx, cloudstore.TransferEntity, w.sender, w.list("free-3"), t0)
		return err
	})
	name := func(label string) string { return fmt.Sprintf("Instance %d (%s)", w.ids[label], label) }
	cases := []struct {
		name  string
		label string
		at    time.Duration
		want  string
	}{
		{"pending", "free-1", time.Second, name("free-1") + " is already in a pending transfer"},
		{"pending entity transfer", "free-3", time.Second, name("free-3") + " is already in a pending transfer"},
		{"accepted, not completed", "free-2", time.Second, name("free-2") + " is already in an accepted transfer that has not completed"},
		{"expired (read before the job ran)", "free-1", 25 * time.Hour, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := w.db.Write(func(tx kv.Tx) error {
				if _, err := createTransfer(tx, cloudstore.TransferService, w.sender, w.list(c.label), t0.Add(c.at)); err != nil {
					return err
				}
				return errRollback
			})
			if got := reasons(err); got != c.want && !(c.want == "" && errors.Is(err, errRollback)) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
	if err := w.cancel(entity.Token, w.sender.ID, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	w.create(t0.Add(2*time.Second), "free-3") // cancelled: free again
}

// TestAcceptTransferRules: each of the seed's accepting rules 1–5. Every case creates a fresh
// transfer of free-1 and free-2 at t0 and rolls back.
func TestAcceptTransferRules(t *testing.T) {
	w := newTransferWorld(t)
	past := t0.Add(-48 * time.Hour)
	setAccount := func(id uint64, fn func(a *cloudstore.Account)) func(tx kv.Tx) error {
		return func(tx kv.Tx) error {
			a, err := cloudstore.GetAccount(tx, id)
			fn(&a)
			return errors.Join(err, cloudstore.PutAccount(tx, a))
		}
	}
	setInstance := func(label string, fn func(in *cloudstore.Instance)) func(tx kv.Tx) error {
		return func(tx kv.Tx) error {
			in, err := cloudstore.GetInstance(tx, w.ids[label])
			fn(&in)
			return errors.Join(err, cloudstore.PutInstance(tx, in))
		}
	}
	free2 := fmt.Sprintf("Instance %d (free-2)", w.ids["free-2"])
	cases := []struct {
		name  string
		setup func(tx kv.Tx) error
		by    uint64
		at    time.Duration
		want  string // reasons, or "404"
	}{
		{name: "accepted", by: w.receiver.ID},
		{name: "rule 1: expired, by the creator", by: w.sender.ID, at: 24 * time.Hour, want: "This transfer has expired"},
		{name: "rule 1: expired, by another account", by: w.receiver.ID, at: 24 * time.Hour, want: "404"},
		{name: "the creating account cannot accept", by: w.sender.ID, want: "Users of the account that created this transfer cannot accept it"},
		{name: "rule 2: no payment method", by: w.bare.ID, want: "Your account needs a payment method before it can accept a transfer"},
		{name: "rule 2: past due", by: w.receiver.ID, setup: setAccount(w.receiver.ID, func(a *cloudstore.Account) { a.PastDueSince = &past }),
			want: "Your account has a past-due balance"},
		{name: "rule 3: receiver's terms of service", by: w.receiver.ID, setup: setAccount(w.receiver.ID, func(a *cloudstore.Account) { a.ToSViolation = true }),
			want: "Your account has an active Terms of Service violation"},
		{name: "rule 3: sender's terms of service", by: w.receiver.ID, setup: setAccount(w.sender.ID, func(a *cloudstore.Account) { a.ToSViolation = true }),
			want: "The sending account has an active Terms of Service violation"},
		{name: "rule 4: no longer the sender's", by: w.receiver.ID, setup: func(tx kv.Tx) error {
			in, _ := cloudstore.GetInstance(tx, w.ids["free-1"])
			_, err := cloudstore.MoveInstance(tx, in, w.other.ID, t0)
			return err
		}, want: fmt.Sprintf("Instance %d is no longer owned by the sending account", w.ids["free-1"])},
		{name: "rule 5: a firewall since", by: w.receiver.ID, setup: setInstance("free-2", func(in *cloudstore.Instance) { in.Attached.Firewall = true }),
			want: free2 + " is assigned to a firewall"},
		{name: "rule 5: a volume and a shared IP since", by: w.receiver.ID, setup: setInstance("free-2", func(in *cloudstore.Instance) { in.Attached.Volumes, in.Attached.SharedIPs = 1, 1 }),
			want: free2 + " has an attached block storage volume | " + free2 + " has shared IP addresses"},
		{name: "several at once", by: w.bare.ID, setup: setAccount(w.bare.ID, func(a *cloudstore.Account) { a.ToSViolation = true }),
			want: "Your account needs a payment method before it can accept a transfer | Your account has an active Terms of Service violation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := w.db.Write(func(tx kv.Tx) error {
				tr, err := createTransfer(tx, cloudstore.TransferService, w.sender, w.list("free-1", "free-2"), t0)
				if err != nil {
					return err
				}
				if c.setup != nil {
					if err := c.setup(tx); err != nil {
						return err
					}
				}
				by, _ := cloudstore.GetAccount(tx, c.by)
				if _, err = acceptTransfer(tx, tr, by, t0.Add(c.at), time.Second); err != nil {
					return err
				}
				if again, _ := cloudstore.GetTransfer(tx, tr.Token); again.Status != cloudstore.TransferAccepted || again.To != c.by {
					t.Errorf("after accepting: %+v", again)
				}
				_, err = acceptTransfer(tx, tr, by, t0.Add(c.at), time.Second)
				if reasons(err) != "This transfer has already been accepted" {
					t.Errorf("a second accept: %v", err)
				}
				return errRollback
			})
			got := reasons(err)
			switch {
			case errors.Is(err, store.ErrNotFound):
				got = "404"
			case errors.Is(err, errRollback):
				got = ""
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestTransferVisibility: the seed's visibility matrix, per status and account.
func TestTransferVisibility(t *testing.T) {
	const from, to, bystander = 1, 2, 3
	cases := []struct {
		status string
		want   [3]bool // from, to, bystander
	}{
		{cloudstore.TransferPending, [3]bool{true, true, true}},
		{cloudstore.TransferAccepted, [3]bool{true, true, false}},
		{cloudstore.TransferCancelled, [3]bool{true, false, false}},
		{cloudstore.TransferExpired, [3]bool{true, false, false}},
	}
	for _, c := range cases {
		t.Run(c.status, func(t *testing.T) {
			tr := cloudstore.Transfer{From: from, Status: c.status}
			if c.status != cloudstore.TransferPending {
				tr.To = to // an accepted transfer's receiver; ignored for the others
			}
			for i, acct := range []uint64{from, to, bystander} {
				if got := visibleTo(tr, acct); got != c.want[i] {
					t.Errorf("account %d: visible %v, want %v", acct, got, c.want[i])
				}
			}
		})
	}
}

// TestCancelTransfer: only the creating account cancels, and only while pending.
func TestCancelTransfer(t *testing.T) {
	w := newTransferWorld(t)
	pending := w.create(t0, "free-1")
	accepted := w.create(t0, "free-2")
	if err := w.accept(accepted.Token, w.receiver.ID, t0); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, token string
		by          uint64
		want        string // reasons, or "404" / "403"
	}{
		{"another account cannot cancel a pending transfer", pending.Token, w.other.ID, "403"},
		{"the creator cancels", pending.Token, w.sender.ID, ""},
		{"cancelled cannot be cancelled again", pending.Token, w.sender.ID, "This transfer is already cancelled"},
		{"cancelled is invisible to others", pending.Token, w.other.ID, "404"},
		{"accepted cannot be cancelled", accepted.Token, w.sender.ID, "Accepted transfers cannot be cancelled"},
		{"nor by the receiver", accepted.Token, w.receiver.ID, "403"},
		{"accepted is invisible to others", accepted.Token, w.other.ID, "404"},
		{"unknown token", "00000000-0000-4000-8000-000000000000", w.sender.ID, "404"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := w.cancel(c.token, c.by, t0.Add(time.Second))
			got := reasons(err)
			switch {
			case errors.Is(err, store.ErrNotFound):
				got = "404"
			case errors.Is(err, store.ErrForbidden):
				got = "403"
			}
			if got != c.want {
				t.Errorf("got %q (%v), want %q", got, err, c.want)
			}
		})
	}
	if err := w.accept(pending.Token, w.receiver.ID, t0.Add(time.Second)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("accepting a cancelled transfer: %v", err)
	}
	if err := w.accept(pending.Token, w.sender.ID, t0.Add(time.Second)); reasons(err) != "This transfer has been cancelled" {
		t.Errorf("the creator accepting its cancelled transfer: %v", err)
	}
	w.view(func(tx kv.Tx) error {
		mails, _ := outbox.List(tx, "billing@sender.test", 1)
		if len(mails) != 1 || !strings.HasSuffix(mails[0].Subject, "cancelled") {
			t.Errorf("cancel mail %+v", mails)
		}
		return nil
	})
}
