package config

import (
	"errors"
	"fmt"
	"net/netip"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Rate is a request count per window ("100/1h"); Max 0 turns the limit off.
type Rate struct {
	Max    int
	Window time.Duration
}

// String renders the rate as it is written.
func (r Rate) String() string {
	if r.Max == 0 {
		return "0"
	}
	w := r.Window.String() // "1h0m0s", "10m0s", "30s": drop the zero tails
	if strings.HasSuffix(w, "m0s") {
		w = strings.TrimSuffix(w, "0s")
	}
	if strings.HasSuffix(w, "h0m") {
		w = strings.TrimSuffix(w, "0m")
	}
	return strconv.Itoa(r.Max) + "/" + w
}

// parseRate reads "N/duration" ("100/1h", "20/10m"; "100/h" means one hour) or "0" (off).
func parseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	if s == "0" {
		return Rate{}, nil
	}
	count, per, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n < 1 || n > 1_000_000 {
		return Rate{}, errors.New(`want requests per window such as 100/1h or 20/10m (1..1000000), or 0 for no limit`)
	}
	if per == "s" || per == "m" || per == "h" {
		per = "1" + per
	}
	d, err := parseDuration(per, 24*time.Hour)
	if err != nil {
		return Rate{}, fmt.Errorf("window: %v (at most 24h)", err)
	}
	return Rate{Max: n, Window: d}, nil
}

// parsePrefixes reads a comma-separated list of IP addresses and CIDR prefixes ("" = none):
// the reverse proxies whose X-Forwarded-For the explorer believes.
func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an IP address nor a CIDR prefix", part)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

func formatPrefixes(list []netip.Prefix) string {
	var parts []string
	for _, p := range list {
		parts = append(parts, p.String())
	}
	return strings.Join(parts, ",")
}

// parseFollow reads --explorer-follow: comma-separated project names or globs (path.Match: *,
// ?, [a-z]; a project name has no slash, so * spans colons). Empty entries are dropped; none
// at all means every project.
func parseFollow(s string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if _, err := path.Match(part, ""); err != nil {
			return nil, fmt.Errorf("%q is not a project name or glob (%v)", part, err)
		}
		out = append(out, part)
	}
	return out, nil
}

// gitOwner is what a git host (Gitea) accepts as an owner name.
var gitOwner = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`)

// parseGitOwner reads an organization name for --explorer-git-org.
func parseGitOwner(s string) (string, error) {
	s = strings.TrimSpace(s)
	if !gitOwner.MatchString(s) || s == "." || s == ".." {
		return "", errors.New("want a git organization name: 1..100 letters, digits, '-', '_' or '.'")
	}
	return s, nil
}
