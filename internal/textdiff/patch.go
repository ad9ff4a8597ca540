package textdiff

import (
	"fmt"
	"strconv"
	"strings"
)

// Apply applies a unified diff to files (name → content) the way the build service applies a
// link's <apply name="…"/> patch: `patch -p0`, so the "+++" path names the file as is (a
// trailing tab and timestamp are dropped). A hunk may sit a few lines off its stated position,
// as patch allows, but its context must match exactly — there is no fuzz, so a patch that no
// longer fits is an error the link reports, never a half-applied file. A "+++ /dev/null" file
// is deleted; a "--- /dev/null" file is created.
func Apply(files map[string][]byte, patch []byte) error {
	lines := SplitLines(patch)
	applied := 0
	for i := 0; i < len(lines); {
		if !strings.HasPrefix(lines[i], "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			i++
			continue
		}
		oldName, newName := headerPath(lines[i][4:]), headerPath(lines[i+1][4:])
		i += 2
		name := newName
		if name == "/dev/null" {
			name = oldName
		}
		if name == "" || strings.Contains(name, "/") {
			return fmt.Errorf("patch names a file '%s' outside the package", name)
		}
		var body []string
		if oldName != "/dev/null" {
			data, ok := files[name]
			if !ok {
				return fmt.Errorf("patch modifies '%s', which does not exist", name)
			}
			body = SplitLines(data)
		}
		var err error
		if body, i, err = applyHunks(body, lines, i); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if newName == "/dev/null" {
			delete(files, name)
		} else {
			files[name] = []byte(strings.Join(body, ""))
		}
		applied++
	}
	if applied == 0 {
		return fmt.Errorf("no unified diff found")
	}
	return nil
}

// headerPath is the path of a ---/+++ header line.
func headerPath(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if tab := strings.IndexByte(s, '\t'); tab >= 0 {
		s = s[:tab]
	}
	return strings.TrimSpace(s)
}

// applyHunks applies the "@@" hunks that follow lines[i] to body; it returns the new body and
// the index of the first line after the hunks.
func applyHunks(body, lines []string, i int) ([]string, int, error) {
	shift := 0 // how far later hunks move because of the earlier ones
	for i < len(lines) && strings.HasPrefix(lines[i], "@@ ") {
		oldStart, err := hunkStart(lines[i])
		if err != nil {
			return nil, i, err
		}
		i++
		var old, repl []string
		for ; i < len(lines); i++ {
			l := lines[i]
			if strings.HasPrefix(l, `\ `) { // "\ No newline at end of file": the line before has none
				prev := lines[i-1][0]
				if prev != '+' && len(old) > 0 {
					old[len(old)-1] = strings.TrimSuffix(old[len(old)-1], "\n")
				}
				if prev != '-' && len(repl) > 0 {
					repl[len(repl)-1] = strings.TrimSuffix(repl[len(repl)-1], "\n")
				}
				continue
			}
			if l == "" || (l[0] != ' ' && l[0] != '-' && l[0] != '+') || strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ") {
				break
			}
			switch l[0] {
			case ' ':
				old, repl = append(old, l[1:]), append(repl, l[1:])
			case '-':
				old = append(old, l[1:])
			case '+':
				repl = append(repl, l[1:])
			}
		}
		at := locate(body, old, max(oldStart-1, 0)+shift)
		if at < 0 {
			return nil, i, fmt.Errorf("hunk at line %d does not apply", oldStart)
		}
		body = append(append(append([]string(nil), body[:at]...), repl...), body[at+len(old):]...)
		shift += len(repl) - len(old)
	}
	return body, i, nil
}

// hunkStart reads the old start line of "@@ -start[,len] +start[,len] @@".
func hunkStart(header string) (int, error) {
	f := strings.Fields(header)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return 0, fmt.Errorf("bad hunk header %q", strings.TrimSpace(header))
	}
	n, err := strconv.Atoi(strings.SplitN(f[1][1:], ",", 2)[0])
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad hunk header %q", strings.TrimSpace(header))
	}
	return n, nil
}

// locate finds old in body nearest to want, searching outwards; -1 when it is nowhere.
func locate(body, old []string, want int) int {
	fits := func(at int) bool {
		if at < 0 || at+len(old) > len(body) {
			return false
		}
		for k, l := range old {
			if body[at+k] != l {
				return false
			}
		}
		return true
	}
	for d := 0; d <= len(body); d++ {
		if fits(want - d) {
			return want - d
		}
		if fits(want + d) {
			return want + d
		}
	}
	return -1
}

// PatchedFiles lists the files a unified diff touches (its "+++" paths, or "---" for a
// deletion), so a caller loads only those before Apply.
func PatchedFiles(patch []byte) []string {
	lines := SplitLines(patch)
	var out []string
	for i := 0; i+1 < len(lines); i++ {
		if strings.HasPrefix(lines[i], "--- ") && strings.HasPrefix(lines[i+1], "+++ ") {
			name := headerPath(lines[i+1][4:])
			if name == "/dev/null" {
				name = headerPath(lines[i][4:])
			}
			out = append(out, name)
			i++
		}
	}
	return out
}
