package search

import (
	"bytes"
	"testing"
)

// TestLowerASCII: every byte value, at every offset of a word, lowered as bytes.ToLower lowers
// ASCII and left alone beyond it.
func TestLowerASCII(t *testing.T) {
	src := make([]byte, 256+7)
	for i := range 256 {
		src[i] = byte(i)
	}
	for off := range 8 {
		in := src[off : off+256]
		want := make([]byte, len(in))
		for i, c := range in {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			want[i] = c
		}
		if got := lowerASCII(nil, in); !bytes.Equal(got, want) {
			t.Fatalf("offset %d: %q\nwant %q", off, got, want)
		}
	}
}

// TestByteFilterFold: a value that ignores case passes a record holding it in another case;
// one that heeds case does not.
func TestByteFilterFold(t *testing.T) {
	raw := []byte(`{"creator":"Alice","state":{"name":"new","who":"BOB"},"history":[{"who":"carol"}]}`)
	f := &byteFilter{terms: [][]needle{{{quoted: []byte(`"bob"`), lower: []byte(`"bob"`)}}}}
	if !f.pass(raw) {
		t.Error(`"bob" ignoring case: rejected`)
	}
	f = &byteFilter{terms: [][]needle{{{quoted: []byte(`"bob"`)}}}}
	if f.pass(raw) {
		t.Error(`"bob" heeding case: passed`)
	}
	f = &byteFilter{terms: [][]needle{{{quoted: []byte(`"Carol"`), lower: []byte(`"carol"`)}}, {{quoted: []byte(`"alicE"`), lower: []byte(`"alice"`)}}}}
	if !f.pass(raw) {
		t.Error("two terms ignoring case: rejected")
	}
}
