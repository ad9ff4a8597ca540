package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Byte-size units. KB/MB/GB are powers of 1000 and KiB/MiB/GiB powers of 1024, as in the SI
// and IEC standards, so "10MB" means what a disk vendor means and "64MiB" what a kernel means.
const (
	kib int64 = 1 << 10
	mib int64 = 1 << 20
	gib int64 = 1 << 30
)

// sizeUnits maps a lower-cased unit to its multiplier.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9,
	"kib": kib, "mib": mib, "gib": gib,
}

// formatUnits lists the units formatSize tries, largest first.
var formatUnits = []struct {
	name string
	mult int64
}{
	{"GiB", gib}, {"GB", 1e9}, {"MiB", mib}, {"MB", 1e6}, {"KiB", kib}, {"KB", 1e3},
}

// parseSize parses a whole number of bytes with an optional unit ("262144", "256KiB", "10 MB");
// the unit is case-insensitive.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, errors.New("want a whole number of bytes with an optional unit, such as 262144, 256KiB, 64MiB or 10MB")
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	if strings.HasPrefix(unit, ".") || strings.HasPrefix(unit, ",") {
		return 0, errors.New("want a whole number; use a smaller unit instead of a fraction (1536MiB, not 1.5GiB)")
	}
	mult, ok := sizeUnits[strings.ToLower(unit)]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q, want B, KB, MB, GB, KiB, MiB or GiB", unit)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return 0, errors.New("too large")
	}
	return n * mult, nil
}

// parseBodyLimit parses a request-body limit between 1 KiB (smaller would refuse ordinary API
// calls) and 16 GiB (larger is surely a typo for an appliance holding everything in one file).
func parseBodyLimit(s string) (int64, error) {
	n, err := parseSize(s)
	if err != nil {
		return 0, err
	}
	if n < kib || n > 16*gib {
		return 0, errors.New("out of range 1KiB..16GiB")
	}
	return n, nil
}

// parseSizeRange parses a size within lo..hi bytes.
func parseSizeRange(s string, lo, hi int64) (int64, error) {
	n, err := parseSize(s)
	if err != nil {
		return 0, err
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("out of range %s..%s", formatSize(lo), formatSize(hi))
	}
	return n, nil
}

// formatSize renders n with the largest unit that divides it exactly, so the start-up log
// shows "256MiB" rather than "268435456" and the text parses back to the same number.
func formatSize(n int64) string {
	for _, u := range formatUnits {
		if n != 0 && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}
