package compare

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
)

// The fixtures below are copies of the shipped profiles whose durations
// were changed with SQL: a known change injected into one name, noise on
// every instance (a deterministic hash of the row, different before and
// after), heavy tails (one instance in 101 twenty times longer) and
// first-call outliers. The expected figures are computed here from the
// altered durations, the straightforward way (all pairwise ratios).

const runtimeTable = "CUPTI_ACTIVITY_KIND_RUNTIME"

// launches selects bt's cudaLaunchKernel calls (both of its name ids).
const launches = "nameId IN (SELECT id FROM StringIds WHERE value IN ('cudaLaunchKernel', 'cudaLaunchKernel_v7000'))"

// noise multiplies every duration of table by 0.97 to 1.03, from a hash of
// the row and seed, and with tails, one row in 101 by 20.
func noise(table string, seed int, tails bool) string {
	tail := "1"
	if tails {
		tail = fmt.Sprintf("(CASE WHEN (rowid * 40503 + %d) %% 101 = 0 THEN 20 ELSE 1 END)", seed)
	}
	return fmt.Sprintf("UPDATE %s SET end = start + CAST((end - start) * (0.97 + 0.06 * ((rowid * 2654435761 + %d) %% 1000003) / 1000003.0) * %s AS INTEGER)",
		table, seed*7919, tail)
}

// firstLaunches makes bt's first three launch calls last 16 ms each:
// 62% of all the launch time, as lazy module loading does.
const firstLaunches = "UPDATE " + runtimeTable + " SET end = start + 16000000 WHERE rowid IN (SELECT rowid FROM " + runtimeTable +
	" WHERE " + launches + " ORDER BY start LIMIT 3)"

// scaled multiplies the durations of table's rows matching where by f.
func scaled(table, where string, f float64) string {
	return fmt.Sprintf("UPDATE %s SET end = start + CAST((end - start) * %g AS INTEGER) WHERE %s", table, f, where)
}

// fixture writes an altered copy of a shipped profile and opens it.
func fixture(t *testing.T, name, as string, stmts ...string) *nsysx.Profile {
	t.Helper()
	p, err := nsysx.Open(sqlitecopy.Profile(t, name, t.TempDir(), as+".sqlite", stmts...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// apiDurations is a CUDA API function's call durations in start order.
func apiDurations(t *testing.T, p *nsysx.Profile, name string) []int64 {
	t.Helper()
	r, err := p.Load(context.Background(), runtimeTable, "start", "end", "nameId")
	if err != nil {
		t.Fatal(err)
	}
	type call struct{ start, dur int64 }
	var calls []call
	for i := 0; i < r.N; i++ {
		s, _ := p.String(context.Background(), r.Col("nameId").Int(i))
		if nsysx.StripAPIVersion(s) == name {
			calls = append(calls, call{r.Col("start").Int(i), r.Col("end").Int(i) - r.Col("start").Int(i)})
		}
	}
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].start < calls[j].start })
	out := make([]int64, len(calls))
	for i, c := range calls {
		out[i] = c.dur
	}
	return out
}

// pairwiseMedianRatio is the median of all ratios b[j]/a[i], every pair
// formed and sorted (0 ns counted as 1 ns).
func pairwiseMedianRatio(a, b []int64) float64 {
	r := make([]float64, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			r = append(r, math.Max(float64(y), 1)/math.Max(float64(x), 1))
		}
	}
	slices.Sort(r)
	return plainMedian(r)
}

// walshMedianRatio is the one-sample Hodges–Lehmann ratio of a and b
// paired by index: exp of the median of all Walsh averages (x[i]+x[j])/2,
// i <= j, of the log ratios x, every average formed and sorted.
func walshMedianRatio(a, b []int64) float64 {
	x := make([]float64, len(a))
	for i := range a {
		x[i] = math.Log(math.Max(float64(b[i]), 1) / math.Max(float64(a[i]), 1))
	}
	var w []float64
	for i := range x {
		for j := i; j < len(x); j++ {
			w = append(w, (x[i]+x[j])/2)
		}
	}
	slices.Sort(w)
	return math.Exp(plainMedian(w))
}

