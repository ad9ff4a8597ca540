package e2e

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// TestReadmeExamples runs the `curl` lines of README.md's ```sh blocks, in order, against the
// built binary as a new user would (started with --dev-clock --bootstrap-token dev-root-token,
// $TOKEN being that token, localhost:8080 being where it listens), once the farm has built the
// demo world's Pocket 1.0 products (the clock moved on until the explorer lists them). A line with a `# …` comment
// must print that output (each part between "…" present, in order); a line without one must not
// answer an error. `pocketforge values …` lines run too, so the files they write exist for the
// curl lines that send them. The example that showed a not_found its request never got is what
// this test keeps from coming back.
func TestReadmeExamples(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := shLines(string(readme))
	work := t.TempDir()
	p := startDemo(t, filepath.Join(work, "d.db"), "--dev-clock", "--bootstrap-token", "dev-root-token")
	p.waitReady(t)
	p.waitProducts(t, "dev-root-token") // the explorer's examples read the farm's Pocket 1.0
	// Back to the wall clock, where README's clock example starts (the farm is quiet by now).
	if code, body := request(t, "POST", p.url+"/_appliance/clock", "dev-root-token", strings.NewReader(`{"offset":"0s"}`)); code != 200 {
		t.Fatalf("the clock back to the wall clock: %d %s", code, body)
	}
	vars := map[string]string{"TOKEN": "dev-root-token"}
	ran, checked := 0, 0
	for _, line := range lines {
		words, expected, err := shellWords(line, vars)
		if err != nil {
			t.Fatalf("README line %q: %v", line, err)
		}
		switch {
		case len(words) > 0 && words[0] == "curl":
			ran++
			status, body := runCurl(t, p, work, words)
			if expected != "" {
				checked++
				if !matchesElided(body, expected) {
					t.Errorf("README line\n  %s\nprints\n  %s\nnot\n  %s", line, body, expected)
				}
			} else if status >= 400 {
				t.Errorf("README line\n  %s\nanswers %d: %s", line, status, body)
			}
		case len(words) > 1 && words[0] == "pocketforge" && words[1] == "values":
			runValues(t, work, words[1:])
		}
	}
	if ran < 15 || checked < 12 {
		t.Fatalf("ran %d curl lines of README, checked %d: the sh blocks were not found", ran, checked)
	}
}

// shLines returns the lines of the ```sh blocks of a markdown text.
func shLines(md string) []string {
	var out []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(md))
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "```sh"):
			in = true
		case strings.HasPrefix(l, "```"):
			in = false
		case in && strings.TrimSpace(l) != "":
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// shellWords splits a shell line as sh would for the forms README uses: '…' literal, "…" with
// $VAR expanded, bare words with $VAR expanded, and a comment after an unquoted " #" (returned
// as expected). Anything else it does not know is an error, so a new form gets taught here.
func shellWords(line string, vars map[string]string) (words []string, expected string, err error) {
	var cur strings.Builder
	have := false
	flush := func() {
		if have {
			words = append(words, cur.String())
		}
		cur.Reset()
		have = false
	}
	expand := func(s string) string {
		return os.Expand(s, func(k string) string { return vars[k] })
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '#' && !have:
			return words, strings.TrimSpace(line[i+1:]), nil
		case unicode.IsSpace(rune(c)):
			flush()
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, "", errUnclosed
			}
			cur.WriteString(line[i+1 : i+1+j])
			have, i = true, i+1+j
		case c == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				return nil, "", errUnclosed
			}
			cur.WriteString(expand(line[i+1 : i+1+j]))
			have, i = true, i+1+j
		case c == '$':
			j := i + 1
			for j < len(line) && (line[j] == '_' || unicode.IsLetter(rune(line[j])) || unicode.IsDigit(rune(line[j]))) {
				j++
			}
			cur.WriteString(vars[line[i+1:j]])
			have, i = true, j-1
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	flush()
	return words, "", nil
}

var errUnclosed = io.ErrUnexpectedEOF

// runCurl does what curl does with the options README uses (-s, -H, -d, --data-binary,
// -u, -o) and returns the status and the body it would print.
func runCurl(t *testing.T, p *proc, work string, words []string) (int, string) {
	t.Helper()
	var url, out, user, method string
	var body io.Reader
	header := http.Header{}
	for i := 1; i < len(words); i++ {
		w := words[i]
		next := func() string {
			if i+1 >= len(words) {
				t.Fatalf("curl %s needs a value", w)
			}
			i++
			return words[i]
		}
		switch w {
		case "-s":
		case "-H":
			k, v, _ := strings.Cut(next(), ":")
			header.Set(k, strings.TrimSpace(v))
		case "-d", "--data-binary":
			data := next()
			if strings.HasPrefix(data, "@") {
				b, err := os.ReadFile(filepath.Join(work, data[1:]))
				if err != nil {
					t.Fatalf("curl %s %s: %v", w, data, err)
				}
				data = string(b)
				if w == "-d" { // curl -d strips newlines from a file
					data = strings.NewReplacer("\r", "", "\n", "").Replace(data)
				}
			}
			body = strings.NewReader(data)
		case "-u":
			user = next()
		case "-X":
			method = next()
		case "-o":
			out = next()
		default:
			if strings.HasPrefix(w, "-") {
				t.Fatalf("curl option %s: teach TestReadmeExamples what it does", w)
			}
			url = strings.Replace(w, "localhost:8080", strings.TrimPrefix(p.url, "http://"), 1)
		}
	}
	if method == "" {
		method = "GET"
		if body != nil {
			method = "POST"
		}
	}
	if body != nil {
		if header.Get("Content-Type") == "" {
			header.Set("Content-Type", "application/x-www-form-urlencoded") // curl's default
		}
	}
	req, err := http.NewRequest(method, "http://"+url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	if user != "" {
		name, pass, _ := strings.Cut(user, ":")
		req.SetBasicAuth(name, pass)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("curl %v: %v", words[1:], err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != "" {
		if err := os.WriteFile(filepath.Join(work, out), data, 0o600); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, ""
	}
	return resp.StatusCode, strings.TrimRight(string(data), "\n")
}

// runValues runs a `pocketforge values …` line in work, writing its output where a "> FILE"
// sends it.
func runValues(t *testing.T, work string, args []string) {
	t.Helper()
	var file string
	if i := len(args) - 2; i > 0 && args[i] == ">" {
		file, args = args[i+1], args[:i]
	}
	for i, a := range args {
		if !strings.HasPrefix(a, "-") && strings.Contains(a, ".") {
			args[i] = filepath.Join(work, a)
		}
	}
	code, out, errOut := runCLI(t, args...)
	if file != "" {
		if code != 0 {
			t.Fatalf("pocketforge %v: exit %d %s", args, code, errOut)
		}
		if err := os.WriteFile(filepath.Join(work, file), []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// matchesElided reports whether got holds the parts of want between "…", in order, the first at
// its start and the last at its end.
func matchesElided(got, want string) bool {
	parts := strings.Split(want, "…")
	if !strings.HasPrefix(got, parts[0]) || !strings.HasSuffix(got, parts[len(parts)-1]) {
		return false
	}
	rest := got[len(parts[0]):]
	for _, part := range parts[1:] {
		i := strings.Index(rest, part)
		if i < 0 {
			return false
		}
		rest = rest[i+len(part):]
	}
	return len(parts) > 1 || got == want
}
