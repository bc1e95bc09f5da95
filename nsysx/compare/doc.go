// Package compare tells whether a change between two Nsight Systems profiles
// (before and after) is real or noise: per kernel, per memcpy/memset kind,
// per NVTX range and per CUDA API function, the change in total and in
// per-instance time, each with a bootstrap confidence interval, and a
// verdict.
//
// # Method
//
// Every instance (a kernel run, an NVTX range, an API call) is read from the
// raw tables, under the profiles' filters. Two statistics are compared per
// name:
//
//   - Per instance: the mean duration. Its relative change, mean(after) /
//     mean(before) - 1, gets a percentile bootstrap interval: each of
//     Options.Resamples replicates draws every profile's instances with
//     replacement (as many as it has) and takes the ratio of the resampled
//     means. Past 20 000 instances a resampled mean is drawn from its normal
//     approximation (mean, sd/√n) instead, which the central limit theorem
//     makes indistinguishable at that size and keeps the cost bounded.
//   - The total. When both profiles have at least two NVTX iterations (ranges
//     named like "iteration N", "step N", ...; Options.Iterations), the unit
//     of resampling is the iteration: each instance is counted in the
//     iteration its start falls in (GPU work at the start of the API call that
//     launched it, so that work running late is still counted in the iteration
//     that issued it), the statistic is the mean time per iteration, and the
//     bootstrap resamples iterations, so iteration-to-iteration variation
//     (warm-up, a slow step) widens the interval as it should and two runs of
//     different lengths compare fairly. Without iterations the statistic is
//     the total itself, resampled over instances with the instance counts
//     held fixed.
//
// The replicates' random numbers come from a PCG generator seeded with
// Options.Seed and the row's kind and name, so results are reproducible and
// do not depend on the order of the rows.
//
// # Verdict
//
// "faster" when the interval of the total's relative change lies below 0
// and the change is at least Options.Threshold percent (default 2) in size;
// "slower" the same above 0; "no change" otherwise, and also when either
// profile has fewer than three units (instances or iterations) to resample,
// where an interval means nothing. A name present in only one profile is
// "new" or "vanished".
//
// Rows are ranked by their impact on the total GPU time (the change in total
// time as a share of the before profile's GPU time) for kernels and memory
// operations, then NVTX ranges and API functions by the size of their change.
// Summary rows ([all kernels], [all GPU work], [all CUDA API calls]) come
// first in their groups.
//
// Durations and totals are exact: a duration (end - start) or a name's total
// time past 64 bits fails the comparison with an *nsysx.OverflowError
// instead of wrapping to a negative average.
package compare
