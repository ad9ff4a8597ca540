package cloudapi

import "strings"

// splitScopes splits a canonical scope string.
func splitScopes(s string) []string { return strings.Fields(s) }

// cutScope splits "area:level".
func cutScope(s string) (area, level string, ok bool) { return strings.Cut(s, ":") }
