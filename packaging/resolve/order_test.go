package resolve

import (
	"fmt"
	"reflect"
	"testing"
)

func chain(depth int) []Node {
	// p9 needs p8 … p1 needs p0; given in reverse so input order cannot help.
	var nodes []Node
	for i := depth - 1; i >= 0; i-- {
		n := Node{Name: fmt.Sprintf("p%d", i)}
		if i > 0 {
			n.BuildDeps = []string{fmt.Sprintf("p%d", i-1)}
		}
		nodes = append(nodes, n)
	}
	return nodes
}

func TestOrder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		nodes  []Node
		order  []string
		cycles [][]string
	}{
		{"chain of depth 10", chain(10), []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"}, nil},
		{"diamond", []Node{{"top", []string{"left", "right"}}, {"right", []string{"base"}}, {"left", []string{"base"}}, {"base", nil}},
			[]string{"base", "left", "right", "top"}, nil},
		{"independent by name", []Node{{"c", nil}, {"a", nil}, {"b", nil}}, []string{"a", "b", "c"}, nil},
		{"ties by name, dependencies first", []Node{{"a", []string{"z"}}, {"b", nil}, {"z", nil}}, []string{"b", "z", "a"}, nil},
		{"unknown and self dependencies ignored", []Node{{"a", []string{"a", "gcc", "b"}}, {"b", nil}}, []string{"b", "a"}, nil},
		{"cycle", []Node{{"app", []string{"y"}}, {"y", []string{"x"}}, {"x", []string{"y", "base"}}, {"base", nil}},
			[]string{"base", "x", "y", "app"}, [][]string{{"x", "y"}}},
		{"two cycles", []Node{{"c1", []string{"c2"}}, {"c2", []string{"c3"}}, {"c3", []string{"c1"}}, {"a2", []string{"a1"}}, {"a1", []string{"a2", "c1"}}},
			[]string{"c1", "c2", "c3", "a1", "a2"}, [][]string{{"a1", "a2"}, {"c1", "c2", "c3"}}},
		{"a name twice is one package with both's dependencies", []Node{{"a", nil}, {"a", []string{"b"}}, {"b", nil}}, []string{"b", "a"}, nil},
		{"empty", nil, []string{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			order, cycles := Order(tc.nodes)
			if !reflect.DeepEqual(order, tc.order) || !reflect.DeepEqual(cycles, tc.cycles) {
				t.Errorf("Order = %v %v, want %v %v", order, cycles, tc.order, tc.cycles)
			}
		})
	}
}

func activities(m map[string]Activity) func(string) Activity {
	return func(n string) Activity {
		if a, ok := m[n]; ok {
			return a
		}
		return Done
	}
}

func TestBlocked(t *testing.T) {
	cycle := []Node{{"app", []string{"y"}}, {"y", []string{"x"}}, {"x", []string{"y", "base"}}, {"base", nil}}
	for _, tc := range []struct {
		name  string
		nodes []Node
		act   map[string]Activity
		want  map[string][]string
	}{
		{"nothing to do", chain(10), nil, map[string][]string{}},
		{"a rebuild blocks the whole chain above", chain(10), map[string]Activity{"p6": SourceChange},
			map[string][]string{"p7": {"p6"}, "p8": {"p7"}, "p9": {"p8"}}},
		{"a building package blocks; it is not blocked itself", chain(3), map[string]Activity{"p0": Active, "p1": Active},
			map[string][]string{"p2": {"p1"}}},
		{"a changed package waits for a building dependency", chain(3), map[string]Activity{"p0": Active, "p1": MetaChange},
			map[string][]string{"p1": {"p0"}, "p2": {"p1"}}},
		{"skipped packages neither block nor are blocked", chain(3), map[string]Activity{"p0": Active, "p1": Skip},
			map[string][]string{}},
		{"diamond", []Node{{"top", []string{"left", "right"}}, {"right", []string{"base"}}, {"left", []string{"base"}}, {"base", nil}},
			map[string]Activity{"base": Active, "right": SourceChange},
			map[string][]string{"left": {"base"}, "right": {"base"}, "top": {"left", "right"}}},
		{"cycle members do not block each other", cycle, map[string]Activity{"x": MetaChange, "y": MetaChange},
			map[string][]string{"app": {"y"}}},
		{"a building cycle member holds the others", cycle, map[string]Activity{"x": SourceChange},
			map[string][]string{"y": {"x"}, "app": {"y"}}},
		{"held by the cycle alone says cycle", []Node{{"a", []string{"b"}}, {"b", []string{"c"}}, {"c", []string{"a"}}},
			map[string]Activity{"a": Active},
			map[string][]string{"b": {}, "c": {"a"}}},
		{"outside blocker blocks a cycle member", cycle, map[string]Activity{"base": Active},
			map[string][]string{"x": {"base"}, "app": {"y"}}}, // y: members do not block each other
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Blocked(tc.nodes, activities(tc.act))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Blocked = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBlockedDetails(t *testing.T) {
	for _, tc := range []struct {
		by   []string
		want string
	}{
		{nil, "cycle"},
		{[]string{}, "cycle"},
		{[]string{"gcc"}, "gcc"},
		{[]string{"a", "b"}, "a, b"},
		{[]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ..."},
	} {
		if got := BlockedDetails(tc.by); got != tc.want {
			t.Errorf("BlockedDetails(%v) = %q, want %q", tc.by, got, tc.want)
		}
	}
}
