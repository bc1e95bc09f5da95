package recipe

import (
	"fmt"

	"github.com/nsysx/nsysx/internal/checked"
	"github.com/nsysx/nsysx/nsysx"
)

// Integer sums and durations are exact or fail the recipe, as stats'
// reports do (docs/recipes.md §1.7): a value past 64 bits panics with an
// *nsysx.OverflowError, which MapReport and Finish return as the
// recipe's error; nothing wraps to a plausible or negative number.

// addInt is a+b, panicking with an *nsysx.OverflowError when it wraps.
func addInt(a, b int64) int64 {
	s, ok := checked.Add(a, b)
	if !ok {
		panic(&nsysx.OverflowError{What: "a sum of durations or sizes"})
	}
	return s
}

// addUint is a+b of uint64 values held in int64s, panicking with an
// *nsysx.OverflowError when it wraps.
func addUint(a, b int64) int64 {
	s, ok := checked.AddUint(uint64(a), uint64(b))
	if !ok {
		panic(&nsysx.OverflowError{What: "a sum of sizes"})
	}
	return int64(s)
}

// span is end-start, panicking with an *nsysx.OverflowError when it
// wraps (a start of INT64_MIN).
func span(end, start int64) int64 {
	d, ok := checked.Sub(end, start)
	if !ok {
		panic(&nsysx.OverflowError{What: "a duration (end - start)"})
	}
	return d
}

// overflowErr is the recipe's error for a recovered panic value x, when x
// is an *nsysx.OverflowError.
func overflowErr(r *Recipe, x any) (error, bool) {
	oe, ok := x.(*nsysx.OverflowError)
	if !ok {
		return nil, false
	}
	return fmt.Errorf("recipe %s: %w", r.Name, oe), true
}
