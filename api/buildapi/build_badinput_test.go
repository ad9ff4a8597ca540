package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestBinaryRoutesNever500: odd names, encodings, methods and bodies on every binary, buildinfo
// and published route answer 4xx (or 200), never 5xx.
func TestBinaryRoutesNever500(t *testing.T) {
	w := newBinWorld(t)
	names := []string{"%00", "%2e%2e", "..%2F..%2F_meta", "a%0Ab", "%FF%FE", "x.rpm%00.rpm", "%2F", "_", "_log%2F..", "long-name-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.rpm"}
	bases := []string{
		"/build/binworld/standard/x86_64/hello/", "/build/binworld/standard/x86_64/", "/build/binworld/standard/x86_64/_repository/",
		"/build/binworld/standard/", "/build/binworld/", "/published/binworld/standard/", "/published/binworld/standard/x86_64/",
		"/published/binworld/", "/published/",
	}
	for _, b := range bases {
		for _, n := range names {
			for _, m := range []string{"GET", "POST", "PUT"} {
				for _, q := range []string{"", "?view=fileinfo_ext", "?view=ymp", "?view=order&package=%00"} {
					got := apitest.Do(t, w.app, req(m, b+n+q, asAdmin, "\x00junk"))
					if got.Status >= 500 {
						t.Errorf("%s %s: %d %s", m, b+n+q, got.Status, got.Body)
					}
				}
			}
		}
	}
	for _, p := range []string{"/build/binworld/standard/x86_64/hello/_buildinfo", "/build/binworld/standard/x86_64/_repository/_buildinfo"} {
		for _, body := range []string{"", "\x00\x01\x02", "Name: %{lua: os.exit()}\n", "%define a %a\nName: %a\n", "Name: x\nVersion: %(echo 1)\n"} {
			if got := apitest.Do(t, w.app, req("POST", p, asAdmin, body)); got.Status >= 500 {
				t.Errorf("POST %s %q: %d %s", p, body, got.Status, got.Body)
			}
		}
	}
}
