package explorersvc

import (
	"strings"

	"github.com/pocketforge/pocketforge/fault"
)

// XPathLiteral quotes s as an XPath 1.0 string literal, which has no escapes: in single
// quotes, or in double quotes when s holds a single quote; a string with both cannot be
// written as one literal (ok false).
func XPathLiteral(s string) (string, bool) {
	switch {
	case !strings.Contains(s, "'"):
		return "'" + s + "'", true
	case !strings.Contains(s, `"`):
		return `"` + s + `"`, true
	}
	return "", false
}

// ErrUnquotable refuses a binary name that no XPath literal can hold.
func ErrUnquotable(name string) error {
	return fault.Invalid("invalid_query", "binary name %q holds both kinds of quote, which a build-service search cannot express", name)
}
