package cloudsvc_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// TestCreateUser: a user comes with a password-setup link, the welcome mail carrying it and a
// user_create event, all in one transaction; any problem — the user's own or one the caller
// found reading the request — writes none of them.
func TestCreateUser(t *testing.T) {
	cases := []struct {
		name   string
		in     cloudstore.NewUser
		parsed store.Problems
		want   string // problems; "" for success
	}{
		{name: "restricted", in: cloudstore.NewUser{Username: "erin", Email: "erin@example.com", Restricted: true}},
		{name: "unrestricted", in: cloudstore.NewUser{Username: "frank", Email: "frank@example.com"}},
		{name: "bad username", in: cloudstore.NewUser{Username: "ab", Email: "ab@example.com"},
			want: "username: Username must be between 3 and 32 characters"},
		{name: "taken username", in: cloudstore.NewUser{Username: "carol", Email: "c2@example.com"},
			want: "username: Username is already taken"},
		{name: "a parsing problem alone writes nothing", in: cloudstore.NewUser{Username: "gina", Email: "gina@example.com"},
			parsed: store.Problems{{Field: "restricted", Reason: "Must be a boolean"}}, want: "restricted: Must be a boolean"},
		{name: "parsing and own problems together", in: cloudstore.NewUser{Username: "hank", Email: "not-an-address"},
			parsed: store.Problems{{Field: "restricted", Reason: "Must be a boolean"}}, want: "restricted: Must be a boolean; email: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			demo := w.user("demo")
			before := count(w.actions(demo.AccountID), "user_create")
			u, err := w.svc.CreateUser(demo, c.in, c.parsed)
			if c.want != "" {
				if got := problems(err); !errors.Is(err, store.ErrInvalid) || !strings.HasPrefix(got, c.want) {
					t.Fatalf("problems %q (%v), want prefix %q", got, err, c.want)
				}
				if c.in.Username != "carol" && w.exists(c.in.Username) {
					t.Error("the user was stored")
				}
				if n := len(w.mails(c.in.Email)); n != 0 {
					t.Errorf("%d mails sent", n)
				}
				if n := count(w.actions(demo.AccountID), "user_create"); n != before {
					t.Errorf("user_create events: %d, want %d", n, before)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			stored := w.user(c.in.Username)
			if stored.AccountID != demo.AccountID || stored.Restricted != c.in.Restricted || u.Username != c.in.Username {
				t.Errorf("stored %+v, returned %+v", stored, u)
			}
			if c.in.Restricted && (stored.Grants == nil || stored.Grants.AccountAccess() != "") {
				t.Errorf("a restricted user starts with no grants: %+v", stored.Grants)
			}
			mails := w.mails(c.in.Email)
			if len(mails) != 1 || mails[0].Subject != "Your new cloud user "+c.in.Username {
				t.Fatalf("mails %+v", mails)
			}
			_, link, ok := strings.Cut(mails[0].Body, "http://pocketforge.test/oauth/password-setup?token=")
			token, _, _ := strings.Cut(link, "\n")
			if !ok || token == "" {
				t.Fatalf("no setup link in %q", mails[0].Body)
			}
			if pending, err := w.svc.PendingSetup(token); err != nil || pending.Username != c.in.Username {
				t.Errorf("the mailed link: %+v, %v", pending, err)
			}
			if n := count(w.actions(demo.AccountID), "user_create"); n != before+1 {
				t.Errorf("user_create events: %d, want %d", n, before+1)
			}
		})
	}
}

// TestDeleteUser: nobody deletes themselves, the account keeps an unrestricted user (keepsAdmin,
// whoever asks), and a deleted user is logged out at once.
func TestDeleteUser(t *testing.T) {
	cases := []struct {
		name, by, target string
		kind             error  // nil: deleted
		reason           string // the refusal's message
	}{
		{name: "self", by: "demo", target: "demo", kind: store.ErrInvalid, reason: "You cannot delete your own user"},
		{name: "the last unrestricted user", by: "carol", target: "demo", kind: store.ErrInvalid,
			reason: "An account must keep at least one unrestricted user"},
		{name: "another account's user", by: "demo", target: "dave", kind: store.ErrNotFound},
		{name: "unknown", by: "demo", target: "nobody", kind: store.ErrNotFound},
		{name: "a restricted user", by: "demo", target: "carol"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			by := w.user(c.by)
			before := count(w.actions(by.AccountID), "user_delete")
			if _, err := w.svc.Authenticate(carolToken); err != nil {
				t.Fatalf("carol's token before: %v", err)
			}
			err := w.svc.DeleteUser(by, c.target)
			if c.kind != nil {
				if !errors.Is(err, c.kind) || c.reason != "" && err.Error() != c.reason {
					t.Fatalf("err %v, want %v %q", err, c.kind, c.reason)
				}
				if c.target != "nobody" && !w.exists(c.target) {
					t.Error("the user was deleted")
				}
				if n := count(w.actions(by.AccountID), "user_delete"); n != before {
					t.Errorf("user_delete events: %d, want %d", n, before)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w.exists(c.target) {
				t.Error("the user is still stored")
			}
			if _, err := w.svc.Authenticate(carolToken); !errors.Is(err, cloudstore.ErrBadToken) {
				t.Errorf("carol's token after: %v, want ErrBadToken", err)
			}
			if n := count(w.actions(by.AccountID), "user_delete"); n != before+1 {
				t.Errorf("user_delete events: %d, want %d", n, before+1)
			}
		})
	}
}

// carolToken is carol's demo token (fixtures/data/cloud.json).
const carolToken = "pfdemo-carol-0000000000000000000000000000000000000000000000000000"
