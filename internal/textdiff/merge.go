package textdiff

import "strings"

// The 3-way merge of a branch link's expansion: a file changed both in the branch and in the
// package it branched from is merged line by line against the common base, as diff3 does.
// Changes that touch or overlap and differ are a conflict: the caller reports a link error
// rather than guessing, because the real service does the same ("conflict in file …").

// change replaces base[start:end] with lines (start == end: an insertion before base[start]).
type change struct {
	start, end int
	lines      []string
}

// changes lists the edits turning base into other, in base order.
func changes(base, other []string) []change {
	var out []change
	var cur *change
	i := 0
	for _, op := range EditScript(base, other) {
		switch op.Kind {
		case ' ':
			if cur != nil {
				out = append(out, *cur)
				cur = nil
			}
			i++
		case '-':
			if cur == nil {
				cur = &change{start: i, end: i}
			}
			cur.end++
			i++
		case '+':
			if cur == nil {
				cur = &change{start: i, end: i}
			}
			cur.lines = append(cur.lines, op.Line)
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

// region is base[start:end] as one side sees it after its changes inside the region.
func region(base []string, start, end int, cs []change) []string {
	var out []string
	pos := start
	for _, c := range cs {
		out = append(out, base[pos:c.start]...)
		out = append(out, c.lines...)
		pos = c.end
	}
	return append(out, base[pos:end]...)
}

// Merge3 merges the changes ours and theirs each made to base. ok is false on a conflict: two
// changes that overlap or touch and do not agree.
func Merge3(base, ours, theirs []byte) (merged []byte, ok bool) {
	b := SplitLines(base)
	co, ct := changes(b, SplitLines(ours)), changes(b, SplitLines(theirs))
	var out []string
	pos, i, j := 0, 0, 0
	for i < len(co) || j < len(ct) {
		// Start a group at the earliest change, then absorb every change of either side that
		// overlaps or touches the group, until it stops growing.
		start := 0
		switch {
		case j == len(ct) || (i < len(co) && co[i].start <= ct[j].start):
			start = co[i].start
		default:
			start = ct[j].start
		}
		end, gi, gj := start, i, j
		for grew := true; grew; {
			grew = false
			if gi < len(co) && co[gi].start <= end {
				end, gi, grew = max(end, co[gi].end), gi+1, true
			}
			if gj < len(ct) && ct[gj].start <= end {
				end, gj, grew = max(end, ct[gj].end), gj+1, true
			}
		}
		out = append(out, b[pos:start]...)
		mine, others := co[i:gi], ct[j:gj]
		switch {
		case len(others) == 0:
			out = append(out, region(b, start, end, mine)...)
		case len(mine) == 0:
			out = append(out, region(b, start, end, others)...)
		default:
			a, t := region(b, start, end, mine), region(b, start, end, others)
			if strings.Join(a, "") != strings.Join(t, "") {
				return nil, false
			}
			out = append(out, a...)
		}
		pos, i, j = end, gi, gj
	}
	out = append(out, b[pos:]...)
	return []byte(strings.Join(out, "")), true
}
