package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// docsOrder is the order the docs/ files' examples run in after README.md's: the order their
// sections stood in README.md before they moved out of it, since some examples change what later
// ones see (the clock, a token, tags, a message, a restored snapshot). A docs/*.md file not named
// here runs after these, by name.
var docsOrder = []string{
	"appliance.md", "cloud.md", "databases.md", "farm.md", "build.md",
	"explorer.md", "values.md", "operations.md", "benchmarks.md",
}

// exampleFiles lists README.md and then every docs/*.md file, in the order their examples run.
func exampleFiles(t *testing.T) []string {
	t.Helper()
	found, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var rest []string
	for _, f := range found {
		if !slices.Contains(docsOrder, filepath.Base(f)) {
			rest = append(rest, f)
		}
	}
	sort.Strings(rest)
	files := []string{"../README.md"}
	for _, name := range docsOrder {
		files = append(files, filepath.Join("..", "docs", name))
	}
	return append(files, rest...)
}

// exampleCount is what TestReadmeExamples did with one file's lines.
type exampleCount struct {
	file         string
	ran, checked int
}

// TestReadmeExamples runs the `curl` lines of the ```sh blocks of README.md and then of every
// docs/*.md file (exampleFiles' order), each file's lines in order, against one built binary as a
// new user would (started with --dev-clock --bootstrap-token dev-root-token, $TOKEN being that
// token, localhost:8080 being where it listens), once the farm has built the demo world's
// Pocket 1.0 products (the clock moved on until the explorer lists them). A line with a `# …`
// comment must print that output (each part between "…" present, in order); a line without one
// must not answer an error. `pocketforge values …` lines run too, so the files they write exist
// for the curl lines that send them. The example that showed a not_found its request never got
// is what this test keeps from coming back.
func TestReadmeExamples(t *testing.T) {
	t.Parallel()
	bboltPassOnly(t, "README's examples show the default, one data file (readyz there has no database part)")
	type fileLines struct {
		name  string
		lines []string
	}
	var docs []fileLines
	for _, f := range exampleFiles(t) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err) // a file named in docsOrder that is gone: its examples would be lost
		}
		docs = append(docs, fileLines{strings.TrimPrefix(filepath.ToSlash(f), "../"), shLines(string(text))})
	}
	work := t.TempDir()
	p := startDemo(t, filepath.Join(work, "d.db"), "--dev-clock", "--bootstrap-token", "dev-root-token")
	p.waitReady(t)
	p.waitProducts(t, "dev-root-token") // the explorer's examples read the farm's Pocket 1.0
	// Back to the wall clock, where README's clock example starts (the farm is quiet by now).
	if code, body := request(t, "POST", p.url+"/_appliance/clock", "dev-root-token", strings.NewReader(`{"offset":"0s"}`)); code != 200 {
		t.Fatalf("the clock back to the wall clock: %d %s", code, body)
	}
	vars := map[string]string{"TOKEN": "dev-root-token"}
	var counts []exampleCount
	ran, checked := 0, 0
	for _, doc := range docs {
		c := exampleCount{file: doc.name}
		for _, line := range doc.lines {
			words, expected, err := shellWords(line, vars)
			if err != nil {
				t.Fatalf("%s line %q: %v", doc.name, line, err)
			}
			switch {
			case len(words) > 0 && words[0] == "curl":
				c.ran++
				status, body := runCurl(t, p, work, words)
				if expected != "" {
					c.checked++
					if !matchesElided(body, expected) {
						t.Errorf("%s line\n  %s\nprints\n  %s\nnot\n  %s", doc.name, line, body, expected)
					}
				} else if status >= 400 {
					t.Errorf("%s line\n  %s\nanswers %d: %s", doc.name, line, status, body)
				}
			case len(words) > 1 && words[0] == "pocketforge" && words[1] == "values":
				runValues(t, work, words[1:])
			}
		}
		counts = append(counts, c)
		ran, checked = ran+c.ran, checked+c.checked
	}
	t.Logf("ran %d curl lines, checked %d: %s", ran, checked, countsText(counts))
	if ran < 40 || checked < 32 || counts[0].ran < 8 || counts[0].checked < 8 {
		t.Fatalf("ran %d curl lines, checked %d (README.md at least 8 and 8, all files at least 40 and 32): the sh blocks were not found: %s",
			ran, checked, countsText(counts))
	}
}

// countsText says per file how many curl lines ran and how many were checked.
func countsText(counts []exampleCount) string {
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = fmt.Sprintf("%s %d/%d", c.file, c.ran, c.checked)
	}
	return strings.Join(parts, ", ")
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
