package explorersvc

// BackendError is a build backend that gave no usable answer: one that did not answer in time
// (Timeout), could not be reached, refused the explorer's credentials, or answered what no
// build service sends (a remote one: explorersvc/remote). Code names which for the APIs that
// show a code (backend_timeout, backend_unreachable, backend_refused, backend_failed), and Msg
// says it to the user. The APIs answer it 504 when it timed out and 500 otherwise, showing Msg
// — the seed's statuses for a backend that is slow or down. It is no *fault.Error: nothing
// the explorer's rules refused, so a search page says the backend is unavailable rather than
// show it as a refusal.
type BackendError struct {
	Code    string
	Msg     string
	Timeout bool
}

// Error returns the message.
func (e *BackendError) Error() string { return e.Msg }
