package cloudsvc

import (
	"regexp"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// usernamePattern is the real service's rule: letters, digits, '-' and '_', starting and ending
// with a letter or digit, no two '-'/'_' in a row.
var usernamePattern = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9]|[-_][a-zA-Z0-9])*$`)

// checkUsername adds the problems of a proposed username.
func checkUsername(p *store.Problems, name string) {
	switch {
	case len(name) < 3 || len(name) > 32:
		p.Add("username", "Username must be between 3 and 32 characters")
	case !usernamePattern.MatchString(name):
		p.Add("username", "Username may only contain letters, numbers, dashes and underscores, must start and end with a letter or number, and cannot have two dashes or underscores in a row")
	}
}

// AddUser checks and stores a new user of account inside the caller's transaction: the
// fixtures load the demo users in theirs, and Service.CreateUser adds the setup link, the
// welcome mail and the event around it. A restricted user starts with no grants.
func AddUser(tx kv.Tx, account uint64, in cloudstore.NewUser, now time.Time) (cloudstore.User, error) {
	var p store.Problems
	checkUsername(&p, in.Username)
	checkEmail(&p, in.Email)
	if len(p) == 0 {
		if _, err := cloudstore.GetUser(tx, in.Username); err == nil {
			p.Add("username", "Username is already taken")
		}
	}
	if err := p.Err(); err != nil {
		return cloudstore.User{}, err
	}
	uid, err := store.NextID(tx, store.CloudUsers)
	if err != nil {
		return cloudstore.User{}, err
	}
	u := cloudstore.User{UID: uid, Username: in.Username, AccountID: account, Email: in.Email, Restricted: in.Restricted, Created: now}
	if in.Restricted {
		u.Grants = &cloudstore.Grants{}
	}
	if in.Password != "" {
		if err := hashPassword(&u, in.Password); err != nil {
			return cloudstore.User{}, err
		}
	}
	if in.PasswordBcrypt != "" {
		u.PasswordHash = []byte(in.PasswordBcrypt)
	}
	return u, cloudstore.PutUser(tx, u)
}

// updateUser applies up to the user. Renaming moves the record and its tokens; becoming
// restricted starts with no grants; becoming unrestricted drops the grants.
func updateUser(tx kv.Tx, u cloudstore.User, up cloudstore.UserUpdate) (cloudstore.User, error) {
	var p store.Problems
	if up.Username != nil {
		checkUsername(&p, *up.Username)
		if other, err := cloudstore.GetUser(tx, *up.Username); len(p) == 0 && err == nil && !strings.EqualFold(other.Username, u.Username) {
			p.Add("username", "Username is already taken")
		}
	}
	if up.Email != nil {
		checkEmail(&p, *up.Email)
	}
	if err := p.Err(); err != nil {
		return u, err
	}
	if up.Email != nil {
		u.Email = *up.Email
	}
	if up.Restricted != nil && *up.Restricted != u.Restricted {
		u.Restricted = *up.Restricted
		u.Grants = nil
		if u.Restricted {
			u.Grants = &cloudstore.Grants{}
		}
	}
	if up.Username != nil && *up.Username != u.Username {
		if err := cloudstore.RenameUser(tx, u, *up.Username); err != nil {
			return u, err
		}
		u.Username = *up.Username
		return u, nil
	}
	return u, cloudstore.PutUser(tx, u)
}
