package spdx

import (
	"errors"
	"io"
	"io/fs"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

// streamFile is a data file made on the fly: head, then body repeated up to size bytes, then
// tail. It counts what is read of it and whether it was closed, and panics on read when told.
type streamFile struct {
	head, body, tail string
	size             int64
	panics           bool
	read             atomic.Int64
	closed           atomic.Bool
}

func (f *streamFile) Read(b []byte) (int, error) {
	if f.panics {
		panic("read failed")
	}
	off := f.read.Load()
	total := f.size + int64(len(f.head)+len(f.tail))
	if off >= total {
		return 0, io.EOF
	}
	n := 0
	for n < len(b) && off < total {
		var c byte
		switch {
		case off < int64(len(f.head)):
			c = f.head[off]
		case off < int64(len(f.head))+f.size:
			c = f.body[(off-int64(len(f.head)))%int64(len(f.body))]
		default:
			c = f.tail[off-int64(len(f.head))-f.size]
		}
		b[n] = c
		n++
		off++
	}
	f.read.Store(off)
	return n, nil
}

func (f *streamFile) Stat() (fs.FileInfo, error) { return nil, errors.ErrUnsupported }
func (f *streamFile) Close() error               { f.closed.Store(true); return nil }

// overlayFS serves some paths from files of its own.
type overlayFS struct {
	fs.FS
	files map[string]*streamFile
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if f, ok := o.files[name]; ok {
		return f, nil
	}
	return o.FS.Open(name)
}

// bigPrimary is a valid primary.xml of about 64 MiB, and bigFilelists a filelists.xml.
func bigPrimary() *streamFile {
	return repeated("<metadata>\n", `<package type="rpm"><name>p</name><checksum>1</checksum><location href="x/p.rpm"/><description>`+
		strings.Repeat("words ", 20)+"</description></package>\n", "</metadata>\n")
}

func bigFilelists() *streamFile {
	return repeated("<filelists>\n", `<package pkgid="1" name="p"><file>/usr/bin/p</file></package>`+"\n", "</filelists>\n")
}

// repeated is a streamFile of about 64 MiB with body repeated a whole number of times.
func repeated(head, body, tail string) *streamFile {
	return &streamFile{head: head, body: body, tail: tail, size: int64(64 << 20 / len(body) * len(body))}
}

// TestParseRepodataStopsTheOtherFile checks that when one of primary and filelists fails, the
// other, read at the same time, stops within a few buffers instead of being read to its end,
// and is closed before ParseRepodata returns.
func TestParseRepodataStopsTheOtherFile(t *testing.T) {
	tests := []struct {
		name    string
		big     string // the file that is read and must stop
		bigFile *streamFile
		want    string
	}{
		{"filelists missing stops primary", "repo/repodata/primary.xml", bigPrimary(),
			"open repo/repodata/filelists.xml: file does not exist"},
		{"primary missing stops filelists", "repo/repodata/filelists.xml", bigFilelists(),
			"open repo/repodata/primary.xml: file does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := overlayFS{
				FS: buildRepo([]dataSpec{
					{typ: "primary", href: "repodata/primary.xml", checksum: strings.Repeat("0", 64)},
					{typ: "filelists", href: "repodata/filelists.xml", checksum: strings.Repeat("0", 64)},
				}),
				files: map[string]*streamFile{tt.big: tt.bigFile},
			}
			_, err := ParseRepodata(fsys, "repo/repodata")
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v, want %s", err, tt.want)
			}
			read := tt.bigFile.read.Load()
			if read > 4<<20 {
				t.Errorf("%d bytes of %s read after the other file failed", read, tt.big)
			}
			if read > 0 && !tt.bigFile.closed.Load() {
				t.Errorf("%s still open when ParseRepodata returned", tt.big)
			}
		})
	}
}

// TestParseRepodataPanicInFilelists checks that a panic while reading filelists, which is read
// on a goroutine of its own, comes out of ParseRepodata as it did when both were read in the
// caller's goroutine, with primary stopped and closed.
func TestParseRepodataPanicInFilelists(t *testing.T) {
	primary, filelists := bigPrimary(), bigFilelists()
	filelists.panics = true
	fsys := overlayFS{
		FS: buildRepo([]dataSpec{
			{typ: "primary", href: "repodata/primary.xml", checksum: "-"},
			{typ: "filelists", href: "repodata/filelists.xml", checksum: "-"},
		}),
		files: map[string]*streamFile{"repo/repodata/primary.xml": primary, "repo/repodata/filelists.xml": filelists},
	}
	defer func() {
		if p := recover(); p != "read failed" {
			t.Errorf("recovered %v, want the panic of the filelists read", p)
		}
		if !primary.closed.Load() || primary.read.Load() > 4<<20 {
			t.Errorf("primary: %d bytes read, closed %v", primary.read.Load(), primary.closed.Load())
		}
	}()
	ParseRepodata(fsys, "repo/repodata")
	t.Error("no panic")
}

// TestParseRepodataJoin checks how filelists packages attach to primary packages now that
// they are joined after both are read: as when filelists was read against primary's index.
func TestParseRepodataJoin(t *testing.T) {
	listedTwice := append([]testRPM{}, testRPMs...)
	more := testRPMs[0]
	more.files = []testFile{{"/usr/bin/zsh-compat", ""}, {"/bin/sh", ""}}
	listedTwice = append(listedTwice, more)
	wantTwice := append([]RPM{}, wantRPMs...)
	wantTwice[0].Files = []string{"/bin/sh", "/etc/bash.bashrc", "/usr/bin/bash", "/usr/bin/zsh-compat"}

	shared := []testRPM{testRPMs[1], testRPMs[1]}
	shared[1].href = "mirror/bash-doc-5.2.37-1.1.noarch.rpm"
	emptyPackage := testRPMs[1]
	emptyPackage.files = nil
	tests := []struct {
		name               string
		primary, filelists []testRPM
		files              int // lim.files
		want               []RPM
		err                string
	}{
		{"a pkgid listed twice in filelists gets the files of both", testRPMs, listedTwice, 100, wantTwice, ""},
		{"a package without files", testRPMs, []testRPM{testRPMs[0], emptyPackage}, 100,
			[]RPM{wantRPMs[0], {Filename: wantRPMs[1].Filename, Name: "bash-doc", Arch: "noarch", Version: "5.2.37-1.1"}}, ""},
		{"the file cap counts a file once per package it goes to", shared, shared[:1], 2,
			[]RPM{wantRPMs[1], wantRPMs[1]}, ""},
		{"over the file cap by a shared pkgid", shared, shared[:1], 1, nil,
			"0002-filelists.xml.gz: more than 1 files (MaxRepodataFiles)"},
		{"an unknown pkgid after a known one", testRPMs[1:], testRPMs, 100, nil,
			`0002-filelists.xml.gz: line 3: package bash: pkgid "` + testRPMs[0].pkgid + `" is not in primary.xml`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := testRepo(t)
			d[0].content = gz(t, primaryXML(tt.primary))
			d[1].content = gz(t, filelistsXML(tt.filelists))
			lim := defaultLimits
			lim.files = tt.files
			got, err := parseRepodata(buildRepo(d), "repo/repodata", lim)
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want %s", err, tt.err)
			case tt.err == "" && err != nil:
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}
