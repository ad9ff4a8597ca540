package config

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
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

// reservedRoots are the first path segments the appliance's own routes live under: a proxy
// prefix starting with one would shadow them (/source/… would no longer reach the build API,
// /api/… the explorer) or be shadowed by them. The build API's roots are OBS's (osc names them),
// plus /status (status messages) and the OBS roots not served yet (/worker, /public), so that a
// later route cannot collide; api's tests check that every mounted prefix is here.
var reservedRoots = map[string]bool{
	"about": true, "architectures": true, "attribute": true, "build": true, "comment": true,
	"comments": true, "configuration": true, "distributions": true, "group": true,
	"issue_tracker": true, "issue_trackers": true, "message": true, "person": true,
	"published": true, "request": true, "result": true, "search": true, "source": true,
	"statistics": true, "status": true, "status_message": true, "status_messages": true,
	"tag": true, "trigger": true, "user": true, "worker": true, "public": true,
	"v4": true, "v4beta": true, "oauth": true, // the cloud API and its login server
	"api": true, "badge": true, // the explorer's own
	"deploy": true, "_appliance": true, "metrics": true, // the operator's (/metrics: --public-metrics)
	"download": true, // the public download tree
}

// ParseProxyPrefix is the check of --explorer-proxy-prefix, for api's tests: every root the
// appliance mounts must be refused.
func ParseProxyPrefix(s string) (string, error) { return parseProxyPrefix(s) }

// parseProxyPrefix reads --explorer-proxy-prefix: an absolute path of one or more segments
// (letters, digits, . _ ~ -; no "." or ".." segment, no empty one) whose first segment is not
// one of the appliance's own roots. A trailing slash is dropped ("/obs/" is "/obs").
func parseProxyPrefix(s string) (string, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "/") {
		return "", errors.New(`must start with "/", such as /obs`)
	}
	if len(s) > 1 {
		s = strings.TrimSuffix(s, "/")
	}
	if s == "/" {
		return "", errors.New("must not be / (the proxy would shadow every route); use a path such as /obs")
	}
	if len(s) > 64 {
		return "", errors.New("longer than 64 characters")
	}
	segs := strings.Split(s[1:], "/")
	for _, seg := range segs {
		switch {
		case seg == "":
			return "", errors.New("has an empty segment (//)")
		case seg == "." || seg == "..":
			return "", errors.New(`must not have a "." or ".." segment`)
		case strings.IndexFunc(seg, func(r rune) bool { return !proxyPathRune(r) }) >= 0:
			return "", errors.New("segments may only hold letters, digits and . _ ~ -")
		}
	}
	if root := strings.ToLower(segs[0]); reservedRoots[root] || strings.HasPrefix(root, "_") {
		return "", fmt.Errorf("/%s is one of the appliance's own routes; the proxy would shadow it (choose another, such as /obs)", segs[0])
	}
	return s, nil
}

func proxyPathRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._~-", r)
}

// parseBackendUser reads --explorer-backend-user: a build service login (no spaces, no colon,
// which Basic credentials cannot carry in a login).
func parseBackendUser(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", errors.New("must not be empty (the build service answers nobody without credentials)")
	case len(s) > 100 || strings.ContainsAny(s, ": \t/"):
		return "", errors.New("not a build service login (at most 100 characters, no spaces, colons or slashes)")
	}
	return s, nil
}

// DemoBackendPassword is the published password of the demo world's explorer person, used when
// --explorer-backend-password is empty (an empty secret stays empty in the start-up log, so a
// configured one is told apart from the demo's).
const DemoBackendPassword = "explorer-password"

// BackendPassword is the password the explorer's proxy signs in with.
func (c *Config) BackendPassword() string {
	if c.ExplorerBackendPassword == "" {
		return DemoBackendPassword
	}
	return c.ExplorerBackendPassword
}

// parseBackendPassword reads --explorer-backend-password: no control characters ("" = the
// demo's).
func parseBackendPassword(s string) (string, error) {
	if len(s) > 128 || strings.IndexFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return "", errors.New("at most 128 characters without control characters")
	}
	return s, nil
}

// parseBackendURL reads --explorer-backend: "" (in process) or an absolute http or https URL
// with a host and nothing a base URL cannot use (no user info — the credentials are the
// backend flags' —, query or fragment). A trailing slash is dropped, so paths are joined as
// <base>/source/….
func parseBackendURL(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || len(s) > 2000:
		return "", errors.New("want an http or https URL such as https://api.example.org")
	case u.Scheme != "http" && u.Scheme != "https":
		return "", errors.New("want an http or https URL such as https://api.example.org")
	case u.Host == "" || u.Hostname() == "":
		return "", errors.New("the URL has no host")
	case u.User != nil:
		return "", errors.New("the URL must not carry credentials; use --explorer-backend-user and --explorer-backend-password")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return "", errors.New("the URL must not have a query or fragment")
	}
	return strings.TrimRight(s, "/"), nil
}
