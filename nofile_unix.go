//go:build unix

package main

import "syscall"

// raiseFileLimit raises the soft RLIMIT_NOFILE to the hard one and returns both (ok false when
// they cannot be read).
func raiseFileLimit() (soft, hard uint64, ok bool) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, 0, false
	}
	if lim.Cur < lim.Max {
		raised := lim
		raised.Cur = raised.Max
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
			lim = raised
		}
	}
	return uint64(lim.Cur), uint64(lim.Max), true
}
