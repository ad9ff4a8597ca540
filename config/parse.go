package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The parse functions below turn one raw string (from a flag, a variable or the file) into a
// typed value or a reason. Reasons never repeat the value: the caller quotes it, except for
// secrets, which must not reach the log.

// parseListenIP accepts an IP address to bind (IPv4 or IPv6, no port) or "off".
func parseListenIP(s string) (string, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "off") {
		return "off", nil
	}
	a, err := netip.ParseAddr(strings.Trim(s, "[]"))
	if err != nil || a.Zone() != "" {
		return "", errors.New("want an IP address such as 127.0.0.1, 0.0.0.0 or ::1 (no port: each instance gets its own), or off")
	}
	return a.String(), nil
}

// parseNonEmpty accepts any string except the empty one.
func parseNonEmpty(s string) (string, error) {
	if s == "" {
		return "", errors.New("must not be empty")
	}
	return s, nil
}

// parseBool accepts the spellings people use in files and variables: true/false, 1/0, yes/no.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes":
		return true, nil
	case "false", "0", "no":
		return false, nil
	}
	return false, errors.New("want true/false, 1/0 or yes/no")
}

// parseAddr checks a listen address: host:port with a numeric port 0..65535 (0 lets the
// kernel choose, which tests rely on) and a host that is empty, an IP or a hostname.
func parseAddr(s string) (string, error) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) {
			return "", fmt.Errorf("%s, want host:port such as 127.0.0.1:8080, :8080 or [::1]:8080", ae.Err)
		}
		return "", err
	}
	n, err := strconv.ParseUint(port, 10, 64)
	switch {
	case port == "":
		return "", errors.New("missing port number, want host:port such as 127.0.0.1:8080")
	case err != nil && errors.Is(err, strconv.ErrRange), err == nil && n > 65535:
		return "", fmt.Errorf("port %s out of range 0..65535", port)
	case err != nil:
		return "", fmt.Errorf("port %q is not a number", port)
	}
	if host != "" && !validHost(host) {
		return "", fmt.Errorf("host %q is neither an IP address nor a hostname", host)
	}
	return s, nil
}

// validHost reports whether host is an IP address (IPv6 zones allowed) or an RFC 1123 hostname.
func validHost(host string) bool {
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	return validHostname(host)
}

// validHostname reports whether name is dot-separated labels of letters, digits and inner
// hyphens, each 1..63 bytes, 253 bytes in all.
func validHostname(name string) bool {
	if len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			b := label[i]
			if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-') {
				return false
			}
		}
	}
	return true
}

// parseExternalURL checks the base URL clients use to reach the appliance. Everything the
// appliance emits is built by appending paths to it, so it must be a plain absolute http(s)
// URL: a host, no credentials, no query or fragment; a trailing "/" is dropped so that
// appending "/v4/..." never yields "//". The empty string means "derive from the listener".
func parseExternalURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return "", errors.New("must not contain spaces or control characters")
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", fmt.Errorf("not a URL: %v", err)
	}
	switch {
	case u.Scheme == "":
		return "", errors.New("must be an absolute URL such as https://forge.example.com")
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("scheme %q not supported, want http or https", u.Scheme)
	case u.Opaque != "" || u.Hostname() == "":
		return "", errors.New("missing host, want e.g. https://forge.example.com")
	case u.User != nil:
		return "", errors.New("must not contain user info (user:password@)")
	case strings.Contains(s, "?"):
		return "", errors.New("must not contain a query (?...)")
	case strings.Contains(s, "#"):
		return "", errors.New("must not contain a fragment (#...)")
	}
	return strings.TrimRight(s, "/"), nil
}

// parseToken checks a bootstrap token: 8..128 printable ASCII characters without spaces, so it
// survives being pasted into an Authorization header, a shell or a YAML file unchanged.
func parseToken(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	if len(s) < 8 || len(s) > 128 {
		return "", fmt.Errorf("length %d, want 8..128 characters", len(s))
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return "", fmt.Errorf("character %d is not printable ASCII or is a space", i+1)
		}
	}
	return s, nil
}

// parsePassword checks an admin password: 6..128 characters of valid UTF-8 without control
// characters, so it can be typed into the login form (which cannot submit a newline).
func parsePassword(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	if !utf8.ValidString(s) {
		return "", errors.New("not valid UTF-8")
	}
	n := utf8.RuneCountInString(s)
	if n < 6 || n > 128 {
		return "", fmt.Errorf("length %d, want 6..128 characters", n)
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return "", errors.New("contains a control character such as a newline or tab")
	}
	return s, nil
}

// parseLevel maps the four slog level names, in any case, to their slog.Level.
func parseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, errors.New("want debug, info, warn or error")
}

// parseLogFormat accepts the two slog handlers pocketforge offers, in any case.
func parseLogFormat(s string) (string, error) {
	f := strings.ToLower(strings.TrimSpace(s))
	if f != "text" && f != "json" {
		return "", errors.New("want text or json")
	}
	return f, nil
}

// parseDuration parses a Go duration ("10s", "1500ms") that must be positive and at most max.
func parseDuration(s string, max time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, errors.New("want a duration such as 250ms, 10s or 1m")
	}
	if d <= 0 || d > max {
		return 0, fmt.Errorf("want more than 0 and at most %s", max)
	}
	return d, nil
}

// parseDurationRange parses a Go duration within lo..hi.
func parseDurationRange(s string, lo, hi time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, errors.New("want a duration such as 250ms, 10s or 1m")
	}
	if d < lo || d > hi {
		return 0, fmt.Errorf("want %s..%s", lo, hi)
	}
	return d, nil
}

// parseIntRange parses a decimal integer in lo..hi.
func parseIntRange(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errors.New("want a whole number")
	}
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("out of range %d..%d", lo, hi)
	}
	return n, nil
}

// parseFloatRange reads a decimal number within [lo, hi].
func parseFloatRange(s string, lo, hi float64) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f != f || f < lo || f > hi {
		return 0, fmt.Errorf("want a number from %g to %g", lo, hi)
	}
	return f, nil
}

// parsePortRange reads LOW-HIGH (1024 <= LOW <= HIGH <= 65535), or any for no range.
func parsePortRange(s string) ([2]int, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "any") {
		return [2]int{}, nil
	}
	lo, hi, ok := strings.Cut(s, "-")
	a, err1 := strconv.Atoi(strings.TrimSpace(lo))
	b, err2 := strconv.Atoi(strings.TrimSpace(hi))
	if !ok || err1 != nil || err2 != nil {
		return [2]int{}, errors.New("want LOW-HIGH, two port numbers, or any")
	}
	if a < 1024 || b > 65535 || a > b {
		return [2]int{}, fmt.Errorf("want 1024 <= LOW <= HIGH <= 65535, got %d-%d", a, b)
	}
	return [2]int{a, b}, nil
}

// parseStore takes "" (the bbolt file) or a PostgreSQL URL.
func parseStore(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", errors.New("want a PostgreSQL URL such as postgres://user:password@host:5432/pocketforge, or empty for the bbolt file --data")
	}
	if u.Host == "" && u.Query().Get("host") == "" {
		return "", errors.New("missing host, want e.g. postgres://user:password@host:5432/pocketforge")
	}
	return s, nil
}

// MaskURL shows a URL with its password masked ("" stays ""), for every message that names one.
func MaskURL(s string) string { return maskURL(s) }

// maskURL shows a URL with its password masked ("" stays "").
func maskURL(s string) string {
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
