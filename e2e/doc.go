// Package e2e holds the end-to-end tests of pocketforge: TestMain builds the binary from the
// module root once, and the tests drive it as a user does — start it on a temporary data file,
// talk HTTP to it with real clients (osc for the build API, linodego and plain HTTP for the cloud
// API), run its CLI commands, signal it, kill it with SIGKILL mid-write and restart it. They live
// apart from the root package so that they can only reach pocketforge through the binary, never
// through its unexported code.
//
// Run them from the module root with
//
//	go test -count=1 ./e2e/
//
// The build API tests need the osc client on PATH (Debian: apt-get install -y osc; CI installs
// it); without it they skip and say so. No test installs anything: a missing tool (osc, rpm,
// dnf, node, chromium, git) makes its tests skip, naming the Debian package.
//
// How a run is kept within minutes and leaves nothing behind:
//
//   - Tests run eight at a time (TestMain sets -test.parallel to 8 unless it is given), each on
//     its own server, port (--addr 127.0.0.1:0), data file, HOME and TMPDIR in t.TempDir().
//     Tests that measure time or hold connections at a cap run one at a time first.
//   - Tests that start from a state that takes a minute of builds to reach (the demo world with
//     its Pocket 1.0 products built, the e2ebins project built and published) start on a copy
//     of a data file prepared once per run (worlds_test.go), and move time with the dev clock.
//   - Heavy tests — those that only prove the appliance holds up for a long while (the soak) —
//     run only with POCKETFORGE_HEAVY_TESTS=1, which .ci/run sets.
//   - Every file of a run lives in one run directory under the system's temporary directory,
//     pocketforge-e2e-*: the binary, the prepared worlds and, through TMPDIR, every t.TempDir().
//     Every process a test starts gets SIGKILL when the test binary dies (the parent-death
//     signal, from a thread locked for the child's life) and leads a process group of its own.
//     A reaper process, started by TestMain, waits for the test binary to be gone however it
//     ended (a pass, the timeout's SIGQUIT, Ctrl-C, kill -9), kills what is left of those
//     groups and removes the run directory; a later run removes any run directory whose test
//     binary is gone, should the reaper have been killed too. TestInterruptedRunLeavesNothing
//     checks all this on an inner run of the test binary.
//
// The package has no code of its own: this file is here for this comment.
package e2e
