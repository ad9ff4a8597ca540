package specfile

import (
	"fmt"
	"strconv"
	"strings"
)

// Failure is the line at which a simulated build stops with an error.
type Failure struct {
	Section string `json:"section"` // "%prep", "%conf", "%build", "%install", "%check", or "" before them
	Line    int    `json:"line"`    // line number in the spec
	Text    string `json:"text"`    // the line, macros expanded
	Status  int    `json:"status"`  // the script's exit status
	Msg     string `json:"msg"`     // rpmbuild's error line, without "error: "
}

// Failure returns the first line at which the build would fail, or nil when it would succeed.
// A spec with a BuildError fails before any script runs (Section "", Line 0). Then the sections run in rpmbuild's order — %prep, %conf, %build, %install, %check — each, as in
// rpmbuild, as a "/bin/sh -e" script, and the farm recognises these failures:
//
//   - "exit N" with N (mod 256) not 0: the script ends with status N;
//   - "false", "/bin/false" or "/usr/bin/false": status 1, while "set -e" is on (it is at the
//     start of every section; "set +e" turns it off, "set -e" on again);
//   - in %prep, "%patch N", "%patch -P N" or "%patchN" for a patch number no Patch tag defines
//     (rpm: "No patch number N").
//
// Only a command that runs unconditionally counts: not inside if/then/elif/else/fi,
// case/esac, for/while/until…done, a { … } group, a ( … ) subshell or a function body; not one
// side of && or || ("make check || exit 1" alone is not a failure); not in a pipeline or run in
// the background; not in a here-document or a comment. Commands are separated by newlines, ';',
// '&', '&&', '||' and '|'; quotes, backslashes, $(…) and `…` are honoured. An unconditional
// "exit" with status 0 (or no status) ends its section early: the section's later lines do not
// run, the next section does.
func (s *Spec) Failure() *Failure {
	if s.BuildError != "" {
		return &Failure{Status: 1, Msg: s.BuildError}
	}
	sections := [...]struct {
		name  string
		lines []Line
	}{{"%prep", s.Prep}, {"%conf", s.Conf}, {"%build", s.Build}, {"%install", s.Install}, {"%check", s.Check}}
	patches := make(map[int]bool, len(s.PatchNumbers))
	for _, n := range s.PatchNumbers {
		patches[n] = true
	}
	for _, sec := range sections {
		sc := shellScan{errexit: true, prep: sec.name == "%prep", patches: patches}
		for _, l := range sec.lines {
			status, msg, stop := sc.line(l.Text)
			if status != 0 {
				if msg == "" {
					msg = fmt.Sprintf("Bad exit status from /var/tmp/rpm-tmp (%s)", sec.name)
				}
				return &Failure{Section: sec.name, Line: l.No, Text: l.Text, Status: status, Msg: msg}
			}
			if stop {
				break
			}
		}
	}
	return nil
}

// shellScan follows a script line by line with just enough of the shell's grammar to tell the
// commands that run unconditionally from the rest.
type shellScan struct {
	blocks    []string // open compound commands: "if", "loop", "case", "{", "("
	errexit   bool
	heredocs  []heredoc // here-documents whose bodies start on the next line
	pendingOp string    // "&&", "||" or "|" ending the previous line: it continues
	inDoc     *heredoc  // the here-document being skipped
	prep      bool
	patches   map[int]bool
}

type heredoc struct {
	end      string
	stripTab bool
}

// command is one simple command with the operators around it.
type command struct {
	words         []string
	before, after string
}

// line scans one script line and returns a failing status and message, or stop when an
// unconditional exit 0 ends the script.
func (sc *shellScan) line(text string) (status int, msg string, stop bool) {
	// The shell drops a backslash-newline, joining the two lines.
	for _, phys := range strings.Split(strings.ReplaceAll(text, "\\\n", ""), "\n") {
		if sc.inDoc != nil {
			l := phys
			if sc.inDoc.stripTab {
				l = strings.TrimLeft(l, "\t")
			}
			if l == sc.inDoc.end {
				sc.inDoc = nil
				sc.nextDoc()
			}
			continue
		}
		if status, msg, stop = sc.commands(phys); status != 0 || stop {
			return
		}
	}
	return 0, "", false
}

func (sc *shellScan) nextDoc() {
	if len(sc.heredocs) > 0 {
		d := sc.heredocs[0]
		sc.heredocs = sc.heredocs[1:]
		sc.inDoc = &d
	}
}

