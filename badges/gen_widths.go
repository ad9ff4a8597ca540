//go:build ignore

// gen_widths turns a character-width table in anafanafo's JSON form (a sorted list of
// [firstCodePoint, lastCodePoint, widthInPx]; MIT, github.com/metabolize/anafanafo,
// packages/anafanafo/data/verdana-11px-normal.json) into verdana11.bin, the compact form
// widths.go embeds: per range, three unsigned varints — the distance of its first code point
// from the previous range's last (from -1 for the first), its length minus one and its width in
// hundredths of a pixel (the JSON has at most two decimals).
//
//	go run gen_widths.go verdana-11px-normal.json
package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
)

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var ranges [][3]float64
	if err := json.Unmarshal(raw, &ranges); err != nil {
		panic(err)
	}
	var out []byte
	prev := int64(-1)
	for _, r := range ranges {
		lo, hi, w := int64(r[0]), int64(r[1]), r[2]
		h := math.Round(w * 100)
		if lo <= prev || hi < lo || math.Abs(h/100-w) > 1e-9 {
			panic(fmt.Sprintf("unexpected range %v", r))
		}
		out = binary.AppendUvarint(out, uint64(lo-prev))
		out = binary.AppendUvarint(out, uint64(hi-lo))
		out = binary.AppendUvarint(out, uint64(h))
		prev = hi
	}
	if err := os.WriteFile("verdana11.bin", out, 0o644); err != nil {
		panic(err)
	}
	fmt.Printf("%d ranges, %d bytes\n", len(ranges), len(out))
}
