package explorerapi

import (
	"strings"
	"testing"
)

// TestSearchRepeated: a question asked again is answered from the domain's answer cache with
// the body encoded the first time: the same bytes, still application/json (checkJSON), for
// each search and for the absent and the empty term (null vs "" in search_term).
func TestSearchRepeated(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, path := range []string{
		packagesQ("pocket-cli"), packagesQ("no-such-package"), "/api/products/packages", packagesQ(""),
		filesQ("/usr/bin/bash"), filesQ("os-release"), vcsQ("6453ba4e"), "/api/products/vcs-search?q=pool/pocket-cli%40pocket-1.0",
	} {
		first := e.get(t, path)
		second := e.get(t, path)
		if first.Status != 200 || second.Status != 200 || first.Body != second.Body {
			t.Errorf("GET %s twice: %d %.200s\nthen %d %.200s", path, first.Status, first.Body, second.Status, second.Body)
		}
	}
	absent, empty := e.get(t, "/api/products/packages").Body, e.get(t, packagesQ("")).Body
	if !strings.HasPrefix(absent, `{"search_term":null,`) || !strings.HasPrefix(empty, `{"search_term":"",`) {
		t.Errorf("absent and empty terms share an answer: %.60s / %.60s", absent, empty)
	}
}
