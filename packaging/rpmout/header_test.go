package rpmout

import (
	"testing"
)

// FuzzRPMLayout feeds arbitrary bytes to the RPM header reader NewEntry and markSource use:
// neither may panic, and what they accept must be consistent. (Run it with a short
// -fuzzminimizetime: minimizing a 2 KB RPM takes the default minute per new input.)
func FuzzRPMLayout(f *testing.F) {
	bin, src := writeRPM(f, demoBinary()), writeRPM(f, demoSource())
	empty := writeRPM(f, RPM{Name: "e", Version: "1", Release: "1", Arch: "noarch"})
	for _, b := range [][]byte{bin.bytes, src.bytes, empty.bytes, bin.bytes[:leadSize+16], bin.bytes[:300], nil, []byte("\xed\xab\xee\xdb")} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := NewEntry("noarch/x.rpm", RPM{}, b, publishTime)
		if err == nil && (e.HeaderStart < leadSize || e.HeaderEnd < e.HeaderStart || e.HeaderEnd > e.Size || e.Size != int64(len(b))) {
			t.Errorf("header range %d-%d in %d bytes", e.HeaderStart, e.HeaderEnd, len(b))
		}
		out, err := markSource(b)
		if err != nil {
			return
		}
		l, err := layout(out)
		if err != nil {
			t.Fatalf("markSource wrote what layout refuses: %v", err)
		}
		hdr, err := parseHeader(l.hdr)
		if err != nil {
			t.Fatalf("markSource wrote a header parseHeader refuses: %v", err)
		}
		if v, ok := int32Value(hdr, tagSourcePackage); !ok || v != 1 {
			t.Error("no SOURCEPACKAGE after markSource")
		}
	})
}
