package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// oscSession is the real osc signed in as one person against one appliance, with a scratch
// directory for the files its commands read (metas, specs).
type oscSession struct {
	t     *testing.T
	run   func(dir string, args ...string) (int, string)
	input func(dir, stdin string, args ...string) (int, string)
	dir   string
}

func newOscSession(t *testing.T, url, user, password string) *oscSession {
	t.Helper()
	input, dir := oscWithInput(t, url, user, password)
	run := func(wd string, args ...string) (int, string) { return input(wd, "", args...) }
	return &oscSession{t: t, run: run, input: input, dir: dir}
}

// osc runs osc in the scratch directory and returns its exit code and output.
func (o *oscSession) osc(args ...string) (int, string) { return o.run(o.dir, args...) }

// must runs osc and fails the test unless it exits 0; it returns the output.
func (o *oscSession) must(args ...string) string {
	o.t.Helper()
	code, out := o.osc(args...)
	if code != 0 {
		o.t.Fatalf("osc %v: exit %d\n%s", args, code, out)
	}
	return out
}

// write puts a file into the scratch directory and returns its path.
func (o *oscSession) write(name, body string) string {
	o.t.Helper()
	path := filepath.Join(o.dir, name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		o.t.Fatal(err)
	}
	return path
}
