// Package checked is 64-bit integer arithmetic that says when a result
// does not fit instead of wrapping: the sums and durations of stats'
// reports, recipes and compare either are exact or fail (a profile holds
// such values only when it is crafted or corrupt).
package checked

import "math/bits"

// Add is a+b; ok is false when the sum does not fit in int64.
func Add(a, b int64) (s int64, ok bool) {
	s = a + b
	return s, (s > a) == (b > 0)
}

// Sub is a-b (end - start); ok is false when the difference does not fit
// in int64.
func Sub(a, b int64) (d int64, ok bool) {
	d = a - b
	return d, (d < a) == (b > 0)
}

// AddUint is a+b of unsigned values; ok is false when the sum does not
// fit in uint64.
func AddUint(a, b uint64) (s uint64, ok bool) {
	s, carry := bits.Add64(a, b, 0)
	return s, carry == 0
}
