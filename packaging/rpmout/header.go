package rpmout

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The layout of an RPM file (rpm's doc/manual/format): a 96-byte lead, the signature header
// padded to 8 bytes, the main header, and the compressed payload. Both headers are an index of
// 16-byte entries (tag, type, offset, count) followed by a data store, and start with a
// "region" entry whose data, the last 16 bytes of the store, closes the region.
//
// rpmpack writes every RPM. This codec exists for the two things rpmpack cannot do: mark a
// package as a source package (which needs a tag removed, see markSource) and tell where the
// main header lies and what its size tags say (rpm-md's header-range and sizes, see layout).

const (
	leadSize = 96

	regionSignatures = 62 // HEADER_SIGNATURES
	regionImmutable  = 63 // HEADER_IMMUTABLE

	typeInt16       = 3
	typeInt32       = 4
	typeInt64       = 5
	typeString      = 6
	typeBin         = 7
	typeStringArray = 8
	typeI18NString  = 9

	tagSize          = 1009 // RPMTAG_SIZE: the installed size
	tagSourceRPM     = 1044 // RPMTAG_SOURCERPM: present on binary packages only
	tagSourcePackage = 1106 // RPMTAG_SOURCEPACKAGE: 1 on source packages
	tagDistURL       = 1123 // RPMTAG_DISTURL
	tagVCS           = 5034 // RPMTAG_VCS: where the sources came from, as OBS stamps scmsync builds

	sigSHA256      = 273  // RPMSIGTAG_SHA256: hex SHA-256 of the main header
	sigSize        = 1000 // RPMSIGTAG_SIZE: main header + payload bytes
	sigPayloadSize = 1007 // RPMSIGTAG_PAYLOADSIZE: the archive size rpm-md reports
)

var headerMagic = []byte{0x8e, 0xad, 0xe8, 0x01, 0, 0, 0, 0}

// hdrEntry is one index entry with its data.
type hdrEntry struct {
	tag, typ, count uint32
	data            []byte
}

// fileLayout is an RPM file cut into its parts.
type fileLayout struct {
	lead, sig, hdr, payload []byte // sig and hdr without the padding between them
	hdrStart                int    // offset of the main header in the file
}

// layout cuts an RPM file into lead, signature header, main header and payload.
func layout(b []byte) (fileLayout, error) {
	if len(b) < leadSize || !bytes.Equal(b[:4], []byte{0xed, 0xab, 0xee, 0xdb}) {
		return fileLayout{}, errors.New("not an RPM file: no lead")
	}
	sigLen, err := headerLen(b[leadSize:])
	if err != nil {
		return fileLayout{}, fmt.Errorf("signature header: %w", err)
	}
	start := leadSize + sigLen + (8-sigLen%8)%8
	if start > len(b) {
		return fileLayout{}, errors.New("signature header: truncated")
	}
	hdrLen, err := headerLen(b[start:])
	if err != nil {
		return fileLayout{}, fmt.Errorf("main header: %w", err)
	}
	return fileLayout{
		lead:     b[:leadSize],
		sig:      b[leadSize : leadSize+sigLen],
		hdr:      b[start : start+hdrLen],
		payload:  b[start+hdrLen:],
		hdrStart: start,
	}, nil
}

// headerLen is the length of the header at the start of b, checked against len(b).
func headerLen(b []byte) (int, error) {
	if len(b) < 16 || !bytes.Equal(b[:3], headerMagic[:3]) {
		return 0, errors.New("no header magic")
	}
	il := uint64(binary.BigEndian.Uint32(b[8:]))
	dl := uint64(binary.BigEndian.Uint32(b[12:]))
	n := 16 + il*16 + dl
	if n > uint64(len(b)) {
		return 0, errors.New("truncated")
	}
	return int(n), nil
}

// parseHeader reads a header's entries, without its region entry, in index order. Like rpm,
// it refuses data that overlaps the previous entry's, which also keeps the work linear in the
// header's size whatever the counts say.
func parseHeader(h []byte) ([]hdrEntry, error) {
	if _, err := headerLen(h); err != nil {
		return nil, err
	}
	il := int(binary.BigEndian.Uint32(h[8:]))
	store := h[16+il*16:]
	var out []hdrEntry
	end := 0 // where the previous entry's data ends
	for i := range il {
		ix := h[16+i*16:]
		e := hdrEntry{
			tag:   binary.BigEndian.Uint32(ix),
			typ:   binary.BigEndian.Uint32(ix[4:]),
			count: binary.BigEndian.Uint32(ix[12:]),
		}
		off := int64(int32(binary.BigEndian.Uint32(ix[8:])))
		if i == 0 && (e.tag == regionSignatures || e.tag == regionImmutable) {
			continue
		}
		if off < int64(end) || off > int64(len(store)) {
			return nil, fmt.Errorf("tag %d: offset %d overlaps the previous data or lies outside the store", e.tag, off)
		}
		n, err := dataLen(e.typ, e.count, store[off:])
		if err != nil {
			return nil, fmt.Errorf("tag %d: %v", e.tag, err)
		}
		e.data = store[off : off+int64(n)]
		end = int(off) + n
		out = append(out, e)
	}
	return out, nil
}

// dataLen is the length of an entry's data of type typ with count items at the start of b.
func dataLen(typ, count uint32, b []byte) (int, error) {
	var size uint64
	switch typ {
	case 1, 2, typeBin: // CHAR, INT8, BIN
		size = 1
	case typeInt16:
		size = 2
	case typeInt32:
		size = 4
	case typeInt64:
		size = 8
	case typeString, typeStringArray, typeI18NString:
		n := 0
		for range count {
			i := bytes.IndexByte(b[n:], 0)
			if i < 0 {
				return 0, errors.New("unterminated string")
			}
			n += i + 1
		}
		return n, nil
	default:
		return 0, fmt.Errorf("unknown type %d", typ)
	}
	if n := size * uint64(count); n <= uint64(len(b)) {
		return int(n), nil
	}
	return 0, errors.New("data beyond the store")
}

// encodeHeader writes entries as a header with the given region tag: sorted by tag, integers
// aligned, the region trailer last, as rpm writes headers.
func encodeHeader(region uint32, entries []hdrEntry) []byte {
	entries = slices.Clone(entries)
	slices.SortStableFunc(entries, func(a, b hdrEntry) int { return int(a.tag) - int(b.tag) })
	align := map[uint32]int{typeInt16: 2, typeInt32: 4, typeInt64: 8}
	var store []byte
	offsets := make([]int, len(entries))
	for i, e := range entries {
		if a := align[e.typ]; a > 0 && len(store)%a != 0 {
			store = append(store, make([]byte, a-len(store)%a)...)
		}
		offsets[i] = len(store)
		store = append(store, e.data...)
	}
	il := len(entries) + 1
	trailerAt := len(store)
	store = binary.BigEndian.AppendUint32(store, region)
	store = binary.BigEndian.AppendUint32(store, typeBin)
	store = binary.BigEndian.AppendUint32(store, uint32(int32(-16*il)))
	store = binary.BigEndian.AppendUint32(store, 16)

	out := make([]byte, 0, 16+16*il+len(store))
	out = append(out, headerMagic...)
	out = binary.BigEndian.AppendUint32(out, uint32(il))
	out = binary.BigEndian.AppendUint32(out, uint32(len(store)))
	out = appendIndex(out, region, typeBin, trailerAt, 16)
	for i, e := range entries {
		out = appendIndex(out, e.tag, e.typ, offsets[i], e.count)
	}
	return append(out, store...)
}

func appendIndex(b []byte, tag, typ uint32, off int, count uint32) []byte {
	b = binary.BigEndian.AppendUint32(b, tag)
	b = binary.BigEndian.AppendUint32(b, typ)
	b = binary.BigEndian.AppendUint32(b, uint32(off))
	return binary.BigEndian.AppendUint32(b, count)
}

func int32Entry(tag uint32, v int32) hdrEntry {
	return hdrEntry{tag: tag, typ: typeInt32, count: 1, data: binary.BigEndian.AppendUint32(nil, uint32(v))}
}

// setEntry replaces the entry with e's tag, or adds e.
func setEntry(entries []hdrEntry, e hdrEntry) []hdrEntry {
	for i := range entries {
		if entries[i].tag == e.tag {
			entries[i] = e
			return entries
		}
	}
	return append(entries, e)
}

// int32Value reads an INT32 entry's first value.
func int32Value(entries []hdrEntry, tag uint32) (int64, bool) {
	for _, e := range entries {
		if e.tag == tag && e.typ == typeInt32 && len(e.data) >= 4 {
			return int64(binary.BigEndian.Uint32(e.data)), true
		}
	}
	return 0, false
}

// The signature header's OpenPGP signatures (rpmsign writes them; the tag names are historical:
// RSA holds any v4 signature of the main header, PGP one of the header and the payload).
const (
	sigRSA = 268  // RPMSIGTAG_RSA: a signature of the main header
	sigPGP = 1002 // RPMSIGTAG_PGP: a signature of the main header and the payload
)
