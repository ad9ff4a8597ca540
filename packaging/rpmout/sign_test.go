package rpmout

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/signkey"
)

// TestSignVerifiedByRPM (issue 34): a signed binary and source package pass `rpm -K` once the
// key is imported (digests and the signature OK), fail it before (the key is missing), and a
// package signed again with another key carries that key's signature only.
func TestSignVerifiedByRPM(t *testing.T) {
	needTool(t, "rpm", "rpm")
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	keyA, err := signkey.New("A OBS Project", "a@build.pocketforge", now, signkey.DefaultDays)
	if err != nil {
		t.Fatal(err)
	}
	keyB, _ := signkey.New("B OBS Project", "b@build.pocketforge", now, signkey.DefaultDays)
	signer := func(k signkey.Key) Signer {
		s, err := signkey.NewSigner(k.Private)
		if err != nil {
			t.Fatal(err)
		}
		return func(m io.Reader) ([]byte, error) { return s.Sign(m, now) }
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "rpmdb")
	rpm := func(args ...string) (string, error) {
		out, err := exec.Command("rpm", append([]string{"--dbpath", db}, args...)...).CombinedOutput()
		return string(out), err
	}
	type pair struct{ name, file, other string }
	var files []pair
	for _, r := range []RPM{demoBinary(), demoSource()} {
		signed, err := Sign(writeRPM(t, r).bytes, signer(keyA))
		if err != nil {
			t.Fatal(err)
		}
		again, err := Sign(signed, signer(keyB))
		if err != nil {
			t.Fatal(err)
		}
		p := pair{Filename(r), filepath.Join(dir, Filename(r)), filepath.Join(dir, "b-"+Filename(r))}
		os.WriteFile(p.file, signed, 0o644)
		os.WriteFile(p.other, again, 0o644)
		files = append(files, p)
		if out, err := rpm("-Kv", p.file); err == nil || !strings.Contains(out, "NOKEY") {
			t.Errorf("%s without the key: %v %s", p.name, err, out)
		}
	}
	keyFile := filepath.Join(dir, "a.asc")
	os.WriteFile(keyFile, []byte(keyA.Public), 0o644)
	if out, err := rpm("--import", keyFile); err != nil {
		t.Fatalf("rpm --import: %v %s", err, out)
	}
	for _, p := range files {
		if out, err := rpm("-Kv", p.file); err != nil || strings.Contains(out, "NOKEY") || strings.Count(out, ": OK") < 4 {
			t.Errorf("%s: %v %s", p.name, err, out)
		}
		if out, err := rpm("-Kv", p.other); err == nil || !strings.Contains(out, "NOKEY") {
			t.Errorf("%s signed again with key B passed with only key A imported: %s", p.name, out)
		}
	}
}
