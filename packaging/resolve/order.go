package resolve

import (
	"container/heap"
	"slices"
	"strings"
)

// Node is one source package of a repository for ordering and blocking. A name given twice is
// one package with the dependencies of both.
type Node struct {
	Name string
	// BuildDeps names the source packages of the same repository whose binaries it needs
	// (Result.LocalPackages). Names that are not nodes, and the package itself, are ignored.
	BuildDeps []string
}

// graph is the nodes with their dependencies as indices, and its strongly connected
// components in build order.
type graph struct {
	names []string
	deps  [][]int
	comps [][]int // members sorted by name, components in build order
	comp  []int   // node → its component
}

func newGraph(nodes []Node) *graph {
	g := &graph{}
	index := make(map[string]int, len(nodes))
	for _, n := range nodes {
		if _, dup := index[n.Name]; !dup {
			index[n.Name] = len(g.names)
			g.names = append(g.names, n.Name)
		}
	}
	g.deps = make([][]int, len(g.names))
	for _, n := range nodes {
		i := index[n.Name]
		for _, d := range n.BuildDeps {
			if j, ok := index[d]; ok && j != i && !slices.Contains(g.deps[i], j) {
				g.deps[i] = append(g.deps[i], j)
			}
		}
	}
	g.components()
	return g
}

// components finds the strongly connected components (Tarjan) and orders them: dependencies
// first, and among the components ready at the same time the one whose first name sorts first.
func (g *graph) components() {
	n := len(g.names)
	idx, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range idx {
		idx[i] = -1
	}
	var stack, found [][]int
	var s []int
	next := 0
	type frame struct{ v, edge int }
	for root := range n {
		if idx[root] >= 0 {
			continue
		}
		stack = stack[:0]
		visit := func(v int) {
			idx[v], low[v] = next, next
			next++
			s = append(s, v)
			onStack[v] = true
		}
		visit(root)
		frames := []frame{{root, 0}}
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			if f.edge < len(g.deps[f.v]) {
				w := g.deps[f.v][f.edge]
				f.edge++
				if idx[w] < 0 {
					visit(w)
					frames = append(frames, frame{w, 0})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], idx[w])
				}
				continue
			}
			v := f.v
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				u := frames[len(frames)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == idx[v] {
				var c []int
				for {
					w := s[len(s)-1]
					s = s[:len(s)-1]
					onStack[w] = false
					c = append(c, w)
					if w == v {
						break
					}
				}
				slices.SortFunc(c, func(a, b int) int { return strings.Compare(g.names[a], g.names[b]) })
				found = append(found, c)
			}
		}
	}
	g.comp = make([]int, n)
	for ci, c := range found {
		for _, v := range c {
			g.comp[v] = ci
		}
	}
	// Kahn over the components: waiting counts the distinct components each one needs.
	waiting := make([]int, len(found))
	users := make([][]int, len(found))
	for ci, c := range found {
		seen := map[int]bool{}
		for _, v := range c {
			for _, w := range g.deps[v] {
				if cw := g.comp[w]; cw != ci && !seen[cw] {
					seen[cw] = true
					waiting[ci]++
					users[cw] = append(users[cw], ci)
				}
			}
		}
	}
	ready := &compHeap{names: g.names, comps: found}
	for ci := range found {
		if waiting[ci] == 0 {
			ready.items = append(ready.items, ci)
		}
	}
	heap.Init(ready)
	for ready.Len() > 0 {
		ci := heap.Pop(ready).(int)
		g.comps = append(g.comps, found[ci])
		for _, u := range users[ci] {
			if waiting[u]--; waiting[u] == 0 {
				heap.Push(ready, u)
			}
		}
	}
	for i, c := range g.comps { // renumber comp by build order
		for _, v := range c {
			g.comp[v] = i
		}
	}
}

// compHeap orders ready components by their first member's name.
type compHeap struct {
	names []string
	comps [][]int
	items []int
}

func (h *compHeap) Len() int { return len(h.items) }
func (h *compHeap) Less(i, j int) bool {
	return h.names[h.comps[h.items[i]][0]] < h.names[h.comps[h.items[j]][0]]
}
func (h *compHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *compHeap) Push(x any)    { h.items = append(h.items, x.(int)) }
func (h *compHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// Order returns the source packages in build order, dependencies first, ties broken by name so
// the order is the same every time. Packages that need each other (strongly connected
// components of two or more) come out together, in name order, and are also returned as
// cycles, each sorted, sorted by first name: the build service builds a cycle's packages
// anyway and lists the cycle in builddepinfo.
func Order(nodes []Node) (order []string, cycles [][]string) {
	g := newGraph(nodes)
	order = make([]string, 0, len(g.names))
	for _, c := range g.comps {
		for _, v := range c {
			order = append(order, g.names[v])
		}
		if len(c) > 1 {
			cycles = append(cycles, g.memberNames(c))
		}
	}
	slices.SortFunc(cycles, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return order, cycles
}

func (g *graph) memberNames(c []int) []string {
	out := make([]string, len(c))
	for i, v := range c {
		out[i] = g.names[v]
	}
	return out
}
