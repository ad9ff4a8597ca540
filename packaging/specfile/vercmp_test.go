package specfile

import "testing"

// rpmVercmpCases are the cases of rpm's own test suite (tests/rpmvercmp.at in
// rpm-software-management/rpm), in its order: Vercmp must agree with rpm on every one.
var rpmVercmpCases = []struct {
	a, b string
	want int
}{
	{"1.0", "1.0", 0},
	{"1.0", "2.0", -1},
	{"2.0", "1.0", 1},
	{"2.0.1", "2.0.1", 0},
	{"2.0", "2.0.1", -1},
	{"2.0.1", "2.0", 1},
	{"2.0.1a", "2.0.1a", 0},
	{"2.0.1a", "2.0.1", 1},
	{"2.0.1", "2.0.1a", -1},
	{"5.5p1", "5.5p1", 0},
	{"5.5p1", "5.5p2", -1},
	{"5.5p2", "5.5p1", 1},
	{"5.5p10", "5.5p10", 0},
	{"5.5p1", "5.5p10", -1},
	{"5.5p10", "5.5p1", 1},
	{"10xyz", "10.1xyz", -1},
	{"10.1xyz", "10xyz", 1},
	{"xyz10", "xyz10", 0},
	{"xyz10", "xyz10.1", -1},
	{"xyz10.1", "xyz10", 1},
	{"xyz.4", "xyz.4", 0},
	{"xyz.4", "8", -1},
	{"8", "xyz.4", 1},
	{"xyz.4", "2", -1},
	{"2", "xyz.4", 1},
	{"5.5p2", "5.6p1", -1},
	{"5.6p1", "5.5p2", 1},
	{"5.6p1", "6.5p1", -1},
	{"6.5p1", "5.6p1", 1},
	{"6.0.rc1", "6.0", 1},
	{"6.0", "6.0.rc1", -1},
	{"10b2", "10a1", 1},
	{"10a2", "10b2", -1},
	{"1.0aa", "1.0aa", 0},
	{"1.0a", "1.0aa", -1},
	{"1.0aa", "1.0a", 1},
	{"10.0001", "10.0001", 0},
	{"10.0001", "10.1", 0},
	{"10.1", "10.0001", 0},
	{"10.0001", "10.0039", -1},
	{"10.0039", "10.0001", 1},
	{"4.999.9", "5.0", -1},
	{"5.0", "4.999.9", 1},
	{"20101121", "20101121", 0},
	{"20101121", "20101122", -1},
	{"20101122", "20101121", 1},
	{"2_0", "2_0", 0},
	{"2.0", "2_0", 0},
	{"2_0", "2.0", 0},
	{"a", "a", 0},
	{"a+", "a+", 0},
	{"a+", "a_", 0},
	{"a_", "a+", 0},
	{"+a", "+a", 0},
	{"+a", "_a", 0},
	{"_a", "+a", 0},
	{"+_", "+_", 0},
	{"_+", "+_", 0},
	{"_+", "_+", 0},
	{"+", "_", 0},
	{"_", "+", 0},
	{"1.0~rc1", "1.0~rc1", 0},
	{"1.0~rc1", "1.0", -1},
	{"1.0", "1.0~rc1", 1},
	{"1.0~rc1", "1.0~rc2", -1},
	{"1.0~rc2", "1.0~rc1", 1},
	{"1.0~rc1~git123", "1.0~rc1~git123", 0},
	{"1.0~rc1~git123", "1.0~rc1", -1},
	{"1.0~rc1", "1.0~rc1~git123", 1},
	{"1.0^", "1.0^", 0},
	{"1.0^", "1.0", 1},
	{"1.0", "1.0^", -1},
	{"1.0^git1", "1.0^git1", 0},
	{"1.0^git1", "1.0", 1},
	{"1.0", "1.0^git1", -1},
	{"1.0^git1", "1.0^git2", -1},
	{"1.0^git2", "1.0^git1", 1},
	{"1.0^git1", "1.01", -1},
	{"1.01", "1.0^git1", 1},
	{"1.0^20160101", "1.0^20160101", 0},
	{"1.0^20160101", "1.0.1", -1},
	{"1.0.1", "1.0^20160101", 1},
	{"1.0^20160101^git1", "1.0^20160101^git1", 0},
	{"1.0^20160102", "1.0^20160101^git1", 1},
	{"1.0^20160101^git1", "1.0^20160102", -1},
	{"1.0~rc1^git1", "1.0~rc1^git1", 0},
	{"1.0~rc1^git1", "1.0~rc1", 1},
	{"1.0~rc1", "1.0~rc1^git1", -1},
	{"1.0^git1~pre", "1.0^git1~pre", 0},
	{"1.0^git1", "1.0^git1~pre", 1},
	{"1.0^git1~pre", "1.0^git1", -1},
}

