// Package compare tells whether a change between two Nsight Systems profiles
// (before and after) is real or noise: per kernel, per memcpy/memset kind,
// per NVTX range and per CUDA API function, the change in time with a
// bootstrap confidence interval and a verdict, the mean and the median
// instance's change beside it, first-call outliers flagged, and a warning
// when the two profiles run different kernels.
//
// # Method
//
// Every instance (a kernel run, an NVTX range, an API call) is read from the
// raw tables, under the profiles' filters, in start order. The statistic
// behind the verdict (Row.Change, Row.Method) is robust: a few calls far
// slower than the rest (the first launch of each kernel loading its module,
// a pause) neither make nor hide a change.
//
//   - Iterations (PairedIterations). When both profiles have at least two
//     NVTX iterations (ranges named like "iteration N", "step N", ...;
//     Options.Iterations), each instance counts in the iteration its start
//     falls in (GPU work at the start of the API call that launched it), and
//     iteration i of before is paired with iteration i of after (the first
//     min(n, m) of each). The change is the one-sample Hodges–Lehmann
//     estimate of the per-iteration ratios after/before (the median of the
//     Walsh averages of their logarithms; iterations where both runs spend
//     time in the name), and its bootstrap resamples the pairs: what both
//     runs share (warm-up in the first iteration) cancels in each ratio.
//   - Instances, as many in both profiles (PairedInstances): the k-th
//     instance of before is paired with the k-th of after (same program,
//     same calls), and the change is the one-sample Hodges–Lehmann estimate
//     of their ratios, the bootstrap resampling pairs.
//   - Instances, counts differing (HodgesLehmann): the two-sample
//     Hodges–Lehmann ratio, the median of all ratios after[j]/before[i],
//     times the ratio of the counts (the total's change with the counts
//     held fixed); the bootstrap resamples each profile's instances.
//   - The summary rows ([all GPU work], [all kernels], [all CUDA API calls])
//     under the instances basis (ByName): each name's before total times its
//     estimated ratio, new names' totals added, over the before total; the
//     bootstrap adds the names' replicates replicate by replicate (stratified
//     by name, so the mix of names does not vary between replicates).
//     Under the iterations basis they are paired per iteration as any row.
//
// The median of all pairs is found without forming them: with both samples
// sorted, the number of pairs below a value is counted in one pass, and a
// search over the value (interpolating those counts) finds the middle one
// in a few passes; the tests compare it with every pair formed and sorted.
// Past 500 instances a side, a replicate draws 500 of them (an m-out-of-n
// bootstrap) and its deviation from the estimate, in log ratio, is scaled
// by the ratio of the estimate's standard errors at the full and the drawn
// sizes (√((1/na+1/nb)/(1/ma+1/mb)), √(m/n) for pairs); the tests check
// that this gives the interval of drawing every instance. 0 ns counts as
// 1 ns in a ratio. (The estimators are written here: gonum's stat package
// has means and quantiles but no Hodges–Lehmann estimator and no
// bootstrap, and forming all n·m pairs, as a textbook implementation does,
// costs too much past a few thousand instances.)
//
// Beside the verdict's statistic, every row reports the change of the mean
// instance (Row.AvgChange: mean(after)/mean(before) - 1, a percentile
// bootstrap of the means; past 20 000 instances a resampled mean is drawn
// from its normal approximation) and of the median instance (Row.MedChange:
// median(after)/median(before) - 1, a percentile bootstrap). Before, After
// and Delta are exact sums (per iteration under the iterations basis).
//
// First-call outliers: among the first tenth of a name's instances (at
// least the first), those longer than 10 times the name's median
// (Side.FirstCalls, Side.FirstShare). The summary names the rows where they
// hold a quarter of the time or more.
//
// The replicates' random numbers come from a PCG generator seeded with
// Options.Seed and the row's kind and name, so results are reproducible and
// do not depend on the order of the rows.
//
// # Verdict
//
// "faster" when the interval of the change lies below 0 and the change is
// at least Options.Threshold percent (default 2) in size; "slower" the same
// above 0; "no change" otherwise, and also when either profile has fewer
// than three units (instances, pairs or iterations) to resample, where an
// interval means nothing. A name present in only one profile is "new" or
// "vanished".
//
// Row.Share is a row's time over its group's (GPU work for kernels and
// memory operations, CUDA API calls for API functions, the analysed span for
// NVTX ranges), the larger of the two profiles'; Comparison.Failing lists
// the rows of given verdicts at or above Options.MinShare percent (default
// 1), what `nsysx compare --fail-on` exits 3 for.
//
// # Comparability
//
// When less than half of either profile's kernel time is in kernel names
// both profiles run, Comparison.Warnings says so, naming the profile and the
// shares (Comparison.SharedBefore, SharedAfter): the profiles may run
// different code, and their kernel rows and totals compare different work.
//
// Rows are ranked by their impact on the total GPU time (the change in total
// time as a share of the before profile's GPU time) for kernels and memory
// operations, then NVTX ranges and API functions by the size of their change.
// Summary rows come first in their groups. The console summary shortens
// names as the charts' labels are (internal/shortname); the table keeps
// them whole.
//
// Durations and totals are exact: a duration (end - start) or a name's total
// time past 64 bits fails the comparison with an *nsysx.OverflowError
// instead of wrapping to a negative average.
package compare
