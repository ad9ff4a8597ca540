package buildapi

import (
	"bufio"
	"bytes"
	"testing"
	"unsafe"

	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestLogStreamOwnsItsNames: a streamed log is followed after the handler has returned, when
// the path buffer its project, repository, arch and package were read from already holds the
// next request's path. The stream must follow the log it was asked for, not whatever that
// buffer names by then.
func TestLogStreamOwnsItsNames(t *testing.T) {
	f := newFarmEnv(t)
	f.tick(t)
	f.clk.Advance(farmBuildTime / 2)
	f.tick(t)
	bob, err := f.svc.ActivePerson("bob")
	if err != nil {
		t.Fatal(err)
	}
	where := buildstore.Where{Project: "home:alice:farm", Repository: "standard", Arch: "x86_64"}
	sofar, err := f.svc.ReadLog(bob, where, "bad", farm.LogQuery{End: -1})
	if err != nil || !sofar.Running {
		t.Fatalf("a running job's log: %+v %v", sofar, err)
	}

	// The request's path, viewed as fiber hands it to the handler.
	path := []byte("home:alice:farm/standard/x86_64/bad")
	view := func(from, to int) string { return unsafe.String(&path[from], to-from) }
	w := buildstore.Where{Project: view(0, 15), Repository: view(16, 24), Arch: view(25, 31)}
	stream := (&api{Svc: f.svc.Service, Farm: f.svc}).logStream(nil, bob, w, view(32, 35), sofar.Data, int64(len(sofar.Data)))
	copy(path, "home:carol:ship/private/aarch64/xyz") // the next request's path

	for range 12 { // the job ends, so the stream does too
		f.clk.Advance(farmBuildTime)
		f.tick(t)
	}
	var got bytes.Buffer
	bw := bufio.NewWriter(&got)
	stream(bw)
	_ = bw.Flush()
	whole, err := f.svc.ReadLog(bob, where, "bad", farm.LogQuery{End: -1})
	if err != nil || whole.Running {
		t.Fatalf("the ended job's log: %+v %v", whole, err)
	}
	if got.String() != string(whole.Data) {
		t.Fatalf("streamed:\n%s\nwant the whole log of bad:\n%s", got.String(), whole.Data)
	}
}
