package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Reading persons: every signed-in person may read any person's public record (login, email,
// real name, state, global roles); the password hash never leaves the store's record.

// GetPerson reads the person with login; a missing one is the store's 404 "Couldn't find User
// with login = …", the service's wording.
func (s *Service) GetPerson(login string) (buildstore.Person, error) {
	var p buildstore.Person
	err := s.db.View(func(tx kv.Tx) (err error) { p, err = buildstore.GetPerson(tx, login); return })
	return p, err
}
