package main

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/store"
	"github.com/spf13/cobra"
)

// Exit codes (issue 32), so a script can tell a mistake in its command line from a file that is
// not there and from an operation the appliance refused; README lists them.
const (
	exitOK      = 0
	exitFailed  = 1 // anything else: the server failed, a write failed, an I/O error
	exitUsage   = 2 // the command line: an unknown command or flag, a wrong number of arguments, a bad value (cobra's convention)
	exitData    = 3 // a file named is missing or is not what it should be (not a data file or snapshot, a newer schema, a node's replica)
	exitRefused = 4 // refused as things stand: the data file is in use by a running server, a file exists without --force
)

// usageError is a mistake in the command line.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// refusal is an operation refused as things stand (exists without --force, and the like).
type refusal struct{ error }

func (e refusal) Unwrap() error { return e.error }

// exitCode is the code err ends the process with.
func exitCode(err error) int {
	var usage usageError
	var refused refusal
	var cfgErr *config.InvalidError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &usage), errors.As(err, &cfgErr), strings.HasPrefix(err.Error(), "unknown command"):
		return exitUsage
	case errors.As(err, &refused), errors.Is(err, store.ErrLocked), errors.Is(err, store.ErrExists):
		return exitRefused
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, store.ErrNotPocketforge), errors.Is(err, store.ErrNewerSchema),
		errors.Is(err, store.ErrIsReplica):
		return exitData
	}
	return exitFailed
}

// markUsage makes every command's argument and flag errors usageErrors.
func markUsage(cmd *cobra.Command) {
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return usageError{err}
			}
			return nil
		}
	}
	for _, sub := range cmd.Commands() {
		markUsage(sub)
	}
}
