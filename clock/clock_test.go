package clock

import (
	"testing"
	"time"
)

func TestSettable(t *testing.T) {
	wall := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := NewSettable(0)
	s.base = func() time.Time { return wall }
	cases := []struct {
		name string
		move func()
		want time.Time
	}{
		{"starts at wall clock", func() {}, wall},
		{"advance a day", func() { s.Advance(24 * time.Hour) }, wall.Add(24 * time.Hour)},
		{"advance backwards", func() { s.Advance(-time.Hour) }, wall.Add(23 * time.Hour)},
		{"set absolute", func() { s.Set(wall.Add(90 * time.Minute)) }, wall.Add(90 * time.Minute)},
		{"offset zero returns to wall", func() { s.SetOffset(0) }, wall},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.move()
			if got := s.Now(); !got.Equal(c.want) || got.Location() != time.UTC {
				t.Fatalf("Now() = %v, want %v UTC", got, c.want)
			}
		})
	}
}

func TestSettableFlows(t *testing.T) {
	s := NewSettable(time.Hour)
	a := s.Now()
	time.Sleep(2 * time.Millisecond)
	if b := s.Now(); !b.After(a) {
		t.Fatalf("clock does not flow: %v then %v", a, b)
	}
	if d := s.Now().Sub(Real{}.Now()); d < 59*time.Minute || d > 61*time.Minute {
		t.Fatalf("offset not applied: %v", d)
	}
}

func TestFixed(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := NewFixed(at)
	if !f.Now().Equal(at) {
		t.Fatal("fixed clock moved")
	}
	f.Advance(time.Minute)
	if !f.Now().Equal(at.Add(time.Minute)) {
		t.Fatal("advance")
	}
}

// TestAt: a wall-clock reading turned into what each clock shows at that instant.
func TestAt(t *testing.T) {
	wall := time.Date(2026, 12, 2, 4, 0, 0, 0, time.FixedZone("X", 3600))
	s := NewSettable(24 * time.Hour)
	if got, want := At(s, wall), wall.Add(24*time.Hour).UTC(); !got.Equal(want) || got.Location() != time.UTC {
		t.Fatalf("settable: %v, want %v", got, want)
	}
	if got := At(Real{}, wall); !got.Equal(wall) || got.Location() != time.UTC {
		t.Fatalf("real: %v", got)
	}
	fixed := NewFixed(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	if got := At(fixed, wall); !got.Equal(fixed.Now()) {
		t.Fatalf("fixed: %v", got)
	}
	moved := NewSettable(0)
	moved.base = func() time.Time { return wall.Add(time.Hour) }
	if got := At(moved, wall); !got.Equal(wall.Add(time.Hour)) {
		t.Fatalf("a clock with its own base shows its own time: %v", got)
	}
}
