package sqlengine

import (
	"net"
	"net/netip"
	"strings"
	"testing"
)

func TestParseAllowList(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []string
		want string
		bad  bool
	}{
		{"address", []string{"203.0.113.7"}, "203.0.113.7/32", false},
		{"cidr masked", []string{"192.0.2.9/24"}, "192.0.2.0/24", false},
		{"ipv6", []string{"2001:db8::1", "2001:db8::/32"}, "2001:db8::1/128 2001:db8::/32", false},
		{"mapped", []string{"::ffff:192.0.2.1"}, "192.0.2.1/32", false},
		{"empty", []string{}, "", false},
		{"junk", []string{"example.com"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAllowList(tc.in)
			if (err != nil) != tc.bad {
				t.Fatalf("err %v", err)
			}
			var s []string
			for _, p := range got {
				s = append(s, p.String())
			}
			if !tc.bad && strings.Join(s, " ") != tc.want {
				t.Fatalf("got %v, want %s", s, tc.want)
			}
		})
	}
}

func TestAllowed(t *testing.T) {
	tcp := func(s string) net.Addr { return net.TCPAddrFromAddrPort(netip.MustParseAddrPort(s)) }
	list := []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("::1/128")}
	for _, tc := range []struct {
		name string
		list []netip.Prefix
		addr string
		want bool
	}{
		{"inside", list, "192.0.2.5:4000", true},
		{"outside", list, "198.51.100.1:4000", false},
		{"loopback is not special", list, "127.0.0.1:4000", false},
		{"ipv6 loopback listed", list, "[::1]:4000", true},
		{"mapped ipv4", list, "[::ffff:192.0.2.5]:4000", true},
		{"empty list refuses all", nil, "127.0.0.1:4000", false},
		{"everything", []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0")}, "127.0.0.1:1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := allowed(tc.list, tcp(tc.addr)); got != tc.want {
				t.Fatalf("allowed(%s) = %v", tc.addr, got)
			}
		})
	}
}

// TestAllowListOnTheWire: a client outside the list gets MySQL's error 1130 before any
// handshake, at once after SetAllowList; an empty list refuses loopback too.
func TestAllowListOnTheWire(t *testing.T) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	mustConnect(t, addr.String(), "linroot", "first-pw", "")
	for _, tc := range []struct {
		name string
		list []netip.Prefix
	}{
		{"other network", []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24")}},
		{"empty", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := m.SetAllowList(1, tc.list); err != nil {
				t.Fatal(err)
			}
			_, err := connect(t, addr.String(), "linroot", "first-pw", "")
			if !isMySQLError(err, 1130) || !strings.Contains(err.Error(), "not allowed to connect") {
				t.Fatalf("got %v, want error 1130", err)
			}
		})
	}
	if err := m.SetAllowList(1, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}); err != nil {
		t.Fatal(err)
	}
	mustConnect(t, addr.String(), "linroot", "first-pw", "")
	if err := m.SetAllowList(99, nil); err != ErrNotRunning {
		t.Fatalf("SetAllowList on a stopped instance: %v", err)
	}
}
