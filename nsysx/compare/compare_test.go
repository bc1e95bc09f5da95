package compare

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// profile opens a shared Profile per call site key, so that "a profile
// against itself" compares two independent opens of one file.
func profile(t testing.TB, name, as string) *nsysx.Profile {
	t.Helper()
	return nsysxtest.Shared(t, name+"/"+as, name)
}

// rawKernels returns the kernel durations of the raw table, per name.
func rawKernels(t *testing.T, p *nsysx.Profile) (map[string]int64, int64, int) {
	k, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "demangledName")
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int64{}
	var total int64
	for i := 0; i < k.N; i++ {
		name, _ := p.String(context.Background(), k.Col("demangledName").Int(i))
		d := k.Col("end").Int(i) - k.Col("start").Int(i)
		per[name] += d
		total += d
	}
	return per, total, k.N
}

// train vs fixed: the fix (bf16 kernels) really cuts kernel time; the
// comparison says faster with an interval below zero, and its totals are
// the raw table's.
func TestCompareTrainFixed(t *testing.T) {
	a, b := profile(t, "train", "a"), profile(t, "fixed", "a")
	c, err := Profiles(context.Background(), a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Basis != "iterations" || c.ItersBefore != 20 || c.ItersAft != 20 {
		t.Fatalf("basis %s, %d/%d iterations; want iterations, 20/20", c.Basis, c.ItersBefore, c.ItersAft)
	}
	_, totA, nA := rawKernels(t, a)
	_, totB, nB := rawKernels(t, b)
	r := c.Find(Kernel, "[all kernels]")
	if r == nil {
		t.Fatal("no [all kernels] row")
	}
	if r.Before.Total != totA || r.After.Total != totB || r.Before.Count != nA || r.After.Count != nB {
		t.Errorf("[all kernels]: %+v / %+v; raw tables %d ns in %d, %d ns in %d", r.Before, r.After, totA, nA, totB, nB)
	}
	whole := float64(totB)/float64(totA) - 1 // both runs have 20 iterations
	if r.Verdict != Faster || !(r.High < 0) || r.Low > r.Change || r.High < r.Change || math.Abs(r.Change-whole) > 0.02 {
		t.Errorf("[all kernels]: %s %.3f [%.3f, %.3f]; the raw totals change by %.3f", r.Verdict, r.Change, r.Low, r.High, whole)
	}
	if g := c.Find(GPU, "[all GPU work]"); g == nil || g.Verdict != Faster || g.Before.Total < totA {
		t.Errorf("[all GPU work]: %+v", g)
	}
	// Kernels only one profile runs are listed as new or vanished.
	perA, _, _ := rawKernels(t, a)
	perB, _, _ := rawKernels(t, b)
	for name := range perA {
		if _, ok := perB[name]; !ok {
			if row := c.Find(Kernel, name); row == nil || row.Verdict != Vanished {
				t.Errorf("%.60s only in train: %+v", name, row)
			}
		}
	}
	for name := range perB {
		if _, ok := perA[name]; !ok {
			if row := c.Find(Kernel, name); row == nil || row.Verdict != New {
				t.Errorf("%.60s only in fixed: %+v", name, row)
			}
		}
	}
	checkRanking(t, c)
}

// GPU rows come first, ranked by the size of their impact on GPU time.
func checkRanking(t *testing.T, c *Comparison) {
	t.Helper()
	prev := math.Inf(1)
	for i, r := range c.Rows {
		if !r.Kind.GPU() {
			for _, s := range c.Rows[i:] {
				if s.Kind.GPU() {
					t.Fatalf("GPU row %q after %s rows", s.Name, r.Kind)
				}
			}
			break
		}
		if r.Summary {
			continue
		}
		if math.Abs(r.Impact) > prev+1e-12 {
			t.Fatalf("row %d (%q) has a larger impact than the one before", i, r.Name)
		}
		prev = math.Abs(r.Impact)
	}
}

// A profile against itself: every change is zero and nothing is faster or
// slower, on either basis.
func TestCompareSelf(t *testing.T) {
	for _, noIter := range []bool{false, true} {
		c, err := Profiles(context.Background(), profile(t, "train", "a"), profile(t, "train", "b"), &Options{NoIterations: noIter})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Rows) < 50 {
			t.Fatalf("only %d rows", len(c.Rows))
		}
		for _, r := range c.Rows {
			if r.Verdict != NoChange || r.Change != 0 || r.AvgChange != 0 {
				t.Errorf("noIter=%v %s %q: %s %.4f", noIter, r.Kind, r.Name, r.Verdict, r.Change)
			}
		}
	}
}

