package pyframe

import (
	"github.com/nsysx/nsysx/internal/checked"
	"github.com/nsysx/nsysx/nsysx"
)

// AddInt is a+b, panicking with an *nsysx.OverflowError when it wraps.
func AddInt(a, b int64) int64 {
	s, ok := checked.Add(a, b)
	if !ok {
		panic(&nsysx.OverflowError{What: "a sum of durations or sizes"})
	}
	return s
}

// AddUint is a+b of uint64 values held in int64s, panicking with an
// *nsysx.OverflowError when it wraps.
func addUint(a, b int64) int64 {
	s, ok := checked.AddUint(uint64(a), uint64(b))
	if !ok {
		panic(&nsysx.OverflowError{What: "a sum of sizes"})
	}
	return int64(s)
}

// Elapsed is end-start, panicking with an *nsysx.OverflowError when it
// wraps (a start of INT64_MIN).
func Elapsed(end, start int64) int64 {
	d, ok := checked.Sub(end, start)
	if !ok {
		panic(&nsysx.OverflowError{What: "a duration (end - start)"})
	}
	return d
}
