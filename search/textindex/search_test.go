package textindex

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

func testDocs() []Doc {
	return []Doc{
		NameDoc("bash"), NameDoc("bash-completion"), NameDoc("libbash.so+x"), NameDoc("zsh"), NameDoc("qt"),
		VCSDoc("k1", "pool", "bash", "pocket-1.0", "abcdef0123456789"),
		VCSDoc("k2", "Pool", "bash-completion", "main", "abcd99"),
		VCSDoc("k3", "alice", "bash", "main", "1234567890abcdef"),
	}
}

func sorted(keys []string, err error) []string {
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	slices.Sort(keys)
	return keys
}

func TestSearches(t *testing.T) {
	for _, path := range []string{"", filepath.Join(t.TempDir(), "idx")} {
		ix, fresh, err := Open(path)
		if err != nil || !fresh {
			t.Fatal(err, fresh)
		}
		if err := ix.Apply(testDocs(), nil, 7); err != nil {
			t.Fatal(err)
		}
		if ix.Generation() != 7 {
			t.Errorf("generation %d", ix.Generation())
		}
		cases := []struct {
			name string
			got  []string
			want []string
		}{
			{"substring, any case", sorted(ix.Names("BAS")), []string{"bash", "bash-completion", "libbash.so+x"}},
			{"longer term: grams confirmed", sorted(ix.Names("sh-com")), []string{"bash-completion"}},
			{"grams in another order do not match", sorted(ix.Names("ashba")), nil},
			{"regex characters are literal", sorted(ix.Names("so+x")), []string{"libbash.so+x"}},
			{"a dot is a dot", sorted(ix.Names("h.c")), nil},
			{"a star is a star", sorted(ix.Names("ba*")), nil},
			{"two characters", sorted(ix.Names("zs")), []string{"zsh"}},
			{"one character", sorted(ix.Names("q")), []string{"qt"}},
			{"a short name by itself", sorted(ix.Names("qt")), []string{"qt"}},
			{"org/repo@branch", sorted(ix.VCS("POOL", "bash", "pocket-1.0", "")), []string{"k1"}},
			{"repo", sorted(ix.VCS("", "bash", "", "")), []string{"k1", "k3"}},
			{"repo@branch", sorted(ix.VCS("", "bash", "main", "")), []string{"k3"}},
			{"commit prefix", sorted(ix.VCS("", "", "", "ABCD")), []string{"k1", "k2"}},
			{"nothing", sorted(ix.VCS("", "nope", "", "")), nil},
		}
		for _, c := range cases {
			if !slices.Equal(c.got, c.want) {
				t.Errorf("%s (%q): %v, want %v", c.name, path, c.got, c.want)
			}
		}
		if _, err := ix.VCS("", "", "", ""); err == nil {
			t.Error("an empty git query")
		}
		// Apply swaps documents at once.
		if err := ix.Apply([]Doc{NameDoc("fish")}, []string{NameDocID("zsh")}, 8); err != nil {
			t.Fatal(err)
		}
		if got := sorted(ix.Names("sh")); !slices.Equal(got, []string{"bash", "bash-completion", "fish", "libbash.so+x"}) {
			t.Errorf("after apply: %v", got)
		}
		err = ix.Rebuild(func(yield func(Doc) error) error {
			for i := range 2500 {
				if err := yield(NameDoc(fmt.Sprintf("pkg%04d", i))); err != nil {
					return err
				}
			}
			return nil
		}, 9)
		if n, _ := ix.Count(); err != nil || n != 2500 || ix.Generation() != 9 {
			t.Errorf("rebuild: %v %d %d", err, n, ix.Generation())
		}
		ix.Close()
		if path != "" {
			again, fresh, err := Open(path)
			if err != nil || fresh || again.Generation() != 9 {
				t.Errorf("reopen: %v fresh=%v gen=%d", err, fresh, again.Generation())
			}
			again.Close()
		}
	}
}
