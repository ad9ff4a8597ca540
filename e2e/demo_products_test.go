package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// demoProducts are the products the demo world's farm builds from Pocket:1.0 on a fresh
// appliance, and the one it ships pre-built (fixtures/data/media).
var demoProducts = []string{"Pocket-0.9-x86_64-Build1.1", "Pocket-1.0-aarch64-Build1.1", "Pocket-1.0-x86_64-Build1.1"}

// pocket10 are the Pocket 1.0 products the farm builds on a fresh appliance.
var pocket10 = []string{"Pocket-1.0-x86_64-Build1.1", "Pocket-1.0-aarch64-Build1.1"}

// waitProducts moves the clock of p (started with --dev-clock and the bootstrap token token)
// a minute at a time — a build time is 8 s by default, the farm's and the explorer follower's
// jobs run every second — until the explorer lists every product of want (none given: both
// Pocket 1.0 products, pocket10), and returns the products it lists then, by name. Every test
// that starts the binary on the demo world and reads the explorer's products waits this way:
// they exist only once the farm has built them (about ten build times on a fresh appliance).
func (p *proc) waitProducts(t *testing.T, token string, want ...string) []string {
	t.Helper()
	if len(want) == 0 {
		want = pocket10
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		code, body := request(t, "GET", p.url+"/_appliance/explorer/products", token, nil)
		if code != 200 {
			t.Fatalf("GET /_appliance/explorer/products: %d %s", code, body)
		}
		var list struct {
			Products []struct {
				FullName string `json:"full_name"`
			} `json:"products"`
		}
		if err := json.Unmarshal([]byte(body), &list); err != nil {
			t.Fatalf("the products list: %v\n%s", err, body)
		}
		var names []string
		for _, pr := range list.Products {
			names = append(names, pr.FullName)
		}
		missing := false
		for _, w := range want {
			missing = missing || !slices.Contains(names, w)
		}
		if !missing {
			return names
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60 s of moving the clock the explorer lists %v; want %v", names, want)
		}
		if code, body := request(t, "POST", p.url+"/_appliance/clock", token, strings.NewReader(`{"advance":"1m"}`)); code != 200 {
			t.Fatalf("moving the clock: %d %s", code, body)
		}
		time.Sleep(time.Second)
	}
}
