package buildweb

import (
	"bytes"
	"net/url"
	"unicode/utf8"
)

// Small text helpers of the pages: addresses and cutting text for display.

// pathSegment escapes one path segment.
func pathSegment(s string) string { return url.PathEscape(s) }

// urlQuery escapes a query value.
func urlQuery(s string) string { return url.QueryEscape(s) }

// isBinary reports whether data is not text to show: not UTF-8, or holding NUL bytes.
func isBinary(data []byte) bool {
	probe := data
	if len(probe) > textShown {
		probe = cutText(probe, textShown)
	}
	return bytes.IndexByte(probe, 0) >= 0 || !utf8.Valid(probe)
}

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