// Two halves of one run (iterations 5-14 and 15-24 of train, split between
// two iterations): the GPU work is steady, so neither the kernel totals nor
// any of the ten biggest kernels may come out faster or slower. (The
// CPU-side NVTX ranges do change: "backward" takes 9-12 ms per iteration
// up to iteration 16 and 14-15 ms from iteration 17 on, a real shift in the
// raw table that the comparison rightly reports; they are not asserted.)
func TestCompareHalves(t *testing.T) {
	p := profile(t, "train", "a")
	nv, err := p.Load(context.Background(), "NVTX_EVENTS", "start", "end", "text")
	if err != nil {
		t.Fatal(err)
	}
	var end14, start15 int64
	for i := 0; i < nv.N; i++ {
		switch nv.Col("text").Str(i) {
		case "iteration 14":
			end14 = nv.Col("end").Int(i)
		case "iteration 15":
			start15 = nv.Col("start").Int(i)
		}
	}
	if end14 == 0 || start15 <= end14 {
		t.Fatal("no gap between iterations 14 and 15")
	}
	mid := strconv.FormatInt((end14+start15)/2, 10)
	first, _ := nsysx.ParseTimeFilter("/" + mid)
	second, _ := nsysx.ParseTimeFilter(mid + "/")
	c, err := Profiles(context.Background(), p, profile(t, "train", "b"), &Options{Before: first, After: second})
	if err != nil {
		t.Fatal(err)
	}
	if c.ItersBefore != 10 || c.ItersAft != 10 {
		t.Fatalf("%d and %d iterations, want 10 and 10", c.ItersBefore, c.ItersAft)
	}
	per, _, _ := rawKernels(t, p)
	var names []string
	for n := range per {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return per[names[i]] > per[names[j]] })
	for _, n := range append([]string{"[all kernels]"}, names[:10]...) {
		r := c.Find(Kernel, n)
		if r == nil || r.Verdict == Faster || r.Verdict == Slower || math.IsNaN(r.Low) {
			t.Errorf("%.70s: %+v", n, r)
		}
	}
	if r := c.Find(GPU, "[all GPU work]"); r == nil || r.Verdict != NoChange {
		t.Errorf("[all GPU work]: %+v", r)
	}
}

// Without iterations the totals and their delta are the raw tables', and
// the robust change (by name: TestCompareByName) is near the totals'
// ratio, the fix being the same in every iteration.
func TestCompareInstances(t *testing.T) {
	a, b := profile(t, "train", "a"), profile(t, "fixed", "a")
	c, err := Profiles(context.Background(), a, b, &Options{NoIterations: true})
	if err != nil {
		t.Fatal(err)
	}
	_, totA, _ := rawKernels(t, a)
	_, totB, _ := rawKernels(t, b)
	r := c.Find(Kernel, "[all kernels]")
	want := float64(totB)/float64(totA) - 1
	if c.Basis != "instances" || r.Method != ByName || math.Abs(r.Change-want) > 0.01 || r.Verdict != Faster || !(r.Low <= r.Change && r.Change <= r.High) {
		t.Errorf("basis %s, change %v [%v, %v] %s; raw %v", c.Basis, r.Change, r.Low, r.High, r.Verdict, want)
	}
	if r.Delta != float64(totB-totA) {
		t.Errorf("delta %v, raw %d", r.Delta, totB-totA)
	}
}

