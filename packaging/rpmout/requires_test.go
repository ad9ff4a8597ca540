package rpmout

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// verCmpCases are version comparisons with rpm's answers.
type verCmpCase struct {
	a, b string
	want int
}

var verCmpCases = []verCmpCase{
	{"1.0", "1.0", 0},
	{"1.0", "2.0", -1},
	{"2.0", "1.0", 1},
	{"2.0.1", "2.0", 1},
	{"2.0", "2.0.1", -1},
	{"2.4", "2.34", -1},
	{"2.34", "2.4", 1},
	{"1.01", "1.1", 0},
	{"1.0010", "1.9", 1},
	{"5.5p1", "5.5p2", -1},
	{"5.5p10", "5.5p2", 1},
	{"10xyz", "10.1xyz", -1},
	{"xyz10", "xyz10.1", -1},
	{"1.0a", "1.0", 1},
	{"a", "1", -1},
	{"1", "a", 1},
	{"1.0~rc1", "1.0", -1},
	{"1.0~rc1", "1.0~rc2", -1},
	{"1.0~rc1~git", "1.0~rc1", -1},
	{"1.0^", "1.0", 1},
	{"1.0^git1", "1.0.1", -1},
	{"1.0^git1", "1.0^git2", -1},
	{"1.0", "1.0^", -1},
	{"1_0", "1.0", 0},
	{"", "", 0},
}

func TestRPMVerCmp(t *testing.T) {
	for _, tc := range verCmpCases {
		if got := specfile.Vercmp(tc.a, tc.b); got != tc.want {
			t.Errorf("Vercmp(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestRPMVerCmpMatchesRPM asks rpm itself (its Lua rpm.vercmp) about the same cases.
func TestRPMVerCmpMatchesRPM(t *testing.T) {
	rpmCmd := needTool(t, "rpm", "rpm")
	cases := slices.DeleteFunc(slices.Clone(verCmpCases), func(c verCmpCase) bool { return c.a == "" }) // rpm.vercmp refuses ""
	var lua strings.Builder
	for _, tc := range cases {
		fmt.Fprintf(&lua, "print(rpm.vercmp(%q, %q) .. \" \") ", tc.a, tc.b)
	}
	got := strings.Fields(run(t, rpmCmd, "--eval", "%{lua: "+lua.String()+"}"))
	for i, tc := range cases {
		if i >= len(got) || got[i] != strconv.Itoa(tc.want) {
			t.Errorf("rpm.vercmp(%q, %q) = %v, the table says %d", tc.a, tc.b, got[min(i, len(got)-1)], tc.want)
		}
	}
}

func TestCompareLibc(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"libc.so.6", "libc.so.6", 0},
		{"libc.so.6()(64bit)", "libc.so.6(GLIBC_2.4)(64bit)", 2},
		{"libc.so.6(GLIBC_2.4)(64bit)", "libc.so.6(GLIBC_2.34)(64bit)", 2},
		{"libc.so.6(GLIBC_2.34)(64bit)", "libc.so.6(GLIBC_2.4)(64bit)", 1},
		{"libc.so.6(GLIBC_2.3.4)", "libc.so.6(GLIBC_2.3.4)(64bit)", 0},
		{"libc.so.6", "libc.so.6(GLIBC_2.4)", 2},
		{"libc.so.6(GLIBC_2.4)", "libc.so.6", 1},
		{"libc.so.6(x", "libc.so.6(y", -1},
		{"libc.so.6(64bit)", "libc.so.6(GLIBC_PRIVATE)", 1},
	} {
		if got := compareLibc(tc.a, tc.b); got != tc.want {
			t.Errorf("compareLibc(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestPrimaryRequires(t *testing.T) {
	dep := func(name, op, ver string) specfile.Dep { return specfile.Dep{Name: name, Op: op, Version: ver} }
	r := RPM{Name: "p", Version: "1", Release: "1",
		Provides: []specfile.Dep{dep("cap", "=", "2")},
		Files:    []File{{Path: "/usr/bin/p"}, {Path: "/usr/share/p/data"}},
		Requires: []specfile.Dep{
			dep("rpmlib(CompressedFileNames)", "<=", "3.0.4-1"), // rpmlib: dropped
			dep("cap", "=", "2"),                   // provided by itself: dropped
			dep("cap", ">=", "1"),                  // a different relation: kept
			dep("/usr/bin/p", "", ""),              // own primary file: dropped
			dep("/usr/share/p/data", "", ""),       // own file, not primary: kept
			dep("/usr/bin/other", "", ""),          // someone else's file: kept
			dep("sed", "", ""), dep("sed", "", ""), // repeat: dropped
			dep("grep", ">=", "3"), dep("grep", "", ""), dep("grep", ">=", "3"), // alternating: all kept
			dep("libc.so.6(GLIBC_2.4)", "", ""), dep("libc.so.6(GLIBC_2.17)", "", ""), dep("libc.so.6()", "", ""),
		},
	}
	want := []specfile.Dep{
		dep("cap", ">=", "1"), dep("/usr/share/p/data", "", ""), dep("/usr/bin/other", "", ""), dep("sed", "", ""),
		dep("grep", ">=", "3"), dep("grep", "", ""), dep("grep", ">=", "3"),
		dep("libc.so.6(GLIBC_2.17)", "", ""),
	}
	if got := primaryRequires(&r, r.provides()); !slices.Equal(got, want) {
		t.Errorf("primaryRequires =\n%v\nwant\n%v", got, want)
	}
}

func TestIsPrimaryFile(t *testing.T) {
	for p, want := range map[string]bool{
		"/etc/foo.conf": true, "/usr/bin/x": true, "/usr/sbin/x": true, "/bin/sh": true,
		"/opt/kde/bin/tool": true, "/usr/lib/sendmail": true, "/usr/lib/sendmail.cf": false,
		"/usr/share/doc/x": false, "/etc": false, "/usr/lib64/libbin.so": false, "bin/x": true,
	} {
		if got := isPrimaryFile(p); got != want {
			t.Errorf("isPrimaryFile(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestSplitEVR(t *testing.T) {
	for _, tc := range []struct {
		in, epoch, ver, rel string
		ok                  bool
	}{
		{"1.0", "0", "1.0", "", true},
		{"1.0-2", "0", "1.0", "2", true},
		{"3:1.0-2.1", "3", "1.0", "2.1", true},
		{":1.0", "0", "1.0", "", true},
		{"1.0-2-3", "0", "1.0", "2-3", true},
		{"x:1.0", "", "", "", false},
		{"", "0", "", "", true},
	} {
		e, v, r, ok := splitEVR(tc.in)
		if e != tc.epoch || v != tc.ver || r != tc.rel || ok != tc.ok {
			t.Errorf("splitEVR(%q) = %q %q %q %v, want %q %q %q %v", tc.in, e, v, r, ok, tc.epoch, tc.ver, tc.rel, tc.ok)
		}
	}
}
