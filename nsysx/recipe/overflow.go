package recipe

import (
	"fmt"

	"github.com/nsysx/nsysx/nsysx"
)

// Integer sums and durations are exact or fail the recipe, as stats'
// reports do (docs/recipes.md §1.7): a value past 64 bits panics with an
// *nsysx.OverflowError, which MapReport and Finish return as the
// recipe's error; nothing wraps to a plausible or negative number.

// overflowErr is the recipe's error for a recovered panic value x, when x
// is an *nsysx.OverflowError.
func overflowErr(r *Recipe, x any) (error, bool) {
	oe, ok := x.(*nsysx.OverflowError)
	if !ok {
		return nil, false
	}
	return fmt.Errorf("recipe %s: %w", r.Name, oe), true
}