// The bootstrap covers a known shift, is reproducible, and gives no
// interval for too few units.
func TestBootstrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var a, b []float64
	for range 400 {
		a = append(a, 100+10*rng.NormFloat64())
		b = append(b, 110+10*rng.NormFloat64())
	}
	iv := bootstrap(units{a, 1}, units{b, 1}, 2000, 0.95, rand.New(rand.NewPCG(7, 7)))
	if !(iv.Lo < 0.1 && 0.1 < iv.Hi) || iv.Hi-iv.Lo > 0.05 || iv.Lo <= 0 {
		t.Errorf("interval [%v, %v] for a +10%% shift", iv.Lo, iv.Hi)
	}
	again := bootstrap(units{a, 1}, units{b, 1}, 2000, 0.95, rand.New(rand.NewPCG(7, 7)))
	if again != iv {
		t.Error("the same seed gave another interval")
	}
	if verdict(iv, 2) != Slower || verdict(interval{-0.01, -0.015, -0.005}, 2) != NoChange {
		t.Error("verdict rule")
	}
	small := bootstrap(units{a[:2], 1}, units{b[:2], 1}, 100, 0.95, rng)
	if !math.IsNaN(small.Lo) || verdict(small, 2) != NoChange {
		t.Errorf("two units gave an interval %+v", small)
	}
	// Past normalAbove instances the normal approximation gives the same
	// interval as drawing instances, to within a few percent of its width.
	var big, big2 []float64
	for range normalAbove + 1 {
		big = append(big, 100+10*rng.NormFloat64())
		big2 = append(big2, 101+10*rng.NormFloat64())
	}
	approx := bootstrap(units{big, 1}, units{big2, 1}, 1000, 0.95, rand.New(rand.NewPCG(3, 3)))
	exact := bootstrap(units{big[:normalAbove], 1}, units{big2[:normalAbove], 1}, 1000, 0.95, rand.New(rand.NewPCG(3, 3)))
	if w := exact.Hi - exact.Lo; math.Abs(approx.Lo-exact.Lo) > 0.15*w || math.Abs(approx.Hi-exact.Hi) > 0.15*w {
		t.Errorf("normal approximation [%v, %v], resampling [%v, %v]", approx.Lo, approx.Hi, exact.Lo, exact.Hi)
	}
}

// The result renders as CSV, header first, one row per comparison row,
// with the verdict of each.
func TestCompareResultCSV(t *testing.T) {
	c, err := Profiles(context.Background(), profile(t, "sync", "a"), profile(t, "sync", "b"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	s, _ := format.ParseSpec("csv")
	if err := format.Write(&buf, c.Result(), s); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if recs[0][0] != "Verdict" || recs[0][len(recs[0])-1] != "Name" || len(recs)-1 != len(c.Rows) {
		t.Fatalf("header %v, %d rows for %d", recs[0], len(recs)-1, len(c.Rows))
	}
	for i, r := range recs[1:] {
		if r[0] != c.Rows[i].Verdict || r[len(r)-1] != c.Rows[i].Name {
			t.Fatalf("row %d: %v", i, r)
		}
	}
}

// Two runs give the same rows, to the bit (the summary rows pool their
// groups in a fixed order, the generators are seeded per row).
func TestCompareDeterministic(t *testing.T) {
	a, b := profile(t, "train", "a"), profile(t, "fixed", "a")
	c1, err := Profiles(context.Background(), a, b, &Options{Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := Profiles(context.Background(), a, b, &Options{Resamples: 200})
	for i := range c1.Rows {
		r1, r2 := c1.Rows[i], c2.Rows[i]
		if r1.Name != r2.Name || math.Float64bits(r1.Low) != math.Float64bits(r2.Low) || math.Float64bits(r1.AvgHi) != math.Float64bits(r2.AvgHi) {
			t.Fatalf("row %d: %q [%v, %v] vs %q [%v, %v]", i, r1.Name, r1.Low, r1.High, r2.Name, r2.Low, r2.High)
		}
	}
}

// The cost of a comparison of train and fixed (20 iterations, 217 names),
// on each basis.
func BenchmarkCompare(b *testing.B) {
	a, f := profile(b, "train", "a"), profile(b, "fixed", "a")
	for _, noIter := range []bool{false, true} {
		b.Run(map[bool]string{false: "iterations", true: "instances"}[noIter], func(b *testing.B) {
			for b.Loop() {
				if _, err := Profiles(context.Background(), a, f, &Options{NoIterations: noIter}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
