package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// CreateUser adds a user to by's account in one transaction: the user, a single-use
// password-setup link, the welcome e-mail carrying it (to the outbox) and the user_create
// event. parsed are the problems the caller found reading the request; they are reported with
// the user's own and nothing is written. Creating the user, its link and its mail apart would
// leave a user who can never log in when a later step fails.
func (s *Service) CreateUser(by cloudstore.User, in cloudstore.NewUser, parsed store.Problems) (cloudstore.User, error) {
	now := s.clk.Now()
	var u cloudstore.User
	err := s.db.Write(func(tx kv.Tx) error {
		var err error
		if u, err = AddUser(tx, by.AccountID, in, now); withParsed(parsed, err) != nil {
			return withParsed(parsed, err)
		}
		setup, err := issuePasswordSetup(tx, u, now)
		if err != nil {
			return err
		}
		if err := outbox.Send(tx, s.welcomeMail(u, by.Username, setup, now)); err != nil {
			return err
		}
		return record(tx, by, "user_create", userEntity(u), now)
	})
	return u, err
}

// welcomeMail tells a new user how to set their password and log in.
func (s *Service) welcomeMail(u cloudstore.User, by, setup string, now time.Time) *outbox.Mail {
	base := s.externalURL()
	return &outbox.Mail{
		Time: now, API: "cloud", From: "no-reply@pocketforge.test", To: []string{u.Email},
		Subject: "Your new cloud user " + u.Username,
		Body: fmt.Sprintf("Hello %s,\n\n%s created a user for you. Choose your password here (the link works for 7 days):\n\n  %s/oauth/password-setup?token=%s\n\nThen log in to apps through %s/oauth/authorize.\n",
			u.Username, by, base, setup, base),
	}
}

// userEntity is a user as an event's entity.
func userEntity(u cloudstore.User) *cloudstore.EventEntity {
	return &cloudstore.EventEntity{ID: u.Username, Label: u.Username, Type: "user", URL: "/v4/account/users/" + u.Username}
}
