//go:build !race

package cloudapi

// raceDetector is true under -race (see race_on_test.go).
const raceDetector = false
