package pyframe

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// distinctTexts is n PyTorch-like NVTX texts, most of them distinct (every
// tenth repeats an earlier one), in a shuffled order.
func distinctTexts(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	ops := []string{"aten::select", "aten::add", "aten::mm", "aten::empty_strided", "aten::copy_"}
	out := make([]string, n)
	for i := range out {
		if i > 0 && i%10 == 0 {
			out[i] = out[r.IntN(i)]
			continue
		}
		out[i] = fmt.Sprintf("%s, seq = %d, op_id = %d", ops[r.IntN(len(ops))], r.IntN(1000), r.IntN(10*n))
	}
	return out
}

// TestGroupRowsStrings checks the groups of a String key against a plain
// computation: the distinct non-NULL keys sorted, and each one's rows (with a
// non-NULL value) in row order.
func TestGroupRowsStrings(t *testing.T) {
	texts := distinctTexts(5000)
	valid := make(Mask, len(texts))
	vals := make([]int64, len(texts))
	vvalid := make(Mask, len(texts))
	for i := range texts {
		valid[i], vvalid[i], vals[i] = i%17 != 3, i%13 != 5, int64(i)
	}
	keys := []*Column{NewStrings("text", texts, valid)}
	order, starts := GroupRows(keys, NewInts("v", Int64, vals, vvalid))

	rows := map[string][]int{}
	for i, s := range texts {
		if valid[i] && vvalid[i] {
			rows[s] = append(rows[s], i)
		}
	}
	want := make([]string, 0, len(rows))
	for s := range rows {
		want = append(want, s)
	}
	sort.Strings(want)
	if len(starts) != len(want)+1 {
		t.Fatalf("%d groups, want %d", len(starts)-1, len(want))
	}
	for g, s := range want {
		got := order[starts[g]:starts[g+1]]
		if !slices.Equal(got, rows[s]) {
			t.Fatalf("group %d (%q): rows %v, want %v", g, s, got, rows[s])
		}
	}
}

// BenchmarkGroupRowsDistinct groups a million rows by a String key with
// nearly a name per row, as a PyTorch capture's NVTX texts (the map of
// recipe nvtx_sum).
func BenchmarkGroupRowsDistinct(b *testing.B) {
	texts := distinctTexts(1 << 20)
	keys := []*Column{NewStrings("Text", texts, nil)}
	vals := NewInts("duration", Int64, make([]int64, len(texts)), nil)
	b.ReportAllocs()
	for b.Loop() {
		GroupRows(keys, vals)
	}
}

// TestGroupRowsSortedStrings checks the shortcut for keys already one per
// row in order against the same plain grouping, and that a key out of
// order or repeated takes the general path.
func TestGroupRowsSortedStrings(t *testing.T) {
	for _, texts := range [][]string{{"a", "b", "c"}, {"a", "c", "b"}, {"a", "a", "b"}, {}} {
		order, starts := GroupRows([]*Column{NewStrings("Text", texts, nil)}, NewInts("v", Int64, make([]int64, len(texts)), nil))
		want := map[string][]int{}
		for i, s := range texts {
			want[s] = append(want[s], i)
		}
		keys := make([]string, 0, len(want))
		for s := range want {
			keys = append(keys, s)
		}
		sort.Strings(keys)
		if len(starts) != len(keys)+1 {
			t.Fatalf("%q: %d groups, want %d", texts, len(starts)-1, len(keys))
		}
		for g, s := range keys {
			if got := order[starts[g]:starts[g+1]]; !slices.Equal(got, want[s]) {
				t.Errorf("%q: group %q rows %v, want %v", texts, s, got, want[s])
			}
		}
	}
}
