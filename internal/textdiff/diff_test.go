package textdiff

import "testing"

// TestUnifiedHunks: context, merged and separate hunks, a missing final newline.
func TestUnifiedHunks(t *testing.T) {
	lines := func(n int, change map[int]string) string {
		s := ""
		for i := 1; i <= n; i++ {
			if c, ok := change[i]; ok {
				s += c
				continue
			}
			s += string(rune('a'+i-1)) + "\n"
		}
		return s
	}
	cases := []struct{ name, a, b, want string }{
		{"equal", "x\n", "x\n", ""},
		{"one line, no context lines", "x\n", "y\n", "@@ -1 +1 @@\n-x\n+y\n"},
		{"no final newline", "x\n", "x", "@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n"},
		{"far apart: two hunks", lines(20, nil), lines(20, map[int]string{2: "B\n", 19: "S\n"}),
			"@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -16,5 +16,5 @@\n p\n q\n r\n-s\n+S\n t\n"},
		{"6 lines apart: one hunk", lines(12, nil), lines(12, map[int]string{2: "B\n", 9: "I\n"}),
			"@@ -1,12 +1,12 @@\n a\n-b\n+B\n c\n d\n e\n f\n g\n h\n-i\n+I\n j\n k\n l\n"},
		{"insert in the middle", "a\nb\n", "a\nnew\nb\n", "@@ -1,2 +1,3 @@\n a\n+new\n b\n"},
	}
	for _, c := range cases {
		if got := Unified([]byte(c.a), []byte(c.b), 3); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