// rpmVercmpOddities are the cases rpmvercmp.at keeps commented out to document "arguably buggy"
// behaviour; rpm's algorithm (and so Vercmp) gives these answers.
var rpmVercmpOddities = []struct {
	a, b string
	want int
}{
	{"1b.fc17", "1b.fc17", 0},
	{"1b.fc17", "1.fc17", -1},
	{"1.fc17", "1b.fc17", 1},
	{"1g.fc17", "1g.fc17", 0},
	{"1g.fc17", "1.fc17", 1},
	{"1.fc17", "1g.fc17", -1},
	{"1.1.α", "1.1.α", 0},
	{"1.1.α", "1.1.β", 0},
	{"1.1.β", "1.1.α", 0},
	{"1.1.αα", "1.1.α", 0},
	{"1.1.α", "1.1.ββ", 0},
	{"1.1.ββ", "1.1.αα", 0},
}

func TestVercmpRPMSuite(t *testing.T) {
	for _, c := range append(rpmVercmpCases, rpmVercmpOddities...) {
		if got := Vercmp(c.a, c.b); got != c.want {
			t.Errorf("Vercmp(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestVercmpEdges(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       int
	}{
		{"empty equal", "", "", 0},
		{"empty older", "", "1", -1},
		{"NUL ends the string", "1.0\x00zzz", "1.0", 0},
		{"long numbers", "123456789012345678901234567890", "123456789012345678901234567891", -1},
		{"leading zeros", "007", "7", 0},
		{"only separators", "...", "+++", 0},
		{"tilde vs empty", "~", "", -1},
		{"caret vs empty", "^", "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Vercmp(c.a, c.b); got != c.want {
				t.Errorf("Vercmp(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
			}
			if got := Vercmp(c.b, c.a); got != -c.want {
				t.Errorf("Vercmp(%q, %q) = %d, want %d", c.b, c.a, got, -c.want)
			}
		})
	}
}

func TestParseEVR(t *testing.T) {
	cases := []struct {
		in   string
		want EVR
	}{
		{"1.0", EVR{Version: "1.0"}},
		{"1.0-2", EVR{Version: "1.0", Release: "2", HasRelease: true}},
		{"3:1.0-2.pocket1", EVR{Epoch: "3", Version: "1.0", Release: "2.pocket1", HasEpoch: true, HasRelease: true}},
		{":1.0", EVR{Epoch: "0", Version: "1.0", HasEpoch: true}},
		{"1.0-rc1-2", EVR{Version: "1.0-rc1", Release: "2", HasRelease: true}},
		{"a:1.0", EVR{Version: "a:1.0"}},
		{"12", EVR{Version: "12"}},
	}
	for _, c := range cases {
		if got := ParseEVR(c.in); got != c.want {
			t.Errorf("ParseEVR(%q) = %+v, want %+v", c.in, got, c.want)
		}
		if got := ParseEVR(c.in).String(); c.in != ":1.0" && got != c.in {
			t.Errorf("ParseEVR(%q).String() = %q", c.in, got)
		}
	}
}

func TestEVRCompare(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1.0-1", "1.0-1", 0},
		{"1.0-1", "1.0-2", -1},
		{"1:1.0-1", "2.0-1", 1},
		{"0:1.0-1", "1.0-1", 0},
		{"1.0", "1.0-1", -1},
		{"1.0-1", "1.0", 1},
		{"1.0~rc1-1", "1.0-1", -1},
		{"2:0.1", "1:9.9", 1},
		{"1.10-1", "1.9-1", 1},
	}
	for _, c := range cases {
		if got := EVRCompare(c.a, c.b); got != c.want {
			t.Errorf("EVRCompare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := EVRCompare(c.b, c.a); got != -c.want {
			t.Errorf("EVRCompare(%q, %q) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}
