package cloudapi

import "strings"

// splitScopes splits a canonical scope string.
func splitScopes(s string) []string { return strings.Fields(s) }
