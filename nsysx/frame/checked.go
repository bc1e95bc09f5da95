package frame

import "github.com/nsysx/nsysx/internal/checked"

// OverflowError reports a sum or a duration that does not fit in 64 bits:
// the profile holds values no capture produces (crafted or corrupt). A
// report that panics with one returns it as its error.
type OverflowError struct{ What string }

func (e *OverflowError) Error() string {
	return "integer overflow: " + e.What + " does not fit in 64 bits (corrupt or crafted timestamps?)"
}

// AddInt is a+b, panicking with an *OverflowError when it wraps.
func AddInt(a, b int64) int64 {
	s, ok := checked.Add(a, b)
	if !ok {
		panic(&OverflowError{What: "a sum of durations or sizes"})
	}
	return s
}

// AddUint is a+b of uint64 values held in int64s, panicking with an
// *OverflowError when it wraps.
func addUint(a, b int64) int64 {
	s, ok := checked.AddUint(uint64(a), uint64(b))
	if !ok {
		panic(&OverflowError{What: "a sum of sizes"})
	}
	return int64(s)
}

// Elapsed is end-start, panicking with an *OverflowError when it
// wraps (a start of INT64_MIN).
func Elapsed(end, start int64) int64 {
	d, ok := checked.Sub(end, start)
	if !ok {
		panic(&OverflowError{What: "a duration (end - start)"})
	}
	return d
}
