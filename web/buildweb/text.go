package buildweb

import (
	"net/url"
	"unicode/utf8"
)

// Small text helpers of the pages: addresses and cutting text for display.

// pathSegment escapes one path segment.
func pathSegment(s string) string { return url.PathEscape(s) }

// urlQuery escapes a query value.
func urlQuery(s string) string { return url.QueryEscape(s) }

// cutText is data's first n bytes, shortened to end on a character boundary.
func cutText(data []byte, n int) []byte {
	if len(data) <= n {
		return data
	}
	for n > 0 && !utf8.RuneStart(data[n]) {
		n--
	}
	return data[:n]
}
