package buildsvc

import (
	"slices"

	"github.com/pocketforge/pocketforge/fault"
)

// What the instance says about itself: the architectures it knows.

// Architecture looks up an architecture the service knows: 404 unknown_architecture for any
// other name.
func Architecture(name string) (string, error) {
	if slices.Contains(Architectures, name) {
		return name, nil
	}
	return "", fault.NotFound("unknown_architecture", "Architecture not found: %s", name)
}
