package explorerweb

import "testing"

// TestWebURL: only http and https addresses with a host become links; a product's git URL of
// another scheme is shown as text.
func TestWebURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://src.pocketforge.test/pool/bash": "https://src.pocketforge.test/pool/bash",
		"http://forge.test/published/x.rpm":      "http://forge.test/published/x.rpm",
		"javascript:alert(1)":                    "",
		"git@github.com:jqlang/jq.git":           "",
		"https:///nohost":                        "",
		"":                                       "",
	} {
		if got := webURL(raw); got != want {
			t.Errorf("webURL(%q) = %q, want %q", raw, got, want)
		}
	}
}
