package buildapi

import (
	"net"
	"regexp"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestBuildReadProtection: the build routes read through the project's read protection — a
// project hidden from bob is a 404 on each and gone from /build/ — and a log is the sources
// made visible, so sourceaccess disabled refuses it while the results stay readable.
func TestBuildReadProtection(t *testing.T) {
	f := newFarmEnv(t)
	asCarol := basic("carol", "carol-password")
	repo := `<repository name="standard"><arch>x86_64</arch></repository>`
	secret := `<project name="home:alice:secret"><title>S</title><description/><person userid="alice" role="maintainer"/>` +
		`<person userid="carol" role="reader"/><access><disable/></access>` + repo + `</project>`
	closed := `<project name="home:alice:closed"><title>C</title><description/><person userid="alice" role="maintainer"/>` +
		`<sourceaccess><disable/></sourceaccess>` + repo + `</project>`
	for _, p := range []struct{ name, meta string }{{"secret", secret}, {"closed", closed}} {
		prj := "/source/home:alice:" + p.name
		for _, s := range []scenario{
			{"project", req("PUT", prj+"/_meta", asAlice, p.meta), ok},
			{"package", req("PUT", prj+"/hello/_meta", asAlice, `<package name="hello"><title/><description/></package>`), ok},
			{"spec", req("PUT", prj+"/hello/hello.spec", asAlice, farmSpec("hello", "", "echo hi")), ok200},
		} {
			s.Expect.Check(t, apitest.Do(t, f.app, s.Request))
		}
	}
	f.buildAll(t)
	s, c := "/build/home:alice:secret", "/build/home:alice:closed"
	f.run(t, []scenario{
		{"bob: not listed", req("GET", "/build/", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`home:alice:closed`}, Excludes: []string{"home:alice:secret"}}},
		{"carol: listed", req("GET", "/build/", asCarol, ""), want(200, `<entry name="home:alice:secret">`)},
		{"bob: results", req("GET", s+"/_result", asBob, ""), code(404, "unknown_project")},
		{"bob: repositories", req("GET", s, asBob, ""), code(404, "unknown_project")},
		{"bob: status", req("GET", s+"/standard/x86_64/hello/_status", asBob, ""), code(404, "unknown_project")},
		{"bob: history", req("GET", s+"/standard/x86_64/hello/_history", asBob, ""), code(404, "unknown_project")},
		{"bob: job history", req("GET", s+"/standard/x86_64/_jobhistory", asBob, ""), code(404, "unknown_project")},
		{"bob: log", req("GET", s+"/standard/x86_64/hello/_log", asBob, ""), code(404, "unknown_project")},
		{"bob: legacy", req("GET", "/result/home:alice:secret/standard/result", asBob, ""), code(404, "unknown_project")},
		{"bob: rebuild", req("POST", s+"?cmd=rebuild", asBob, ""), code(404, "unknown_project")},
		{"carol: results", req("GET", s+"/_result", asCarol, ""), want(200, `<status package="hello" code="succeeded"`)},
		{"carol: log", req("GET", s+"/standard/x86_64/hello/_log?nostream=1", asCarol, ""), want(200, `finished "build hello.spec"`)},
		{"bob: closed results", req("GET", c+"/_result", asBob, ""), want(200, `<status package="hello" code="succeeded"`)},
		{"bob: closed log", req("GET", c+"/standard/x86_64/hello/_log?nostream=1", asBob, ""), code(403, "source_access_no_permission")},
		{"bob: closed legacy log", req("GET", "/result/home:alice:closed/standard/hello/x86_64/log", asBob, ""), code(403, "source_access_no_permission")},
		{"alice: closed log", req("GET", c+"/standard/x86_64/hello/_log?nostream=1", asAlice, ""), want(200, `finished "build hello.spec"`)},
	})
}

// TestPeerClosed: the long poll's look at the client's connection sees it open while the client
// waits, and closed once it has gone, without taking bytes from it.
func TestPeerClosed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	if peerClosed(server) {
		t.Fatal("an open connection seen closed")
	}
	client.Write([]byte("x"))
	time.Sleep(50 * time.Millisecond)
	if peerClosed(server) {
		t.Fatal("a connection with bytes waiting seen closed")
	}
	buf := make([]byte, 1)
	if n, _ := server.Read(buf); n != 1 || buf[0] != 'x' {
		t.Fatal("the peek took the byte")
	}
	client.Close()
	time.Sleep(50 * time.Millisecond)
	if !peerClosed(server) {
		t.Fatal("a closed connection seen open")
	}
}

// TestLongPollEnds: a long poll on a real server ends when the server shuts down (the client
// hears the current state at once) and when the client goes away.
func TestLongPollEnds(t *testing.T) {
	f := newFarmEnv(t)
	f.buildAll(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := "/build/home:alice:farm/_result?package=hello"
	state := stateOf(t, apitest.Do(t, f.app, req("GET", r, asBob, "")).Body)
	go f.app.Server().Serve(ln) // the app is set up by the request above; no startup banner
	poll := func() net.Conn {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte("GET " + r + "&oldstate=" + state + " HTTP/1.1\r\nHost: x\r\nAuthorization: " + asBob["Authorization"] + "\r\n\r\n"))
		return conn
	}
	// The client goes away: the server's poll notices (nothing to observe from outside but
	// that the shutdown below does not wait for it).
	gone := poll()
	time.Sleep(300 * time.Millisecond)
	gone.Close()
	waiting := poll()
	defer waiting.Close()
	time.Sleep(300 * time.Millisecond)
	answered := make(chan string, 1)
	go func() {
		buf := make([]byte, 4096)
		waiting.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, _ := waiting.Read(buf)
		answered <- string(buf[:n])
	}()
	start := time.Now()
	if err := f.app.ShutdownWithTimeout(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("shutdown waited %v for the long polls", took)
	}
	if got := <-answered; !regexp.MustCompile(`^HTTP/1.1 200`).MatchString(got) || !regexp.MustCompile(`state="`+state+`"`).MatchString(got) {
		t.Fatalf("the waiting client heard: %q", got)
	}
}
