package specfile

import (
	"errors"
	"strings"
)

// call expands macro m. withArgs says whether args (unexpanded, space separated) were given; a
// parametric macro is always called with its arguments pushed, even when there are none.
func (e *expander) call(m *macro, name, args string, withArgs bool, depth int, out *[]byte) error {
	e.work += 16
	if m.fn != nil {
		return m.fn(e, name, args, depth, out)
	}
	if m.literal {
		return e.emit(out, m.body)
	}
	if !m.param {
		return e.expand(m.body, depth+1, out)
	}
	var argv []string
	if withArgs {
		expanded, err := e.sub(args, depth)
		if err != nil {
			return err
		}
		argv = strings.Fields(expanded)
	}
	return e.callArgs(m, name, argv, depth, out)
}

// callArgs runs parametric macro m with argv: options by its getopt string become %{-f} and
// %{-f*}, the rest %1…%N, %* and %#, all of them %**, its name %0.
func (e *expander) callArgs(m *macro, name string, argv []string, depth int, out *[]byte) error {
	type local struct{ name, body string }
	locals := []local{{"0", name}, {"**", strings.Join(argv, " ")}}
	rest := argv
	for len(rest) > 0 && len(rest[0]) > 1 && rest[0][0] == '-' {
		a := rest[0]
		rest = rest[1:]
		if a == "--" {
			break
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			p := strings.IndexByte(m.opts, c)
			if c == ':' || p < 0 {
				return errors.New("Unknown option " + string(c) + " in " + name + "(" + m.opts + ")")
			}
			if p+1 < len(m.opts) && m.opts[p+1] == ':' {
				val := a[k+1:]
				if val == "" {
					if len(rest) == 0 {
						return errors.New("Option -" + string(c) + " requires an argument in " + name + "(" + m.opts + ")")
					}
					val, rest = rest[0], rest[1:]
				}
				locals = append(locals, local{"-" + string(c), "-" + string(c) + " " + val}, local{"-" + string(c) + "*", val})
				break
			}
			locals = append(locals, local{"-" + string(c), "-" + string(c)})
		}
	}
	locals = append(locals, local{"*", strings.Join(rest, " ")}, local{"#", itoa(len(rest))})
	for k, a := range rest {
		locals = append(locals, local{itoa(k + 1), a})
	}
	for _, l := range locals {
		e.define(l.name, l.body, nil)
	}
	err := e.expand(m.body, depth+1, out)
	for k := len(locals) - 1; k >= 0; k-- {
		e.undefine(locals[k].name)
	}
	return err
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}