func plainMedian(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func medianOf(x []int64) float64 {
	f := make([]float64, len(x))
	for i, v := range x {
		f[i] = float64(v)
	}
	slices.Sort(f)
	return plainMedian(f)
}

func meanOf(x []int64) float64 {
	var s float64
	for _, v := range x {
		s += float64(v)
	}
	return s / float64(len(x))
}

// The case: every cudaLaunchKernel 1.5x slower, its first three
// calls (of 2,448) holding 62% of its time, noise and heavy tails on every
// call. The launch row says slower, by the Hodges–Lehmann ratio computed
// here from all pairs, with a tight interval; the first calls are flagged;
// an untouched function (cudaMemsetAsync, noise only) says no change with
// a tight interval; the mean and median changes are the plain ones.
func TestCompareInjectedLaunches(t *testing.T) {
	before := fixture(t, "bt", "before", noise(runtimeTable, 1, true), firstLaunches)
	after := fixture(t, "bt", "after", noise(runtimeTable, 2, true), firstLaunches, scaled(runtimeTable, launches, 1.5))
	la, lb := apiDurations(t, before, "cudaLaunchKernel"), apiDurations(t, after, "cudaLaunchKernel")
	var first int64
	for _, d := range la[:3] {
		first += d
	}
	share := float64(first) / (meanOf(la) * float64(len(la)))
	if share < 0.6 || share > 0.64 {
		t.Fatalf("fixture: the first three launches hold %.3f of the launch time, want 0.62", share)
	}
	for _, noIter := range []bool{true, false} {
		c, err := Profiles(context.Background(), before, after, &Options{NoIterations: noIter})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Find(API, "cudaLaunchKernel")
		if r == nil {
			t.Fatal("no cudaLaunchKernel row")
		}
		// Per iteration (8 of them) the tails make each iteration's ratio
		// vary by some 14%: the interval is honest, not tight.
		if tight := noIter; r.Verdict != Slower || r.Change < 0.4 || r.Change > 0.6 || tight && r.High-r.Low > 0.02 || r.Low < 0.2 || !(r.Low <= r.Change && r.Change <= r.High) {
			t.Errorf("noIter=%v cudaLaunchKernel: %s %+.3f [%+.3f, %+.3f] (%s); want slower near +0.5, tight", noIter, r.Verdict, r.Change, r.Low, r.High, r.Method)
		}
		if noIter { // as many calls before and after: paired in start order
			want := walshMedianRatio(la, lb) - 1
			if len(la) != len(lb) || r.Method != PairedInstances || math.Abs(r.Change-want) > 1e-9 {
				t.Errorf("Hodges-Lehmann change %v (%s), all pairs give %v", r.Change, r.Method, want)
			}
		} else if r.Method != PairedIterations {
			t.Errorf("with iterations the method is %q", r.Method)
		}
		if want := medianOf(lb)/medianOf(la) - 1; math.Abs(r.MedChange-want) > 1e-12 || !(r.MedLo < want && want < r.MedHi) {
			t.Errorf("median change %v [%v, %v], want %v", r.MedChange, r.MedLo, r.MedHi, want)
		}
		if want := meanOf(lb)/meanOf(la) - 1; math.Abs(r.AvgChange-want) > 1e-12 {
			t.Errorf("mean change %v, want %v", r.AvgChange, want)
		}
		// The first tenth of the calls past 10 times the median: the three
		// injected ones, and any heavy tail among them.
		n, out := 0, 0.0
		for _, d := range la[:len(la)/10] {
			if float64(d) > 10*medianOf(la) {
				n++
				out += float64(d)
			}
		}
		out /= meanOf(la) * float64(len(la))
		if n < 3 || r.Before.FirstCalls != n || math.Abs(r.Before.FirstShare-out) > 1e-9 || r.After.FirstCalls < 3 {
			t.Errorf("first-call outliers %d (%.3f) / %d; want %d (%.3f)", r.Before.FirstCalls, r.Before.FirstShare, r.After.FirstCalls, n, out)
		}
		if s, want := c.Summary(), fmt.Sprintf("api cudaLaunchKernel: %d of %d in before hold %.0f%% of its time", n, len(la), out*100); !strings.Contains(s, want) {
			t.Errorf("the summary does not flag the first calls:\n%s", s)
		}
		m := c.Find(API, "cudaMemsetAsync")
		if m == nil || m.Verdict != NoChange || noIter && (m.Low < -0.05 || m.High > 0.05) || math.IsNaN(m.Low) {
			t.Errorf("noIter=%v untouched cudaMemsetAsync: %+v", noIter, m)
		}
	}
}

// Noise only (nothing changed): no row of the API calls is slower or
// faster, and the [all CUDA API calls] interval is tight (the mean of the
// instances, resampled, spanned tens of percent): over instances with
// heavy tails, and over iterations with noise alone (8 iterations with
// tails vary by more than 5%).
func TestCompareInjectedNoise(t *testing.T) {
	for _, noIter := range []bool{true, false} {
		before := fixture(t, "bt", "before", noise(runtimeTable, 1, noIter), firstLaunches)
		after := fixture(t, "bt", "after", noise(runtimeTable, 2, noIter), firstLaunches)
		c, err := Profiles(context.Background(), before, after, &Options{NoIterations: noIter})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range c.Rows {
			if r.Kind == API && (r.Verdict == Slower || r.Verdict == Faster) && r.Share >= 0.01 {
				t.Errorf("noIter=%v %s: %s %+.3f [%+.3f, %+.3f] on noise alone", noIter, r.Name, r.Verdict, r.Change, r.Low, r.High)
			}
		}
		r := c.Find(API, "[all CUDA API calls]")
		if want := map[bool]string{true: ByName, false: PairedIterations}[noIter]; r == nil || r.Verdict != NoChange || r.Low < -0.05 || r.High > 0.05 || r.Method != want {
			t.Errorf("noIter=%v [all CUDA API calls]: %+v", noIter, r)
		}
	}
}

// Every kernel 3.6% slower, with noise: per-iteration paired differences
// find it (slower, near +3.6%), and so do the instances.
func TestCompareInjectedKernels(t *testing.T) {
	const k = "CUPTI_ACTIVITY_KIND_KERNEL"
	before := fixture(t, "train", "before", noise(k, 1, false))
	after := fixture(t, "train", "after", noise(k, 2, false), scaled(k, "1", 1.036))
	for _, noIter := range []bool{false, true} {
		c, err := Profiles(context.Background(), before, after, &Options{NoIterations: noIter})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Find(Kernel, "[all kernels]")
		if r.Verdict != Slower || r.Change < 0.026 || r.Change > 0.046 || r.Low <= 0 {
			t.Errorf("noIter=%v [all kernels]: %s %+.4f [%+.4f, %+.4f] (%s), want slower near +0.036", noIter, r.Verdict, r.Change, r.Low, r.High, r.Method)
		}
	}
}

// Under the instances basis a summary row's change is the before total of
// each of its names times that name's ratio (with as many instances in
// both, the one-sample Hodges–Lehmann ratio of the instances paired in
// start order; else the two-sample one of all pairs times the count
// ratio; with fewer than three instances its totals' ratio), new names'
// totals added, over the before total. Half of the kernels are 1.2x
// slower, with noise and heavy tails.
func TestCompareByName(t *testing.T) {
	const k = "CUPTI_ACTIVITY_KIND_KERNEL"
	before := fixture(t, "sync", "before", noise(k, 1, true))
	after := fixture(t, "sync", "after", noise(k, 2, true), scaled(k, "rowid % 2 = 0", 1.2))
	c, err := Profiles(context.Background(), before, after, &Options{NoIterations: true})
	if err != nil {
		t.Fatal(err)
	}
	da, db := kernelDurations(t, before), kernelDurations(t, after)
	var tot, est float64
	for name, a := range da {
		ta := meanOf(a) * float64(len(a))
		tot += ta
		b, ok := db[name]
		switch {
		case !ok:
		case len(a) < 3 || len(b) < 3:
			est += meanOf(b) * float64(len(b))
		case len(a) == len(b):
			est += ta * walshMedianRatio(a, b)
		default:
			est += ta * pairwiseMedianRatio(a, b) * float64(len(b)) / float64(len(a))
		}
	}
	for name, b := range db {
		if _, ok := da[name]; !ok {
			est += meanOf(b) * float64(len(b))
		}
	}
	r := c.Find(Kernel, "[all kernels]")
	if want := est/tot - 1; r == nil || math.Abs(r.Change-want) > 1e-9 || r.Method != ByName || !(r.Low <= r.Change && r.Change <= r.High) {
		t.Errorf("[all kernels]: %+v; by name from all pairs %v", r, want)
	}
}

// kernelDurations is each kernel name's durations in start order.
func kernelDurations(t *testing.T, p *nsysx.Profile) map[string][]int64 {
	t.Helper()
	k, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "demangledName")
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, k.N)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return k.Col("start").Int(idx[x]) < k.Col("start").Int(idx[y]) })
	out := map[string][]int64{}
	for _, i := range idx {
		name, _ := p.String(context.Background(), k.Col("demangledName").Int(i))
		out[name] = append(out[name], k.Col("end").Int(i)-k.Col("start").Int(i))
	}
	return out
}

