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
// it); without it they skip and say so. The package has no code of its own: this file is here
// for this comment.
package e2e
