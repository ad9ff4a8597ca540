package textindex

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestInspectReadsWithoutChanging(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ix")
	if _, err := Inspect(path); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("missing index: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("Inspect created the index")
	}
	ix, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Apply([]Doc{NameDoc("bash"), NameDoc("zsh")}, nil, 7); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	info, err := Inspect(path)
	if err != nil || info.Generation != 7 || info.Docs != 2 || info.Version != Version || info.Bytes == 0 {
		t.Fatalf("%+v %v", info, err)
	}

	broken := filepath.Join(t.TempDir(), "broken")
	os.MkdirAll(broken, 0o755)
	os.WriteFile(filepath.Join(broken, "index_meta.json"), []byte("{"), 0o600)
	if _, err := Inspect(broken); err == nil || errors.Is(err, ErrNoIndex) {
		t.Fatalf("broken index: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(broken, "index_meta.json")); string(b) != "{" {
		t.Fatal("Inspect changed a broken index")
	}
}
