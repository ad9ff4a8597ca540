package sqlengine

import (
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"
)

// The allow-list rule, from the seed ("listed addresses can connect and all other sources are
// blocked"; "an empty array blocks all public and private connections") and issue 23
// ("loopback counts as the client's address"):
//   - a connection is accepted only if its source address lies in one of the prefixes;
//   - an empty (or nil) list accepts nobody, loopback clients included;
//   - a loopback client is not special: 127.0.0.1 needs a prefix holding it (127.0.0.1/32,
//     127.0.0.0/8, 0.0.0.0/0), ::1 one holding ::1;
//   - an IPv4 client seen on an IPv6 socket (::ffff:a.b.c.d) is matched as a.b.c.d.
// A refused client gets MySQL's own refusal, error 1130 "Host '…' is not allowed to connect to
// this MySQL server", as the first packet instead of the handshake, and is closed; it never
// reaches authentication.

// ParseAllowList turns the API's allow_list entries (an address or a CIDR, IPv4 or IPv6) into
// prefixes; a bare address is a single-address prefix.
func ParseAllowList(entries []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(entries))
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if strings.Contains(e, "/") {
			p, err := netip.ParsePrefix(e)
			if err != nil {
				return nil, fmt.Errorf("sqlengine: allow_list entry %q: %w", e, err)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(e)
		if err != nil {
			return nil, fmt.Errorf("sqlengine: allow_list entry %q: %w", e, err)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// allowed tells whether addr may connect under list (the rule above).
func allowed(list []netip.Prefix, addr net.Addr) bool {
	ap, err := netip.ParseAddrPort(addr.String())
	if err != nil {
		return false
	}
	a := ap.Addr().Unmap().WithZone("")
	for _, p := range list {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// guardListener refuses, before the handshake, every connection from outside the instance's
// current allow list. The list is read at each accept, so SetAllowList applies to the next
// connection without restarting the listener (connections already open stay open, as on the
// real service, where a change "may take a short time").
type guardListener struct {
	net.Listener
	list  *atomic.Pointer[[]netip.Prefix]
	conns *connSet
}

// Accept returns the next allowed connection; refused ones are answered and closed on their
// own goroutine so a slow refused client cannot hold up the accept loop.
func (l guardListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if allowed(*l.list.Load(), c.RemoteAddr()) {
			return l.conns.add(c), nil
		}
		go refuseHost(c)
	}
}

// erHostNotPrivileged is MySQL's ER_HOST_NOT_PRIVILEGED.
const erHostNotPrivileged = 1130

// refuseHost writes MySQL's pre-handshake error packet (sequence 0, 0xFF, code, message: no SQL
// state, as the client has not yet said it speaks protocol 4.1) and closes c.
func refuseHost(c net.Conn) {
	defer c.Close()
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	host := c.RemoteAddr().String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	msg := fmt.Sprintf("Host '%s' is not allowed to connect to this MySQL server", host)
	payload := make([]byte, 0, 3+len(msg))
	payload = append(payload, 0xff)
	payload = binary.LittleEndian.AppendUint16(payload, erHostNotPrivileged)
	payload = append(payload, msg...)
	pkt := []byte{byte(len(payload)), byte(len(payload) >> 8), byte(len(payload) >> 16), 0}
	_, _ = c.Write(append(pkt, payload...))
}
