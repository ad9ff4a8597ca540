package kit

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"
)

// slogLine is the line slog's own handler writes for a, the form AccessLog must keep (README,
// log readers).
func slogLine(t testing.TB, format string, a *AccessLine) string {
	var buf bytes.Buffer
	var h slog.Handler = slog.NewTextHandler(&buf, nil)
	if format == "json" {
		h = slog.NewJSONHandler(&buf, nil)
	}
	r := slog.NewRecord(a.Time, slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("request_id", a.RequestID), slog.String("api", a.API), slog.String("method", a.Method),
		slog.String("path", a.Path), slog.Int("status", a.Status), slog.Float64("ms", float64(a.Took.Microseconds())/1000),
		slog.Int("bytes", a.Bytes))
	if a.Fault != "" {
		r.AddAttrs(slog.String("fault", a.Fault))
	}
	if err := h.Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func ourLine(format string, a *AccessLine) string {
	var buf bytes.Buffer
	NewAccessLog(&buf, format, slog.LevelInfo).Write(a)
	return buf.String()
}

// TestAccessLogIsSlogs: the hand-written line is byte for byte what slog wrote before, in both
// formats, for ordinary and awkward paths, ids, durations and faults.
func TestAccessLogIsSlogs(t *testing.T) {
	at := time.Date(2026, 12, 2, 1, 2, 3, 456789012, time.UTC)
	paths := []string{"/v4/account", "/source/devel:tools", "", "/a b", "/a=b", `/q"x`, `/back\slash`, "/tab\there",
		"/nl\nx", "/del\x7f", "/ctl\x01", "/ünï/cödé", "/bad\xff\xfeutf", "/ls\u2028ps\u2029", "/<html>&", "/nbsp\u00a0",
		"/zw\u200b", "/emoji😀"}
	tooks := []time.Duration{0, time.Microsecond, 123 * time.Microsecond, 1500 * time.Microsecond, 42 * time.Second,
		1234567 * time.Millisecond, 3 * time.Hour}
	for _, format := range []string{"text", "json"} {
		for i, p := range paths {
			for j, took := range tooks {
				a := &AccessLine{Time: at.Add(time.Duration(i*j) * time.Millisecond), RequestID: "4f2a9c1e-1b", API: "cloud",
					Method: "GET", Path: p, Status: 200 + i, Took: took, Bytes: i * 1000}
				if j%2 == 1 {
					a.Fault = "rule 0: 503 after 100ms"
				}
				if got, want := ourLine(format, a), slogLine(t, format, a); got != want {
					t.Errorf("%s:\n got %q\nwant %q", format, got, want)
				}
			}
		}
	}
	for _, at := range []time.Time{time.Date(2026, 1, 1, 0, 0, 0, 999999999, time.FixedZone("X", 5*3600+1800)),
		time.Date(2026, 7, 9, 23, 59, 59, 0, time.FixedZone("Y", -(3*3600+30*60))), time.Date(2026, 7, 9, 8, 5, 1, 120000000, time.Local),
		time.Date(999, 12, 31, 1, 2, 3, 4000, time.UTC)} { // (the wall clock, never past 9999)
		local := &AccessLine{Time: at, RequestID: "x", API: "build", Method: "PUT", Path: "/", Status: 0}
		for _, format := range []string{"text", "json"} {
			if got, want := ourLine(format, local), slogLine(t, format, local); got != want {
				t.Errorf("%s:\n got %q\nwant %q", format, got, want)
			}
		}
	}
}

// FuzzAccessLogIsSlogs: any path and fault, either format, the same line as slog's.
func FuzzAccessLogIsSlogs(f *testing.F) {
	f.Add("/v4/account", "", int64(1234))
	f.Add("/a b\x00\xff", "rule 1: reset", int64(0))
	f.Fuzz(func(t *testing.T, path, fault string, us int64) {
		a := &AccessLine{Time: time.Unix(1764637323, us*1000%1e9), RequestID: "id", API: "explorer", Method: "GET",
			Path: path, Status: 404, Took: time.Duration(us) * time.Microsecond, Bytes: len(path), Fault: fault}
		if a.Took < 0 {
			a.Took = -a.Took
		}
		for _, format := range []string{"text", "json"} {
			if got, want := ourLine(format, a), slogLine(t, format, a); got != want {
				t.Errorf("%s:\n got %q\nwant %q", format, got, want)
			}
		}
	})
}

// TestAccessLogLevel: nothing is written when the level is above info; AccessLogVia logs through
// the logger.
func TestAccessLogLevel(t *testing.T) {
	var buf bytes.Buffer
	NewAccessLog(&buf, "text", slog.LevelWarn).Write(&AccessLine{Path: "/x"})
	if buf.Len() != 0 {
		t.Fatalf("written at warn: %q", buf.String())
	}
	AccessLogVia(slog.New(slog.NewTextHandler(&buf, nil))).Write(&AccessLine{RequestID: "r-1", Path: "/x"})
	if !bytes.Contains(buf.Bytes(), []byte("msg=request request_id=r-1 ")) {
		t.Fatalf("via the logger: %q", buf.String())
	}
	var nilLog *AccessLog
	nilLog.Write(&AccessLine{})
}
