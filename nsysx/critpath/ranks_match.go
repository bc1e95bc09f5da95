package critpath

import (
	"fmt"
	"slices"
)

// collective is one collective matched across the ranks: its kernel on
// each rank.
type collective struct {
	k []ncclKernel
}

// maxShift bounds the search for the best pairing of two ranks' lanes
// that hold different numbers of collectives (captures that started or
// stopped at different points).
const maxShift = 64

// matchCollectives pairs the ranks' NCCL kernels: lane j of every rank
// (lanes in the order of their first kernel) with lane j of rank 0, and
// the kernels of a lane pair by order; where a rank's lane holds more or
// fewer kernels than rank 0's, the pairing is shifted by the count of
// kernels (at most the difference) that brings the kernels' ends closest
// (the ends of one collective are close on every rank).
func matchCollectives(ranks []*rankData, files []string) ([]collective, []string, error) {
	var warns []string
	nl := len(ranks[0].lanes)
	for i, r := range ranks {
		if len(r.lanes) == 0 {
			return nil, nil, fmt.Errorf("%s: %w (no kernel named nccl...): no collective to match across the ranks", files[i], ErrNoCollectives)
		}
		if len(r.lanes) != nl {
			warns = append(warns, fmt.Sprintf("%s has %d NCCL streams, %s %d: the first %d of each (by first collective) are paired",
				files[i], len(r.lanes), files[0], nl, min(nl, len(r.lanes))))
			nl = min(nl, len(r.lanes))
		}
	}
	var out []collective
	mismatched := 0
	for j := range nl {
		base := ranks[0].lanes[j]
		shifts := make([]int, len(ranks))
		lo, hi := 0, len(base)
		for i, r := range ranks[1:] {
			l := r.lanes[j]
			if len(l) != len(base) {
				warns = append(warns, fmt.Sprintf("NCCL stream %d: %s ran %d collectives, %s %d: paired where they overlap", j, files[i+1], len(l), files[0], len(base)))
			}
			s := bestShift(base, l)
			shifts[i+1] = s
			lo, hi = max(lo, -s), min(hi, len(l)-s)
		}
		for k := lo; k < hi; k++ {
			c := collective{k: make([]ncclKernel, len(ranks))}
			for i, r := range ranks {
				c.k[i] = r.lanes[j][k+shifts[i]]
				if c.k[i].name != base[k].name {
					mismatched++
				}
			}
			out = append(out, c)
		}
	}
	if mismatched > 0 {
		warns = append(warns, fmt.Sprintf("%d paired kernels differ in name from rank 0's: the reports may not hold the same collectives", mismatched))
	}
	return out, warns, nil
}

// bestShift is the s (|s| <= the difference in length, and maxShift) for
// which kernel k of a pairs with kernel k+s of b with the fewest name
// mismatches and then the smallest median distance of their ends.
func bestShift(a, b []ncclKernel) int {
	d := min(maxShift, abs(len(a)-len(b)))
	best, bestMis, bestDist := 0, -1, int64(0)
	for s := -d; s <= d; s++ {
		var dist []int64
		mis := 0
		for k := max(0, -s); k < len(a) && k+s < len(b); k++ {
			dist = append(dist, abs64(a[k].end-b[k+s].end))
			if a[k].name != b[k+s].name {
				mis++
			}
		}
		if len(dist) == 0 {
			continue
		}
		md := median(dist)
		if bestMis < 0 || mis < bestMis || mis == bestMis && md < bestDist {
			best, bestMis, bestDist = s, mis, md
		}
	}
	return best
}

// skew is, per rank, the median of its collectives' end minus rank 0's.
func skew(cols []collective, n int) []int64 {
	out := make([]int64, n)
	for r := 1; r < n; r++ {
		d := make([]int64, len(cols))
		for i, c := range cols {
			d[i] = c.k[r].end - c.k[0].end
		}
		out[r] = median(d)
	}
	return out
}

// median of v (reordered): the mean of the two middle values for an even
// count; 0 for none.
func median(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return v[n/2-1] + (v[n/2]-v[n/2-1])/2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
