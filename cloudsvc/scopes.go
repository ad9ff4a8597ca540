package cloudsvc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// ScopeAreas are the seed's OAuth scope areas; "maintenance" has no read_write scope. Which
// scopes exist is the domain's rule: personal access tokens, the OAuth authorize form and every
// request's scope check ask here.
var ScopeAreas = []string{
	"account", "databases", "domains", "events", "firewall", "images", "ips", "instances", "kube",
	"monitoring", "maintenance", "balancers", "object_storage", "scripts", "volumes",
}

// ParseScopes checks a scope list ("*", or "<area>:read_only|read_write" separated by commas
// and/or spaces, as OAuth clients and token forms send them) and returns it canonical: "*", or
// the scopes sorted and space-separated, each area once at its highest level. field names the
// request field for errors.
func ParseScopes(s, field string) (string, error) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(parts) == 0 {
		return "", store.Problems{{Field: field, Reason: "Must provide at least one scope"}}
	}
	levels := map[string]string{}
	for _, p := range parts {
		if p == cloudstore.AllScopes {
			return cloudstore.AllScopes, nil
		}
		area, level, _ := strings.Cut(p, ":")
		if !slices.Contains(ScopeAreas, area) || (level != cloudstore.ReadOnly && level != cloudstore.ReadWrite) ||
			(area == "maintenance" && level == cloudstore.ReadWrite) {
			return "", store.Problems{{Field: field, Reason: fmt.Sprintf("Invalid scope %q", p)}}
		}
		if levels[area] != cloudstore.ReadWrite {
			levels[area] = level
		}
	}
	out := make([]string, 0, len(levels))
	for area, level := range levels {
		out = append(out, area+":"+level)
	}
	slices.Sort(out)
	return strings.Join(out, " "), nil
}

// ScopesAllow reports whether a canonical scope string allows level (read_only or read_write)
// on area: read_write includes read_only. It does not allocate: it runs on every request.
func ScopesAllow(scopes, area, level string) bool {
	if scopes == cloudstore.AllScopes {
		return true
	}
	for len(scopes) > 0 {
		one, rest, _ := strings.Cut(scopes, " ")
		scopes = rest
		a, l, _ := strings.Cut(one, ":")
		if a == area && (l == cloudstore.ReadWrite || l == level) {
			return true
		}
	}
	return false
}
