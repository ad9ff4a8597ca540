package specfile

// Dep is one dependency or capability: a name, optionally with a version relation, as in
// "BuildRequires: gcc >= 12" or "Provides: libfoo.so.1()(64bit)".
type Dep struct {
	Name    string `json:"name"`
	Op      string `json:"op,omitempty"`      // "", "=", "<", "<=", ">", ">="
	Version string `json:"version,omitempty"` // [epoch:]version[-release]; "" when Op is ""
}
