package kit

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// AccessLine is what the access log says of one request.
type AccessLine struct {
	Time      time.Time
	RequestID string
	API       string
	Method    string
	Path      string
	Status    int
	Took      time.Duration
	Bytes     int
	Fault     string // the chaos rule that hit the request, if any; left out when empty
}

// AccessLog writes one line per request at level info: the very line slog's text or JSON
// handler (--log-format) writes for
//
//	log.Info("request", "request_id", …, "api", …, "method", …, "path", …, "status", …, "ms", …, "bytes", …[, "fault", …])
//
// (same keys, order, quoting and escaping, TestAccessLogIsSlogs), appended into a pooled buffer
// by hand: no Record, no attribute values, no reflection, one Write of the whole line. slog's
// path cost 8.5 % of an account GET (issue 31). The writer is the process's buffered log writer
// (main's logWriter): the line reaches stderr from there, off the request path.
type AccessLog struct {
	w     io.Writer    // nil: lines go through log
	log   *slog.Logger // the fallback when no writer was given
	level slog.Leveler // lines are written when info is enabled
	json  bool         // --log-format json
	bufs  sync.Pool    // *[]byte
	mu    sync.Mutex   // one Write at a time, as slog's handlers do
}

// NewAccessLog writes lines to w in format ("text" or "json") while level lets info through.
func NewAccessLog(w io.Writer, format string, level slog.Leveler) *AccessLog {
	return &AccessLog{w: w, json: format == "json", level: level}
}

// AccessLogVia writes the lines through log (tests that capture a logger's output; a nil log
// writes nothing).
func AccessLogVia(log *slog.Logger) *AccessLog { return &AccessLog{log: log} }

// Enabled reports whether a line would be written, so a caller can skip gathering one.
func (l *AccessLog) Enabled() bool {
	if l == nil {
		return false
	}
	if l.w == nil {
		return l.log != nil && l.log.Enabled(context.Background(), slog.LevelInfo)
	}
	return l.level == nil || l.level.Level() <= slog.LevelInfo
}

// Write logs a's line.
func (l *AccessLog) Write(a *AccessLine) {
	if !l.Enabled() {
		return
	}
	ms := float64(a.Took.Microseconds()) / 1000
	if l.w == nil {
		var fa slog.Attr // the zero Attr is left out of the line
		if a.Fault != "" {
			fa = slog.String("fault", a.Fault)
		}
		l.log.LogAttrs(context.Background(), slog.LevelInfo, "request",
			slog.String("request_id", a.RequestID), slog.String("api", a.API), slog.String("method", a.Method),
			slog.String("path", a.Path), slog.Int("status", a.Status), slog.Float64("ms", ms), slog.Int("bytes", a.Bytes), fa)
		return
	}
	bp, _ := l.bufs.Get().(*[]byte)
	if bp == nil {
		b := make([]byte, 0, 256)
		bp = &b
	}
	b := l.line((*bp)[:0], a, ms)
	l.mu.Lock()
	_, _ = l.w.Write(b)
	l.mu.Unlock()
	if cap(b) <= 4<<10 { // a very long path's buffer is not kept
		*bp = b
		l.bufs.Put(bp)
	}
}

// line appends a's line in the log's format.
func (l *AccessLog) line(b []byte, a *AccessLine, ms float64) []byte {
	if l.json {
		b = append(b, `{"time":"`...)
		b = appendTime(b, a.Time, false)
		b = append(b, `","level":"INFO","msg":"request","request_id":`...)
		b = appendJSONString(b, a.RequestID)
		b = append(b, `,"api":`...)
		b = appendJSONString(b, a.API)
		b = append(b, `,"method":`...)
		b = appendJSONString(b, a.Method)
		b = append(b, `,"path":`...)
		b = appendJSONString(b, a.Path)
		b = append(b, `,"status":`...)
		b = strconv.AppendInt(b, int64(a.Status), 10)
		b = append(b, `,"ms":`...)
		b = strconv.AppendFloat(b, ms, 'f', -1, 64) // encoding/json's form for 1e-6 ≤ ms < 1e21, and 0
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, int64(a.Bytes), 10)
		if a.Fault != "" {
			b = append(b, `,"fault":`...)
			b = appendJSONString(b, a.Fault)
		}
		return append(b, "}\n"...)
	}
	b = append(b, "time="...)
	b = appendTime(b, a.Time, true)
	b = append(b, " level=INFO msg=request request_id="...)
	b = appendTextString(b, a.RequestID)
	b = append(b, " api="...)
	b = appendTextString(b, a.API)
	b = append(b, " method="...)
	b = appendTextString(b, a.Method)
	b = append(b, " path="...)
	b = appendTextString(b, a.Path)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(a.Status), 10)
	b = append(b, " ms="...)
	b = strconv.AppendFloat(b, ms, 'g', -1, 64)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, int64(a.Bytes), 10)
	if a.Fault != "" {
		b = append(b, " fault="...)
		b = appendTextString(b, a.Fault)
	}
	return append(b, '\n')
}

// appendTime appends t as slog writes a record's time: in the text form RFC 3339 with exactly
// three digits of milliseconds (truncated), in the JSON form time.RFC3339Nano (as many digits
// as the nanoseconds need, none for a whole second). Written digit by digit: time's general
// formatter was a sixth of the line's cost.
func appendTime(b []byte, t time.Time, millis bool) []byte {
	year, month, day := t.Date()
	if year < 0 || year > 9999 { // outside RFC 3339: as time writes it
		if millis {
			return t.Truncate(time.Millisecond).AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
		}
		return t.AppendFormat(b, time.RFC3339Nano)
	}
	hour, min, sec := t.Clock()
	b = appendDigits(b, year, 4)
	b = appendDigits(append(b, '-'), int(month), 2)
	b = appendDigits(append(b, '-'), day, 2)
	b = appendDigits(append(b, 'T'), hour, 2)
	b = appendDigits(append(b, ':'), min, 2)
	b = appendDigits(append(b, ':'), sec, 2)
	ns := t.Nanosecond()
	switch {
	case millis:
		b = appendDigits(append(b, '.'), ns/1e6, 3)
	case ns != 0:
		digits := 9
		for ns%10 == 0 {
			ns /= 10
			digits--
		}
		b = appendDigits(append(b, '.'), ns, digits)
	}
	_, off := t.Zone()
	if off == 0 {
		return append(b, 'Z')
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b = appendDigits(append(b, sign), off/3600, 2)
	return appendDigits(append(b, ':'), off/60%60, 2)
}

// appendDigits appends n, zero-padded to width digits.
func appendDigits(b []byte, n, width int) []byte {
	var d [10]byte
	i := len(d)
	for ; width > 0 || n > 0; width-- {
		i--
		d[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, d[i:]...)
}

// appendTextString appends s as slog's text handler writes a string value: as is when it is
// non-empty and holds no space, '=', '"', control character or other unprintable or invalid
// rune; Go-quoted otherwise.
func appendTextString(b []byte, s string) []byte {
	if textQuoted(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func textQuoted(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '=' || c == '"' {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += n
	}
	return false
}

// appendJSONString appends s as slog's JSON handler writes a string: quoted, with '"', '\\'
// and control characters escaped (\n, \r, \t by name), invalid UTF-8 as \ufffd, and U+2028
// and U+2029 escaped; '<', '>' and '&' as they are.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += n
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += n
			start = i
			continue
		}
		i += n
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
