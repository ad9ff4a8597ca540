package e2e

import (
	"strings"
	"testing"
)

// TestOscSearchBinaries: the real osc's binary search (`search --binary`, its alias `bse`,
// with -s, --baseproject and --binaryversion) goes to /search/published/binary/id and prints
// project, package and file path of what the farm published. (In osc 0.169.1 `se -b` is
// --bugowner, a package search; TestOscSearch runs it.)
func TestOscSearchBinaries(t *testing.T) {
	t.Parallel()
	_, osc := binWorld(t)
	const file = "e2ebins/standard/x86_64/hello-1.0-1.1.x86_64.rpm"
	for _, args := range [][]string{
		{"search", "--binary", "hello"},
		{"bse", "hello"},
		{"bse", "-s", "ELL"},
		{"bse", "-B", "e2ebins", "hello"},
		{"bse", "--binaryversion", "1.0-1.1", "hello"},
		{"bse", "--binaryversion", "1.0", "hello"},
		{"bse", "--csv", "hello"},
	} {
		code, out := osc(args...)
		if code != 0 || !strings.Contains(out, file) || !strings.Contains(out, "e2ebins") {
			t.Errorf("osc %v: exit %d\n%s", args, code, out)
		}
	}
	for _, args := range [][]string{
		{"bse", "nothing-by-that-name"},
		{"bse", "--binaryversion", "2.0-1", "hello"},
		{"bse", "-B", "elsewhere", "hello"},
	} {
		code, out := osc(args...)
		if code != 0 || !strings.Contains(out, "No matches found") {
			t.Errorf("osc %v: exit %d\n%s", args, code, out)
		}
	}
}
