package e2e

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestUnauthenticatedBodiesAreNotRead (issue 32): a body sent to a path that does not
// authenticate — the OAuth login server, the explorer API, a badge, the deploy API, the build
// proxy, a web page and a form, a method nobody routes — is read only as far as that route
// takes one: a declared length over the route's bound is answered 413 on the head, a chunked
// one is cut off at the bound, and a route that takes none never reads it. Before, each was read
// whole (up to --body-limit, 256 MiB) before the 404, 405 or 403: eight 250 MB POSTs took the
// resident memory from ~110 MB to 3.3–4.6 GB. Here eight of them at once, then eight chunked
// ones, must leave it within 50 MB of where it was.
func TestUnauthenticatedBodiesAreNotRead(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral", "--no-fixtures")
	p.waitReady(t)
	u, _ := url.Parse(p.url)
	paths := []string{"/oauth/token", "/api/search/package", "/badge/x.svg", "/deploy/values/validate",
		"/obs/source", "/", "/values", "/console/signin"}
	before := rss(t, p.cmd.Process.Pid)
	for _, chunked := range []bool{false, true} {
		var wg sync.WaitGroup
		for _, path := range paths {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, err := postHuge(u.Host, path, 250<<20, chunked)
				if err != nil {
					t.Errorf("POST %s (chunked %v): %v", path, chunked, err)
				} else if status < 400 || status >= 500 {
					t.Errorf("POST %s (chunked %v): %d, want a refusal", path, chunked, status)
				}
			}()
		}
		wg.Wait()
	}
	after := rss(t, p.cmd.Process.Pid)
	t.Logf("resident memory %d MiB before, %d MiB after sixteen 250 MB bodies", before>>10, after>>10)
	if after-before > 50<<10 {
		t.Fatalf("resident memory grew by %d MiB (bound 50 MiB): the bodies were read", (after-before)>>10)
	}
	if code, _ := request(t, "GET", p.url+"/_appliance/livez", "", nil); code != 200 {
		t.Fatalf("livez after the bodies: %d", code)
	}
}

// postHuge sends a POST to path with a body of n zero bytes (declared, or chunked), writing until
// the server answers or stops reading, and returns the answer's status. The server may close the
// connection before the body is through: a failed write is not an error, a missing answer is.
func postHuge(host, path string, n int64, chunked bool) (int, error) {
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\n", path, host)
	if chunked {
		head += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		head += fmt.Sprintf("Content-Length: %d\r\n\r\n", n)
	}
	if _, err := conn.Write([]byte(head)); err != nil {
		return 0, err
	}
	answered := make(chan struct{})
	go func() { // the body, until the server answers or the connection fails
		chunk := make([]byte, 1<<20)
		framed := []byte(fmt.Sprintf("%x\r\n%s\r\n", len(chunk), chunk))
		for sent := int64(0); sent < n; sent += int64(len(chunk)) {
			select {
			case <-answered:
				return
			default:
			}
			b := chunk
			if chunked {
				b = framed
			}
			if _, err := conn.Write(b); err != nil {
				return
			}
		}
		if chunked {
			_, _ = conn.Write([]byte("0\r\n\r\n"))
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	close(answered)
	if err != nil {
		return 0, fmt.Errorf("no answer: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusRequestEntityTooLarge && !resp.Close && !strings.EqualFold(resp.Header.Get("Connection"), "close") {
		return resp.StatusCode, fmt.Errorf("413 without Connection: close (the rest of the body would be read as the next request)")
	}
	return resp.StatusCode, nil
}
