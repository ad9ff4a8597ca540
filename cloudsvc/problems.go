package cloudsvc

import (
	"errors"

	"github.com/pocketforge/pocketforge/store"
)

// withParsed reports the problems the caller found while reading a request (parsed) together
// with those an operation found (err), so a client hears about every wrong field at once; a
// field parsed already reported is not repeated. An error that is not a list of problems wins
// as it is. Operations that take parsed problems call it inside their transaction, so any
// problem at all rolls the write back.
func withParsed(parsed store.Problems, err error) error {
	var domain store.Problems
	if err != nil && !errors.As(err, &domain) {
		return err
	}
	all := append(store.Problems{}, parsed...)
	for _, p := range domain {
		if !reported(parsed, p.Field) {
			all = append(all, p)
		}
	}
	return all.Err()
}

func reported(parsed store.Problems, field string) bool {
	for _, p := range parsed {
		if p.Field == field && field != "" {
			return true
		}
	}
	return false
}
