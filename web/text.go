package web

import "strings"

// When is s when cond holds, else "": the pages' small conditional words ("s" for a plural,
// ": " after a name that may be empty) inside one line of text, where a templ if block would
// add a space.
func When(cond bool, s string) string {
	if cond {
		return s
	}
	return ""
}

// Commas is list joined with ", ".
func Commas(list []string) string { return strings.Join(list, ", ") }
