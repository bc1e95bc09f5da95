package recipe

import (
	"context"
	"fmt"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
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
	kc, vc := NewStrings("Name", key, nil), NewInts("duration", Int64, vals, nil)
	b.ReportAllocs()
	for b.Loop() {
		Describe([]*Column{kc}, vc)
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
	r := &Report{Path: "train.sqlite", Stem: "train", Profile: p}
	o := Defaults()
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
