//go:build race

package cloudapi

// raceDetector is true under -race, where a bcrypt run is many times slower than in a release
// build: a test that runs dozens of them at once sizes itself down.
const raceDetector = true
