// Package order holds the selection both the stats reports (medians) and
// the recipes (quartiles) use.
package order

import (
	"cmp"
	"slices"
)

// Nth reorders s so that s[k] holds the value a sort would put there and
// no value before it is larger (quickselect: linear time where a median used
// to sort every group); it returns s[k].
func Nth[T cmp.Ordered](s []T, k int) T {
	lo, hi := 0, len(s)-1
	for depth := 0; hi-lo > 16; depth++ {
		if depth > 64 { // adversarial input: sort what is left
			break
		}
		m := lo + (hi-lo)/2 // pivot: median of three
		if s[m] < s[lo] {
			s[m], s[lo] = s[lo], s[m]
		}
		if s[hi] < s[lo] {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[hi] < s[m] {
			s[hi], s[m] = s[m], s[hi]
		}
		p, i, j := s[m], lo, hi
		for i <= j { // Hoare: s[lo..j] <= p <= s[i..hi], s[j+1..i-1] == p
			for s[i] < p {
				i++
			}
			for s[j] > p {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i, j = i+1, j-1
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return s[k]
		}
	}
	slices.Sort(s[lo : hi+1])
	return s[k]
}
