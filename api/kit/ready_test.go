package kit

import "testing"

// TestReadinessBackground: a background condition is listed after the others, marked as
// such, and never holds readiness back — met or not.
func TestReadinessBackground(t *testing.T) {
	r := NewReadiness("store")
	r.SetBackground("demo-products", false)
	if r.Ready() {
		t.Fatal("ready before the store")
	}
	r.Set("store", true)
	if !r.Ready() {
		t.Fatal("an unmet background condition held readiness back")
	}
	checks := r.Checks()
	if len(checks) != 2 || checks[0] != (Check{Name: "store", OK: true}) || checks[1] != (Check{Name: "demo-products", Background: true}) {
		t.Fatalf("checks %+v", checks)
	}
	r.SetBackground("demo-products", true)
	if c := r.Checks()[1]; !c.OK || !c.Background || !r.Ready() {
		t.Errorf("met: %+v", c)
	}
}
