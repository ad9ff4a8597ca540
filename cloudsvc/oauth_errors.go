package cloudsvc

import (
	"errors"

	"github.com/pocketforge/pocketforge/store"
)

// OAuthError is an RFC 6749 error ("invalid_grant", "invalid_client", "invalid_request", …):
// the OAuth endpoints answer in RFC 6749's body, not the API's, so the code travels as it is.
// It wraps ErrInvalid; the API answers invalid_client with 401 and the others with 400.
type OAuthError struct {
	Code        string
	Description string
}

func (e *OAuthError) Error() string { return e.Code + ": " + e.Description }

// Unwrap makes an OAuthError an ErrInvalid.
func (e *OAuthError) Unwrap() error { return store.ErrInvalid }

func oauthErr(code, desc string) error { return &OAuthError{Code: code, Description: desc} }

// ErrLoginFailed means a username/password pair did not match (or its account is cancelled:
// the login page says the same, so it tells nothing about the account).
var ErrLoginFailed = errors.New("invalid username or password")
