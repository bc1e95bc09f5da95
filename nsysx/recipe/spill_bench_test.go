package recipe

import (
	"context"
	"fmt"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// benchParts are k parts of describe frames of n distinct texts each (the
// same texts in every part, as over links to one report).
func benchParts(k, n int) []*Part {
	text := make([]string, n)
	for i := range text {
		text[i] = fmt.Sprintf("aten::select, seq = %d, op_id = %d", i, 7*i)
	}
	parts := make([]*Part, k)
	for r := range parts {
		d := make([]int64, n)
		for i := range d {
			d[i] = int64(1 + (i*31+r)%977)
		}
		parts[r] = StatsPart(pyframe.Describe([]*pyframe.Column{pyframe.NewStrings("Text", text, nil)}, pyframe.NewInts("duration", pyframe.Int64, d, nil)), nil)
		parts[r].Stem = fmt.Sprintf("rank%d", r)
	}
	return parts
}

// BenchmarkStatsReduce is the summary reduce of 8 parts of 128 Ki texts
// with rank_stats and all_stats written as Parquet: in memory, and with the
// parts spilled first (the spill included).
func BenchmarkStatsReduce(b *testing.B) {
	for _, spill := range []bool{false, true} {
		b.Run(fmt.Sprintf("spill=%v", spill), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				parts := benchParts(8, 128<<10)
				b.StartTimer()
				set := &spillSet{}
				if spill {
					for _, p := range parts {
						if err := spillPart(b.TempDir(), p, set); err != nil {
							b.Fatal(err)
						}
					}
				}
				out, err := StatsReduceConsume(context.Background(), parts, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				r := &Result{Opts: &Options{}}
				for i := range out.Tables[:2] {
					if err := r.writeTable(b.TempDir(), &out.Tables[i]); err != nil {
						b.Fatal(err)
					}
				}
				out.Close()
				set.close()
			}
		})
	}
}