// commands scans one physical line (a trailing backslash joins the next one).
func (sc *shellScan) commands(line string) (int, string, bool) {
	cmds := sc.split(line)
	for _, c := range cmds {
		if status, msg, stop := sc.run(c); status != 0 || stop {
			return status, msg, stop
		}
	}
	if sc.inDoc == nil {
		sc.nextDoc()
	}
	return 0, "", false
}

// run judges one command.
func (sc *shellScan) run(c command) (int, string, bool) {
	w := c.words
	for len(w) > 0 {
		if len(w) >= 3 && w[1] == "(" && w[2] == ")" {
			w = w[3:] // "name() { …": the body is a block of its own
			continue
		}
		switch w[0] {
		case "if", "while", "until":
			sc.blocks = append(sc.blocks, "if")
		case "for", "select":
			sc.blocks = append(sc.blocks, "loop")
			w = nil
			continue
		case "case":
			sc.blocks = append(sc.blocks, "case")
			w = nil
			continue
		case "{", "(":
			sc.blocks = append(sc.blocks, w[0])
		case ")":
			if n := len(sc.blocks); n > 0 && sc.blocks[n-1] != "case" {
				sc.blocks = sc.blocks[:n-1]
			}
		case "fi", "done", "esac", "}":
			if n := len(sc.blocks); n > 0 {
				sc.blocks = sc.blocks[:n-1]
			}
		case "function":
			w = w[min(2, len(w)):]
			if len(w) >= 2 && w[0] == "(" && w[1] == ")" {
				w = w[2:]
			}
			continue
		case "!":
			return 0, "", false // a negated command never fails the script
		case "then", "else", "elif", "do":
		default:
			return sc.simple(c, w)
		}
		w = w[1:]
	}
	return 0, "", false
}

// simple judges a simple command whose words are w.
func (sc *shellScan) simple(c command, w []string) (int, string, bool) {
	if w[0] == "set" {
		for i, a := range w[1:] {
			switch {
			case a == "-o" && i+2 < len(w) && w[i+2] == "errexit":
				sc.errexit = true
			case a == "+o" && i+2 < len(w) && w[i+2] == "errexit":
				sc.errexit = false
			case strings.HasPrefix(a, "-") && strings.Contains(a, "e") && !strings.HasPrefix(a, "--"):
				sc.errexit = true
			case strings.HasPrefix(a, "+") && strings.Contains(a, "e"):
				sc.errexit = false
			}
		}
	}
	uncond := len(sc.blocks) == 0 && c.before != "&&" && c.before != "||" && c.before != "|" &&
		c.after != "&&" && c.after != "||" && c.after != "|" && c.after != "&"
	if !uncond {
		return 0, "", false
	}
	switch w[0] {
	case "exit":
		if len(w) == 1 {
			return 0, "", true
		}
		n, err := strconv.Atoi(w[1])
		if err != nil {
			return 0, "", false
		}
		if n&255 == 0 {
			return 0, "", true
		}
		return n & 255, "", false
	case "false", "/bin/false", "/usr/bin/false":
		if sc.errexit {
			return 1, "", false
		}
	}
	if sc.prep && strings.HasPrefix(w[0], "%patch") {
		for _, n := range patchNumbers(w) {
			if !sc.patches[n] {
				return 1, fmt.Sprintf("No patch number %d", n), false
			}
		}
	}
	return 0, "", false
}

// patchNumbers reads the patch numbers of a %patch line: "%patchN", "%patch N", "%patch -P N"
// or "-PN" (several allowed); a bare "%patch" is patch 0, as in rpm before 4.20.
func patchNumbers(w []string) []int {
	var nums []int
	if rest := strings.TrimPrefix(w[0], "%patch"); rest != "" {
		n, err := strconv.Atoi(rest)
		if err != nil {
			return nil // %patchlist or another macro: not a %patch line
		}
		nums = append(nums, n)
	}
	for i := 1; i < len(w); i++ {
		a := w[i]
		switch {
		case a == "-P" && i+1 < len(w):
			i++
			if n, err := strconv.Atoi(w[i]); err == nil {
				nums = append(nums, n)
			}
		case strings.HasPrefix(a, "-P"):
			if n, err := strconv.Atoi(a[2:]); err == nil {
				nums = append(nums, n)
			}
		case a == "-p" || a == "-b" || a == "-z" || a == "-d" || a == "-o" || a == "-F":
			i++ // options that take a value
		case !strings.HasPrefix(a, "-"):
			if n, err := strconv.Atoi(a); err == nil {
				nums = append(nums, n)
			}
		}
	}
	if len(nums) == 0 && w[0] == "%patch" {
		nums = append(nums, 0)
	}
	return nums
}
