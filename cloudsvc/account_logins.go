package cloudsvc

import (
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// RecentLogins lists the successful logins of every user of account within EventHistory of
// now, newest first: logins are kept as long as events are shown.
func (s *Service) RecentLogins(account uint64) ([]cloudstore.Login, error) {
	since := s.clk.Now().Add(-EventHistory)
	var recent []cloudstore.Login
	err := s.db.View(func(tx kv.Tx) error {
		all, err := cloudstore.AccountLogins(tx, account)
		for _, l := range all {
			if !l.Datetime.Before(since) {
				recent = append(recent, l)
			}
		}
		return err
	})
	return recent, err
}

// Login returns login id of account (another account's is not found).
func (s *Service) Login(account, id uint64) (cloudstore.Login, error) {
	var l cloudstore.Login
	err := s.db.View(func(tx kv.Tx) (err error) {
		l, err = cloudstore.AccountLogin(tx, account, id)
		return err
	})
	return l, err
}

// MaintenanceItem is one maintenance scheduled on one instance.
type MaintenanceItem struct {
	cloudstore.Maintenance
	Instance cloudstore.Instance
}

// Maintenance lists the maintenance scheduled on by's account's instances; a restricted user
// sees only the instances they hold a grant on.
func (s *Service) Maintenance(by cloudstore.User) ([]MaintenanceItem, error) {
	var items []MaintenanceItem
	err := s.db.View(func(tx kv.Tx) error {
		instances, err := cloudstore.AccountInstances(tx, by.AccountID)
		for _, in := range instances {
			if !mayViewInstance(by, in.ID) {
				continue
			}
			for _, m := range in.Maintenance {
				items = append(items, MaintenanceItem{m, in})
			}
		}
		return err
	})
	return items, err
}

// mayViewInstance says whether u sees instance id: every unrestricted user does, a restricted
// one with any grant on it.
func mayViewInstance(u cloudstore.User, id uint64) bool {
	return !u.Restricted || u.Grants.Permission("instance", id) != ""
}
