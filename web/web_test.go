package web

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	cases := []struct {
		name string
		page LoginServerPage
		want []string
		not  []string
	}{
		{"login escapes and carries the request",
			Login{ClientLabel: "<script>x</script>", Scopes: []string{"account:read_only"}, Error: "Invalid username or password",
				Hidden: map[string]string{"client_id": "abc", "state": `"><b>`}},
			[]string{"&lt;script&gt;", `name="client_id" value="abc"`, "Invalid username or password", "account:read_only", `value="approve"`},
			[]string{"<script>x", `"><b>`}},
		{"setup", Setup{Username: "erin", Token: "t0k"}, []string{"erin", `value="t0k"`}, nil},
		{"message", Message{Title: "Unknown client", Text: "No such client."}, []string{"<h1>Unknown client</h1>"}, nil},
		{"a javascript: thumbnail is not a link", Login{ClientLabel: "x", ThumbnailURL: "javascript:alert(1)"},
			[]string{`<img class="thumb" src="about:invalid#TemplFailedSanitizationURL"`}, []string{"javascript:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := Render(c.page)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("page lacks %q:\n%s", w, out)
				}
			}
			for _, n := range c.not {
				if strings.Contains(string(out), n) {
					t.Errorf("page must not contain %q", n)
				}
			}
		})
	}
}

// TestAllReady: a background condition, met or not, never holds the pages' "ready" back; any
// other unmet one does.
func TestAllReady(t *testing.T) {
	for _, c := range []struct {
		checks []Check
		want   bool
	}{
		{nil, true},
		{[]Check{{Name: "store", OK: true}, {Name: "demo-products", Background: true}}, true},
		{[]Check{{Name: "store", OK: true}, {Name: "search"}, {Name: "demo-products", OK: true, Background: true}}, false},
	} {
		if got := AllReady(c.checks); got != c.want {
			t.Errorf("AllReady(%+v) = %v", c.checks, got)
		}
	}
}

// TestSafeNext: one rule for every sign-in form's next (issue 35: the console's copy let "//"
// through): a page of the area, nothing that a browser could read as another site.
func TestSafeNext(t *testing.T) {
	for _, area := range []string{"/console", "/appliance"} {
		for in, want := range map[string]string{
			area: area, area + "/databases?x=1": area + "/databases?x=1", area + "?moved=1": area + "?moved=1",
			"": "", "//evil.example" + area: "", "https://evil.example/": "", area + "x": "", area + "/\\evil": "",
			area + "//evil.example": "", area + "/a\r\nLocation: x": "",
		} {
			if got := SafeNext(in, area); got != want {
				t.Errorf("SafeNext(%q, %q) = %q, want %q", in, area, got, want)
			}
		}
	}
}
