package store

import (
	"errors"
	"fmt"

	"github.com/pocketforge/pocketforge/store/kv/pgkv"
)

// Sentinel errors. Store and domain code wrap them (fmt.Errorf("user %q: %w", name, ErrNotFound));
// each API maps them to its own status and error body in one table. The status each one stands for
// is named here so that every API agrees on it.
var (
	// ErrNotFound means the record does not exist. HTTP 404.
	ErrNotFound = errors.New("not found")
	// ErrExists means a record with that key already exists. HTTP 409 (the cloud API renders it as
	// 400, as the real service does for duplicate labels).
	ErrExists = errors.New("already exists")
	// ErrInvalid means the input breaks a rule. HTTP 400.
	ErrInvalid = errors.New("invalid")
	// ErrConflict means the record is in a state that does not allow the operation. HTTP 409.
	ErrConflict = errors.New("conflict")
	// ErrForbidden means the caller may not do this. HTTP 403.
	ErrForbidden = errors.New("forbidden")
	// ErrTooLarge means an input is over a configured size limit. HTTP 413.
	ErrTooLarge = errors.New("too large")

	// ErrLocked means another process holds the data file's lock. Start-up only; no HTTP status.
	ErrLocked = errors.New("data file is in use by another process")
	// ErrNewerSchema means the data file was written by a newer pocketforge. Start-up: stop with a
	// clear message; restore: HTTP 400.
	ErrNewerSchema = errors.New("data file has a newer schema")
	// ErrNotPocketforge means a file is not a pocketforge data file or snapshot. HTTP 400 on restore.
	ErrNotPocketforge = errors.New("not a pocketforge data file")

	// ErrUnavailable means the shared database (--store) cannot be reached or refused the
	// commit: nothing was written. HTTP 503; the node recovers by itself once it is back.
	ErrUnavailable = pgkv.ErrUnavailable
	// ErrIsReplica means a file named as a data file is a node's replica of a shared database
	// (--store): a stale partial copy with the node's bookkeeping, not data of its own. Start-up and
	// the offline tools refuse it; HTTP 400 on restore.
	ErrIsReplica = errors.New("a node's replica of a PostgreSQL database, not a data file: start the node with --store, or take its data with `pocketforge migrate --from postgres://… --to FILE`")
	// ErrCommitTooLarge means one write is larger than the database takes; nothing was written.
	// HTTP 413.
	ErrCommitTooLarge = pgkv.ErrTooLarge
)

// Problem is one thing wrong with an input: the field it concerns ("" for none) and why.
type Problem struct {
	Field  string
	Reason string
}

// Problems lists everything wrong with an input, so an API can report as many problems as it
// found at once (the cloud API's rule). It wraps ErrInvalid: HTTP 400.
type Problems []Problem

// Error joins the reasons.
func (p Problems) Error() string {
	s := ""
	for i, x := range p {
		if i > 0 {
			s += "; "
		}
		if x.Field != "" {
			s += x.Field + ": "
		}
		s += x.Reason
	}
	return s
}

// Unwrap makes Problems an ErrInvalid.
func (p Problems) Unwrap() error { return ErrInvalid }

// Add records one problem.
func (p *Problems) Add(field, reason string) { *p = append(*p, Problem{field, reason}) }

// Err returns the problems as an error, or nil when there are none.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return p
}

// NotFoundf returns an ErrNotFound whose message is exactly the formatted text (no ": not found"
// suffix), for APIs that show the reason to users word for word (the build service's
// "Couldn't find User with login = x").
func NotFoundf(format string, args ...any) error {
	return reason{msg: fmt.Sprintf(format, args...), kind: ErrNotFound}
}

// reason is a sentinel with a message of its own.
type reason struct {
	msg  string
	kind error
}

func (r reason) Error() string { return r.msg }
func (r reason) Unwrap() error { return r.kind }
