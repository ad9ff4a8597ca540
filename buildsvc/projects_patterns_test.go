package buildsvc

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/fault"
)

// TestPatternChecks: the file name and document checks of a pattern write.
func TestPatternChecks(t *testing.T) {
	for _, c := range []struct {
		name, file, body, code string // code "" when accepted
	}{
		{"a pattern", "base", `<pattern xmlns="http://novell.com/package/metadata/suse/pattern"><name>base</name></pattern>`, ""},
		{"empty name", "", `<pattern/>`, "invalid_filename"},
		{"dot file", ".hidden", `<pattern/>`, "invalid_filename"},
		{"slash", "a/b", `<pattern/>`, "invalid_filename"},
		{"control character", "a\x01", `<pattern/>`, "invalid_filename"},
		{"too long", strings.Repeat("x", 201), `<pattern/>`, "invalid_filename"},
		{"not UTF-8", "a\xffb", `<pattern/>`, "invalid_filename"},
		{"empty document", "base", "  \n", "validation_failed"},
		{"another root", "base", `<package/>`, "validation_failed"},
		{"two roots", "base", `<pattern/><pattern/>`, "validation_failed"},
		{"text outside", "base", `<pattern/>junk`, "validation_failed"},
		{"not well-formed", "base", `<pattern>`, "validation_failed"},
		{"no root", "base", `<?xml version="1.0"?>`, "validation_failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := checkPatternName(c.file)
			if err == nil {
				err = checkPatternXML([]byte(c.body))
			}
			if c.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if f, ok := err.(*fault.Error); !ok || f.Code != c.code {
				t.Fatalf("err %v, want code %s", err, c.code)
			}
		})
	}
}

// TestCheckFileNameUTF8: a file name that is not UTF-8 is refused (the listings showed it as
// U+FFFD, a name no request could name again); any UTF-8 name passes the encoding rule.
func TestCheckFileNameUTF8(t *testing.T) {
	for _, name := range []string{"a\xffb", "\xc3\x28", "\x80", "ok\xed\xa0\x80"} {
		if err := CheckFileName(name); err == nil || !strings.Contains(err.Error(), "not UTF-8") {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, name := range []string{"straße.spec", "日本語.txt", "emoji-😀"} {
		if err := CheckFileName(name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
}
