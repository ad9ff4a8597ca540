// Package textdiff holds the line-based text algorithms of the build service: the unified diff
// of cmd=diff, the 3-way merge that expands branch links, and the application of a unified
// patch that <apply/> in a _link asks for. One LCS alignment serves all three.
package textdiff

import (
	"fmt"
	"strings"
)

// A small line-based unified diff (no dependency): common prefix and suffix are stripped, the
// middle is aligned by a longest-common-subsequence table, and the edit script is cut into
// hunks with context lines. A middle too large for the table is shown as replaced wholesale,
// still a correct (if longer) diff.

// maxLCSCells bounds the LCS table (rows × columns) so a huge file cannot exhaust memory.
const maxLCSCells = 4_000_000

// Op is one line of the edit script: ' ' kept, '-' removed from a, '+' added from b.
type Op struct {
	Kind byte
	Line string // with its "\n", except a last line without one
}

// SplitLines cuts data after each "\n"; a last line without a newline is kept as it is.
func SplitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// EditScript is the line edit script turning a into b.
func EditScript(a, b []string) []Op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []Op
	for _, l := range a[:pre] {
		ops = append(ops, Op{' ', l})
	}
	ops = append(ops, middleScript(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, Op{' ', l})
	}
	return ops
}

// middleScript aligns a and b by their longest common subsequence (removals before additions
// at each change, as diff prints them).
func middleScript(a, b []string) []Op {
	var ops []Op
	if len(a)*len(b) > maxLCSCells {
		for _, l := range a {
			ops = append(ops, Op{'-', l})
		}
		for _, l := range b {
			ops = append(ops, Op{'+', l})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, Op{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, Op{'-', a[i]})
			i++
		default:
			ops = append(ops, Op{'+', b[j]})
			j++
		}
	}
	return ops
}

// Unified renders the "@@" hunks turning a into b with ctx lines of context; empty when
// they are equal.
func Unified(a, b []byte, ctx int) string {
	ops := EditScript(SplitLines(a), SplitLines(b))
	var out strings.Builder
	for start := 0; start < len(ops); {
		first := start
		for first < len(ops) && ops[first].Kind == ' ' {
			first++
		}
		if first == len(ops) {
			break
		}
		last := first // extend while the next change is within 2*ctx kept lines
		for k := first + 1; k < len(ops) && k-last <= 2*ctx+1; k++ {
			if ops[k].Kind != ' ' {
				last = k
			}
		}
		from, to := max(start, first-ctx), min(len(ops), last+ctx+1)
		writeHunk(&out, ops, from, to)
		start = to
	}
	return out.String()
}

// writeHunk writes ops[from:to] as one hunk; line numbers count the ops before from.
func writeHunk(out *strings.Builder, ops []Op, from, to int) {
	aLine, bLine, aLen, bLen := 1, 1, 0, 0
	for _, op := range ops[:from] {
		aLine, bLine = aLine+btoi(op.Kind != '+'), bLine+btoi(op.Kind != '-')
	}
	for _, op := range ops[from:to] {
		aLen, bLen = aLen+btoi(op.Kind != '+'), bLen+btoi(op.Kind != '-')
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aLine, aLen), hunkRange(bLine, bLen))
	for _, op := range ops[from:to] {
		out.WriteString(string(op.Kind) + op.Line)
		if !strings.HasSuffix(op.Line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange is diff's "start,length": the length is left out when 1, and an empty range
// starts at the line before it.
func hunkRange(start, length int) string {
	switch length {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, length)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
