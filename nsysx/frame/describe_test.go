package frame

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

// TestGroupRowsSortedStrings checks the merge of keys in increasing runs
// (the ranks' describe frames one after another) against the same plain
// grouping: one run, several with keys shared between them, repeats, none.
func TestGroupRowsSortedStrings(t *testing.T) {
	ranks := func(n int) []string { // n ranks, each a sorted sample of the texts
		r := rand.New(rand.NewPCG(3, 4))
		texts := distinctTexts(400)
		var out []string
		for range n {
			var run []string
			for _, s := range texts {
				if r.IntN(3) > 0 && !slices.Contains(run, s) {
					run = append(run, s)
				}
			}
			sort.Strings(run)
			out = append(out, run...)
		}
		return out
	}
	cases := [][]string{{"a", "b", "c"}, {"a", "c", "b"}, {"a", "a", "b"}, {"a", "c", "b", "c", "a", "b", "d"}, {}, ranks(1), ranks(8)}
	for _, texts := range cases {
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

// BenchmarkGroupRowsRanks groups eight describe frames of 128 Ki distinct
// texts each, one after another (all_stats over eight ranks).
func BenchmarkGroupRowsRanks(b *testing.B) {
	texts := distinctTexts(1 << 17)
	slices.Sort(texts)
	texts = slices.Compact(texts)
	var all []string
	for range 8 {
		all = append(all, texts...)
	}
	keys := []*Column{NewStrings("Text", all, nil)}
	vals := NewInts("Count", Int64, make([]int64, len(all)), nil)
	b.ReportAllocs()
	for b.Loop() {
		GroupRows(keys, vals)
	}
}
