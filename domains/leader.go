package domains

import (
	"encoding/json"

	"github.com/pocketforge/pocketforge/store"
)

// leaderNote is what the node leading a shared store publishes with its lease (store.Leader's
// info): its external URL, and the host and ports of the sqldb instances that listen on it, so
// every node's database view shows where to connect.
type leaderNote struct {
	URL   string         `json:"url"`
	Host  string         `json:"sqldb_host,omitempty"`
	Ports map[uint64]int `json:"sqldb_ports,omitempty"`
}

// LeaderNote is the note this node publishes while it leads: url, and s's running instances.
func (s *Set) LeaderNote(url string) string {
	n := leaderNote{URL: url}
	if s != nil && s.Cloud != nil {
		n.Host, n.Ports = s.Cloud.Endpoints()
	}
	b, _ := json.Marshal(n)
	return string(b)
}

// LeaderURL is the external URL of the node leading, as it published it ("" when unknown).
func LeaderURL(l *store.Leader) string {
	var n leaderNote
	_ = json.Unmarshal([]byte(l.Holder().Info), &n)
	return n.URL
}

func leaderEndpoints(l *store.Leader) (string, map[uint64]int) {
	var n leaderNote
	if json.Unmarshal([]byte(l.Holder().Info), &n) != nil {
		return "", nil
	}
	return n.Host, n.Ports
}
