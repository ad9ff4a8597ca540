package explorersvc

import (
	"bytes"
	"fmt"
	"testing"
)

// TestSearchRepeatedIsCheap: asking the same question again of the same products reads no
// package record (issue 13: each request decoded every hit's record, half of its time). Before
// the answer cache a repeated "b" search allocated for every hit; now it costs one read
// transaction.
func TestSearchRepeatedIsCheap(t *testing.T) {
	e := newEnv(t, envOptions{})
	mustImport(t, e.im, writeProduct(t, t.TempDir(), generate(testProduct, 45)))
	if n, files := len(e.packages(t, "b")), len(e.files(t, "busybox")); n < 5 || files == 0 {
		t.Fatalf("%d packages contain b, %d files are busybox; want several and some", n, files)
	}
	searches := []struct {
		name string
		run  func()
	}{
		{"packages", func() { e.packages(t, "b") }},
		{"git", func() { e.vcs(t, "bash") }},
		{"files", func() { e.files(t, "busybox") }},
	}
	for _, s := range searches {
		s.run()
		if allocs := testing.AllocsPerRun(20, s.run); allocs > 30 {
			t.Errorf("a repeated %s search allocates %.0f times; want it answered from the cache (≤ 30)", s.name, allocs)
		}
	}
}

// TestSearchCacheFollowsContent: a cached answer is never given for other content — after an
// import, a removal, or a restored snapshot that brings back a generation number the live data
// had with other products (which is why answers are kept by the store's stamp, not by the
// generation).
func TestSearchCacheFollowsContent(t *testing.T) {
	e := newEnv(t, envOptions{})
	pathA := writeProduct(t, t.TempDir(), generate(testProduct, 45)) // has busybox
	pathB := writeProduct(t, t.TempDir(), generate(testProduct, 30)) // has not
	mustImport(t, e.im, pathB)
	wantCount(t, "busybox of B", e.packages(t, "busybox"), 0)
	var snap bytes.Buffer
	if _, _, err := e.db.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	gen := generation(e.db)

	mustImport(t, e.im, pathA)
	nA, gitA := len(e.packages(t, "busybox")), len(e.vcs(t, "busybox"))
	if nA == 0 || gitA == 0 {
		t.Fatalf("A has %d busybox packages, %d from its git repository; want some", nA, gitA)
	}

	if err := e.im.Remove(testProduct); err != nil {
		t.Fatal(err)
	}
	wantCount(t, "busybox after the removal", e.packages(t, "busybox"), 0)
	wantCount(t, "git busybox after the removal", e.vcs(t, "busybox"), 0)

	mustImport(t, e.im, pathA)
	wantCount(t, "busybox of A again", e.packages(t, "busybox"), nA)
	wantCount(t, "git busybox of A again", e.vcs(t, "busybox"), gitA)
	e.files(t, "busybox")
	aGen := generation(e.db)

	// Back to B's snapshot (generation gen), then B, A and B again: the store is at A's
	// generation number with B's content, and nothing was searched in between, so the cache
	// still holds A's answers from when that number meant A.
	if _, err := e.db.Restore(bytes.NewReader(snap.Bytes()), 0); err != nil {
		t.Fatal(err)
	}
	if generation(e.db) != gen {
		t.Fatalf("restored generation %d, want %d", generation(e.db), gen)
	}
	for i, path := range []string{pathB, pathA, pathB} {
		in, err := LoadSBOM(path)
		if err != nil {
			t.Fatal(err)
		}
		in.Digest = fmt.Sprintf("%s-%d", in.Digest, i) // never skipped as unchanged
		if _, err := e.im.Import(in); err != nil {
			t.Fatal(err)
		}
	}
	if generation(e.db) != aGen || productPackages(t, e.db, testProduct) != 30 {
		t.Fatalf("generation %d with %d packages; want %d with B's 30", generation(e.db), productPackages(t, e.db, testProduct), aGen)
	}
	wantCount(t, "busybox of B at A's old generation", e.packages(t, "busybox"), 0)
	wantCount(t, "git busybox of B at A's old generation", e.vcs(t, "busybox"), 0)
	wantCount(t, "files busybox of B at A's old generation", e.files(t, "busybox"), 0)
}
