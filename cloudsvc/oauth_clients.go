package cloudsvc

import (
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// AccountClients lists account's OAuth clients.
func (s *Service) AccountClients(account uint64) ([]cloudstore.Client, error) {
	var list []cloudstore.Client
	err := s.db.View(func(tx kv.Tx) (err error) {
		list, err = cloudstore.AccountClients(tx, account)
		return err
	})
	return list, err
}

// AccountClient returns account's OAuth client id (another account's is not found).
func (s *Service) AccountClient(account uint64, id string) (cloudstore.Client, error) {
	var cl cloudstore.Client
	err := s.db.View(func(tx kv.Tx) (err error) {
		cl, err = cloudstore.AccountClient(tx, account, id)
		return err
	})
	return cl, err
}

// CreateClient registers an OAuth client of by's account and records oauth_client_create; it
// returns the client and its secret, shown once.
func (s *Service) CreateClient(by cloudstore.User, in cloudstore.ClientInput) (cloudstore.Client, string, error) {
	now := s.clk.Now()
	var cl cloudstore.Client
	var secret string
	err := s.db.Write(func(tx kv.Tx) (err error) {
		if cl, secret, err = createClient(tx, by.AccountID, in, now); err != nil {
			return err
		}
		return record(tx, by, "oauth_client_create", clientEntity(cl), now)
	})
	return cl, secret, err
}

// UpdateClient changes what in sends of by's account's client id and records
// oauth_client_update.
func (s *Service) UpdateClient(by cloudstore.User, id string, in cloudstore.ClientInput) (cloudstore.Client, error) {
	now := s.clk.Now()
	var cl cloudstore.Client
	err := s.db.Write(func(tx kv.Tx) (err error) {
		if cl, err = cloudstore.AccountClient(tx, by.AccountID, id); err != nil {
			return err
		}
		if cl, err = updateClient(tx, cl, in); err != nil {
			return err
		}
		return record(tx, by, "oauth_client_update", clientEntity(cl), now)
	})
	return cl, err
}

// DeleteClient removes by's account's client id and records oauth_client_delete: its id and
// secret stop working and every token issued to it is revoked, in the same transaction.
func (s *Service) DeleteClient(by cloudstore.User, id string) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		cl, err := cloudstore.AccountClient(tx, by.AccountID, id)
		if err != nil {
			return err
		}
		if err := cloudstore.DeleteClient(tx, cl); err != nil {
			return err
		}
		return record(tx, by, "oauth_client_delete", clientEntity(cl), now)
	})
}

// ResetClientSecret gives by's account's client id a new secret, returned once, and records
// oauth_client_secret_reset.
func (s *Service) ResetClientSecret(by cloudstore.User, id string) (cloudstore.Client, string, error) {
	now := s.clk.Now()
	var cl cloudstore.Client
	var secret string
	err := s.db.Write(func(tx kv.Tx) (err error) {
		if cl, err = cloudstore.AccountClient(tx, by.AccountID, id); err != nil {
			return err
		}
		if cl, secret, err = cloudstore.ResetSecret(tx, cl); err != nil {
			return err
		}
		return record(tx, by, "oauth_client_secret_reset", clientEntity(cl), now)
	})
	return cl, secret, err
}

// SetClientThumbnail stores png, which must be a PNG image (checked by content), as the public
// thumbnail of by's account's client id. png must not be a buffer the caller reuses.
func (s *Service) SetClientThumbnail(by cloudstore.User, id string, png []byte) error {
	return s.db.Write(func(tx kv.Tx) error {
		cl, err := cloudstore.AccountClient(tx, by.AccountID, id)
		if err != nil {
			return err
		}
		return setThumbnail(tx, cl, png)
	})
}

// ClientThumbnail returns client id's thumbnail: public, as the consent page shows it.
func (s *Service) ClientThumbnail(id string) ([]byte, error) {
	var png []byte
	err := s.db.View(func(tx kv.Tx) (err error) {
		png, err = cloudstore.Thumbnail(tx, id)
		return err
	})
	return png, err
}

// clientEntity is an OAuth client as an event's entity.
func clientEntity(cl cloudstore.Client) *cloudstore.EventEntity {
	return &cloudstore.EventEntity{ID: cl.ID, Label: cl.Label, Type: "oauth_client", URL: "/v4/account/oauth-clients/" + cl.ID}
}
