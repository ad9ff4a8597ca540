package config

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// setting is one raw value for one option, remembered with where it came from so that a parse
// failure can say which flag, variable or file line to fix.
type setting struct {
	opt   *option
	value string
	env   string // the variable name, for values from the environment
	file  string // the file name, for values from the config file
	line  int    // the 1-based line in file
}

// apply parses s.value into c with the option's parse function and turns a failure into the
// one-line message for its source. Secret values are never echoed back.
func (s setting) apply(c *Config) error {
	err := s.opt.set(c, s.value)
	if err == nil {
		return nil
	}
	value := fmt.Sprintf(" %q", s.value)
	if s.opt.secret {
		value = ""
	}
	if s.opt.mask != nil {
		value = fmt.Sprintf(" %q", s.opt.mask(s.value))
	}
	switch {
	case s.file != "":
		return &InvalidError{fmt.Errorf("config file %s: line %d: invalid value%s for %s: %w", s.file, s.line, value, s.opt.name, err)}
	case s.env != "":
		return &InvalidError{fmt.Errorf("invalid value%s for %s (--%s): %w", value, s.env, s.opt.name, err)}
	default:
		return &InvalidError{fmt.Errorf("invalid value%s for --%s: %w", value, s.opt.name, err)}
	}
}

// InvalidError is an option's value that does not parse, from a flag, the environment or the
// config file: a usage error (the command exits 2).
type InvalidError struct{ error }

func (e *InvalidError) Unwrap() error { return e.error }

// fromEnv returns a setting for every option whose POCKETFORGE_* twin is present in env with a
// non-empty value (an empty variable counts as unset, as in most shells' "VAR= cmd" idiom).
// When a name repeats, the last entry wins, matching os/exec's handling of Cmd.Env.
func fromEnv(env []string) []setting {
	vars := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	var out []setting
	for i := range options {
		o := &options[i]
		name := EnvName(o.name)
		if v := vars[name]; v != "" {
			out = append(out, setting{opt: o, value: v, env: name})
		}
	}
	return out
}

// fromFlagSet returns a setting for every option the user set on the command line. Flags the
// set does not hold, or that keep their default, are left to the lower-precedence sources.
func fromFlagSet(fs *pflag.FlagSet) []setting {
	var out []setting
	if fs == nil {
		return out
	}
	for i := range options {
		o := &options[i]
		if f := fs.Lookup(o.name); f != nil && f.Changed {
			out = append(out, setting{opt: o, value: f.Value.String()})
		}
	}
	return out
}
