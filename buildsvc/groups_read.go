package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Reading groups: every signed-in person may list groups and read their members and
// maintainers (the role checks of read protection name them).

// ListGroups lists every group by title, or with member set the groups that person belongs to.
func (s *Service) ListGroups(member string) ([]buildstore.Group, error) {
	var groups []buildstore.Group
	err := s.db.View(func(tx kv.Tx) (err error) { groups, err = buildstore.Groups(tx, member); return })
	return groups, err
}

// GetGroup reads the group with title.
func (s *Service) GetGroup(title string) (buildstore.Group, error) {
	var g buildstore.Group
	err := s.db.View(func(tx kv.Tx) (err error) { g, err = buildstore.GetGroup(tx, title); return })
	return g, err
}
