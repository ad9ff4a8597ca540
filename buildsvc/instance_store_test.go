package buildsvc

import (
	"testing"

	"github.com/pocketforge/pocketforge/fault"
)

func TestURLKey(t *testing.T) {
	cases := []struct {
		name, key, url, want, code string
	}{
		{"empty takes the URL's", "", "pocket", "pocket", ""},
		{"the same passes", "pocket", "pocket", "pocket", ""},
		{"another is refused", "other", "pocket", "other", "name_mismatch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := c.key
			err := urlKey(&key, c.url, "name_mismatch", "name")
			if key != c.want || fault.Code(err) != c.code {
				t.Fatalf("urlKey(%q, %q) = %q, %v; want %q, code %q", c.key, c.url, key, err, c.want, c.code)
			}
		})
	}
}

func TestArchitecture(t *testing.T) {
	if a, err := Architecture("x86_64"); a != "x86_64" || err != nil {
		t.Fatalf("Architecture(x86_64) = %q, %v", a, err)
	}
	if _, err := Architecture("z80"); fault.Code(err) != "unknown_architecture" {
		t.Fatalf("Architecture(z80): %v, want unknown_architecture", err)
	}
}
