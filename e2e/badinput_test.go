package e2e

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// badCase is one file of testdata/badinput (its README describes the format).
type badCase struct {
	name        string
	status      int
	contentType string
	contains    []string
	headers     [][2]string
	within      time.Duration
	raw         []byte
}

var (
	repeatRe = regexp.MustCompile(`\{\{(.)\*(\d+)\}\}`)
	byteRe   = regexp.MustCompile(`\\x([0-9a-fA-F]{2})`)
)

// loadBadCase parses one corpus file.
func loadBadCase(t *testing.T, path string) badCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	meta, req, ok := strings.Cut(string(data), "\n---\n")
	if !ok {
		t.Fatalf("%s: no --- line", path)
	}
	bc := badCase{name: strings.TrimSuffix(filepath.Base(path), ".txt"), within: 5 * time.Second}
	for _, line := range strings.Split(meta, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, _ := strings.Cut(line, ": ")
		switch key {
		case "status":
			bc.status, err = strconv.Atoi(val)
		case "content-type":
			bc.contentType = val
		case "contains":
			bc.contains = append(bc.contains, val)
		case "header":
			k, v, _ := strings.Cut(val, ": ")
			bc.headers = append(bc.headers, [2]string{k, v})
		case "within":
			bc.within, err = time.ParseDuration(val)
		default:
			t.Fatalf("%s: unknown key %q", path, key)
		}
		if err != nil {
			t.Fatalf("%s: %s: %v", path, line, err)
		}
	}
	if bc.status == 0 {
		t.Fatalf("%s: no status", path)
	}
	// Every line ends in CRLF on the wire; a request not ending in an empty line (a head that
	// never ends) is sent without the last CRLF.
	req = strings.TrimSuffix(req, "\n")
	wire := strings.ReplaceAll(req, "\n", "\r\n")
	if strings.HasSuffix(req, "\n") || req == "" {
		wire += "\r\n"
	}
	wire = repeatRe.ReplaceAllStringFunc(wire, func(m string) string {
		sub := repeatRe.FindStringSubmatch(m)
		n, _ := strconv.Atoi(sub[2])
		return strings.Repeat(sub[1], n)
	})
	wire = byteRe.ReplaceAllStringFunc(wire, func(m string) string {
		b, _ := strconv.ParseUint(m[2:], 16, 8)
		return string([]byte{byte(b)})
	})
	if head, body, ok := strings.Cut(wire, "\r\n\r\n"); ok {
		wire = strings.Replace(head, "{{len}}", strconv.Itoa(len(body)), 1) + "\r\n\r\n" + body
	}
	bc.raw = []byte(wire)
	return bc
}

// TestBadInputCorpus sends every request of testdata/badinput raw over TCP to the built binary
// and checks each answer: the status, the API's own format, in time. Afterwards the server must
// still be healthy and must have logged no panic.
func TestBadInputCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/badinput/*.txt")
	if err != nil || len(files) < 20 {
		t.Fatalf("corpus: %v files, %v", len(files), err)
	}
	p := start(t, "--ephemeral", "--head-timeout", "1s", "--body-limit", "64MiB", "--admin-password", e2eAdminPassword,
		"--trusted-proxies", "127.0.0.0/8")
	p.waitReady(t)
	u, err := url.Parse(p.url)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		bc := loadBadCase(t, f)
		t.Run(bc.name, func(t *testing.T) {
			t.Parallel()
			conn, err := net.Dial("tcp", u.Host)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			began := time.Now()
			conn.SetDeadline(began.Add(bc.within + time.Second))
			if _, err := conn.Write(bc.raw); err != nil {
				t.Fatalf("write: %v", err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer after %v: %v", time.Since(began), err)
			}
			defer resp.Body.Close()
			took := time.Since(began)
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
			if took > bc.within {
				t.Errorf("answered after %v, want within %v", took, bc.within)
			}
			if resp.StatusCode != bc.status {
				t.Errorf("status %d, want %d; body %s", resp.StatusCode, bc.status, body)
			}
			if bc.contentType != "" && resp.Header.Get("Content-Type") != bc.contentType {
				t.Errorf("Content-Type %q, want %q", resp.Header.Get("Content-Type"), bc.contentType)
			}
			for _, s := range bc.contains {
				if !strings.Contains(string(body), s) {
					t.Errorf("body %s\nlacks %s", body, s)
				}
			}
			for _, h := range bc.headers {
				got := resp.Header.Get(h[0])
				if strings.EqualFold(h[0], "Connection") { // net/http turns it into resp.Close
					got = map[bool]string{true: "close"}[resp.Close]
				}
				if got != h[1] {
					t.Errorf("%s: %q, want %q", h[0], got, h[1])
				}
			}
		})
	}
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		if code, body := request(t, "GET", p.url+"/_appliance/livez", "", nil); code != 200 {
			t.Errorf("livez after the corpus: %d %s", code, body)
		}
		if log := p.stderr.String(); strings.Contains(log, "panic") {
			t.Errorf("the corpus caused a panic:\n%s", log)
		}
		select {
		case <-p.done:
			t.Errorf("the server exited: %v", p.exit)
		default:
		}
	})
}

// TestBadInputCorpusFormat keeps the corpus files parseable (what loadBadCase expands).
func TestBadInputCorpusFormat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x.txt")
	os.WriteFile(path, []byte("status: 400\ncontains: a: b\n---\nPOST / HTTP/1.1\nX: \\x00{{z*3}}\nContent-Length: {{len}}\n\nab\n"), 0o600)
	bc := loadBadCase(t, path)
	want := "POST / HTTP/1.1\r\nX: \x00zzz\r\nContent-Length: 2\r\n\r\nab"
	if string(bc.raw) != want || bc.status != 400 || bc.contains[0] != "a: b" {
		t.Fatalf("got %q %d %q", bc.raw, bc.status, bc.contains)
	}
}