// Less than half of train's kernel time is in kernels fixed also runs
// (bf16 autocast swapped the GEMMs): the comparison says so, with the
// shares computed here from the raw tables; a profile against itself
// shares everything and warns of nothing.
func TestCompareComparability(t *testing.T) {
	a, b := profile(t, "train", "a"), profile(t, "fixed", "a")
	c, err := Profiles(context.Background(), a, b, &Options{Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	perA, totA, _ := rawKernels(t, a)
	perB, totB, _ := rawKernels(t, b)
	var sa, sb int64
	for n, v := range perA {
		if _, ok := perB[n]; ok {
			sa += v
			sb += perB[n]
		}
	}
	wa, wb := float64(sa)/float64(totA), float64(sb)/float64(totB)
	if math.Abs(c.SharedBefore-wa) > 1e-9 || math.Abs(c.SharedAfter-wb) > 1e-9 {
		t.Errorf("shared %v / %v, raw tables %v / %v", c.SharedBefore, c.SharedAfter, wa, wb)
	}
	if wa >= 0.5 || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "less than half of "+c.Before+"'s") ||
		!strings.Contains(c.Warnings[0], fmt.Sprintf("%s %.1f%%", c.Before, wa*100)) || !strings.Contains(c.Summary(), c.Warnings[0]) {
		t.Errorf("warnings %q for shares %.3f / %.3f", c.Warnings, wa, wb)
	}
	self, err := Profiles(context.Background(), a, profile(t, "train", "b"), &Options{Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(self.Warnings) != 0 || self.SharedBefore != 1 {
		t.Errorf("a profile against itself: %q, shared %v", self.Warnings, self.SharedBefore)
	}
}

// Failing lists the slower rows at or above MinShare, and the summary
// shortens C++ names as the charts do.
func TestCompareFailingAndNames(t *testing.T) {
	const k = "CUPTI_ACTIVITY_KIND_KERNEL"
	before := fixture(t, "train", "before", noise(k, 1, false))
	after := fixture(t, "train", "after", noise(k, 2, false), scaled(k, "1", 1.2))
	c, err := Profiles(context.Background(), before, after, &Options{Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	fail := c.Failing(Slower)
	if len(fail) == 0 {
		t.Fatal("no slower row")
	}
	for _, r := range fail {
		if r.Verdict != Slower || r.Share < 0.01 {
			t.Errorf("%s: %s at share %v", r.Name, r.Verdict, r.Share)
		}
	}
	for _, r := range c.Rows {
		if r.Verdict == Slower && r.Share >= 0.01 && !slices.ContainsFunc(fail, func(f Row) bool { return f.Name == r.Name }) {
			t.Errorf("%s is slower at share %v but not failing", r.Name, r.Share)
		}
	}
	for _, line := range strings.Split(c.Summary(), "\n")[1:] { // the title aside
		if len([]rune(line)) > 160 && !strings.HasPrefix(line, "warning:") || strings.Contains(line, "(T1::Params)") {
			t.Errorf("summary line of %d runes: %.200s", len([]rune(line)), line)
		}
	}
}
