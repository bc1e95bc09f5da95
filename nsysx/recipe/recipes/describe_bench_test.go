package recipes

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// BenchmarkDescribe groups one million int64 durations under 1000 names.
func BenchmarkDescribe(b *testing.B) {
	const n, keys = 1 << 20, 1000
	names := make([]string, keys)
	for i := range names {
		names[i] = fmt.Sprintf("kernel_%04d", i)
	}
	key := make([]string, n)
	vals := make([]int64, n)
	for i := range key {
		key[i] = names[(i*7919)%keys]
		vals[i] = int64(1000 + (i*104729)%100000)
	}
	kc, vc := pyframe.NewStrings("Name", key, nil), pyframe.NewInts("duration", pyframe.Int64, vals, nil)
	b.ReportAllocs()
	for b.Loop() {
		pyframe.Describe([]*pyframe.Column{kc}, vc)
	}
}

// BenchmarkNVTXSumMap maps train's NVTX table (54 400 ranges, mostly
// distinct texts) with nvtx_sum, the profile already loaded.
func BenchmarkNVTXSumMap(b *testing.B) {
	p, err := nsysx.Open(testutil.Profile(b, "train"))
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	r := &recipe.Report{Path: "train.sqlite", Stem: "train", Profile: p}
	o := recipe.Defaults()
	ctx := context.Background()
	if _, err := mapNVTXSum(ctx, r, o, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mapNVTXSum(ctx, r, o, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Quartiles (selection) gives what sorting and interpolating gives, on
// random data with ties, tiny and even/odd lengths.
func TestQuartilesSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 300; n++ {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.IntN(n/3 + 1))
		}
		want := append([]float64(nil), v...)
		sort.Float64s(want)
		got := pyframe.Quartiles(v)
		for c, q := range []float64{0.25, 0.5, 0.75} {
			if w := pyframe.Quantile(want, q); got[c] != w {
				t.Fatalf("n=%d q=%v: %v, want %v", n, q, got[c], w)
			}
		}
	}
}
