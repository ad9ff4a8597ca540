//go:build !unix

package main

// raiseFileLimit knows no open-file limit here.
func raiseFileLimit() (soft, hard uint64, ok bool) { return 0, 0, false }
