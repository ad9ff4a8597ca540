package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// binPath is the pocketforge binary built once for the end-to-end tests, which drive it as a user
// does: start it, talk HTTP to it, signal it, kill it.
var binPath string

// TestMain builds the binary once into a temporary directory, runs the tests and removes it.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pocketforge-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "pocketforge")
	// The module path, not ".": the tests run in e2e/, and the binary is the module root's main.
	build := exec.Command("go", "build", "-o", binPath, "github.com/pocketforge/pocketforge")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building pocketforge for the end-to-end tests:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
