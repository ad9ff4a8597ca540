package buildsvc

import (
	"slices"

	"github.com/pocketforge/pocketforge/fault"
)

// What the instance says about itself: the architectures it knows and the searches it answers
// so far.

// Architecture looks up an architecture the service knows: 404 unknown_architecture for any
// other name.
func Architecture(name string) (string, error) {
	if slices.Contains(Architectures, name) {
		return name, nil
	}
	return "", fault.NotFound("unknown_architecture", "Architecture not found: %s", name)
}

// SearchRequests counts the requests that match the xpath predicate match. Requests do not
// exist yet, so nothing matches; osc asks after every co, ci and up and fails the command on
// an error other than an empty match, the service's 400 empty_match.
func (s *Service) SearchRequests(match string) (int, error) {
	if match == "" {
		return 0, BadRequest("empty_match", "No predicates given in search: match is empty")
	}
	return 0, nil
}
