package pgkv

import (
	"bytes"
	"errors"
)

// A bucket's path is the row key of everything in it: each name from the top, with every 0x00
// escaped as 0x00 0xFF and ended by 0x00 0x01; the top level is the empty path. So a bucket's
// path is a prefix of exactly the paths of the buckets inside it (a sibling whose name merely
// starts with the same bytes differs at the terminator), everything under a bucket is one range
// of the primary key, and the rows sort bucket by bucket, each after its parent's.

// appendName returns path extended by the bucket name (path is not modified).
func appendName(path, name []byte) []byte {
	out := make([]byte, 0, len(path)+len(name)+2)
	out = append(out, path...)
	for _, c := range name {
		if c == 0 {
			out = append(out, 0, 0xFF)
			continue
		}
		out = append(out, c)
	}
	return append(out, 0, 1)
}

var errBadPath = errors.New("pgkv: malformed bucket path")

// splitPath returns the names of path, from the top.
func splitPath(path []byte) ([][]byte, error) {
	var names [][]byte
	var cur []byte
	for i := 0; i < len(path); i++ {
		if path[i] != 0 {
			cur = append(cur, path[i])
			continue
		}
		if i+1 >= len(path) {
			return nil, errBadPath
		}
		i++
		switch path[i] {
		case 0xFF:
			cur = append(cur, 0)
		case 1:
			names = append(names, cur)
			cur = nil
		default:
			return nil, errBadPath
		}
	}
	if cur != nil {
		return nil, errBadPath
	}
	return names, nil
}

// parentName splits a bucket's path into its parent's path and its own name.
func parentName(path []byte) (parent, name []byte, err error) {
	names, err := splitPath(path)
	if err != nil || len(names) == 0 {
		return nil, nil, errBadPath
	}
	parent = []byte{} // the top level is the empty path, never NULL
	for _, n := range names[:len(names)-1] {
		parent = appendName(parent, n)
	}
	return parent, names[len(names)-1], nil
}

// treeEnd is the first path after every path under path (path ends 0x00 0x01: 0x00 0x02 is
// past all of them).
func treeEnd(path []byte) []byte {
	end := bytes.Clone(path)
	end[len(end)-1] = 2
	return end
}

// under reports whether path is tree or lies inside it.
func under(path, tree []byte) bool { return bytes.HasPrefix(path, tree) }
