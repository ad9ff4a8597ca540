package cloudsvc_test

import (
	"testing"

	"github.com/pocketforge/pocketforge/cloudsvc"
)

// TestRedirectAllowed: the registered URI or a path under it on the same origin; never a path
// with a dot segment, however encoded (issue 13).
func TestRedirectAllowed(t *testing.T) {
	const reg = "https://app.example.com/oauth/callback"
	for asked, want := range map[string]bool{
		reg:              true,
		reg + "/deeper":  true,
		reg + "/a/b?x=1": true,
		"https://APP.example.com/oauth/callback/x": true,
		reg + "/..":                                   false,
		reg + "/../../evil":                           false,
		reg + "/%2e%2e/%2e%2e/evil":                   false,
		reg + "/%2E%2e/evil":                          false,
		reg + "/..%2f..%2fevil":                       false,
		reg + "/%2e%2e%2fevil":                        false,
		reg + "/%252e%252e/evil":                      false,
		reg + "/%25252525252e%25252525252e/evil":      false,
		reg + `/..\evil`:                              false,
		reg + "/%5c..%5cevil":                         false,
		reg + "/./x":                                  false,
		reg + "/x/.":                                  false,
		reg + "/..;/evil":                             false, // issue 32: Java servers read "..;" as ".."
		reg + "/x;jsessionid=1":                       false,
		reg + "/%2e%2e%3b/evil":                       false,
		reg + "evil":                                  false,
		"https://app.example.com/oauth":               false,
		"https://app.example.com/other":               false,
		"http://app.example.com/oauth/callback":       false,
		"https://app.example.com:8443/oauth/callback": false,
		"https://evil.example.com/oauth/callback":     false,
		"https://app.example.com@evil.example.com/oauth/callback": false,
		"https://u@app.example.com/oauth/callback/x":              false,
		reg + "/x#frag": false,
		"not a url %zz": false,
	} {
		if got := cloudsvc.RedirectAllowed(reg, asked); got != want {
			t.Errorf("RedirectAllowed(%q) = %v, want %v", asked, got, want)
		}
	}
	// A path with dots that are not a whole segment is an ordinary path.
	if !cloudsvc.RedirectAllowed(reg, reg+"/v1..2/...") {
		t.Error("dots inside a segment refused")
	}
}
