package analyze

import (
	"fmt"
	"math"
)

// ruleIntRanges are the accepted values of the integer options that the
// rules gpu_gaps and gpu_time_util share with their recipes: `analyze -r
// RULE:NAME=V` and `recipe RULE --NAME V` accept exactly the same values
// (nsys's analyze took chunks=0, a negative gap, any threshold, while its
// recipes refused them).
var ruleIntRanges = map[string][2]int64{
	"chunks":    {1, 1000},
	"threshold": {0, math.MaxInt32}, // percent; use adds up over concurrent ops and may pass 100
	"gap":       {0, math.MaxInt32}, // milliseconds: 24 days
}

// RuleOptionRange returns the accepted range of the integer rule option
// name (chunks, threshold, gap), shared by the rules and their recipes;
// ok is false for another name.
func RuleOptionRange(name string) (lo, hi int64, ok bool) {
	r, ok := ruleIntRanges[name]
	return r[0], r[1], ok
}

// checkRuleRange refuses a value of option name outside its
// RuleOptionRange, as nsys's argparse words it.
func checkRuleRange(name string, v int64) error {
	lo, hi, ok := RuleOptionRange(name)
	if ok && (v < lo || v > hi) {
		return fmt.Errorf("%w: argument --%s: value must be between %d and %d", ErrBadOption, name, lo, hi)
	}
	return nil
}
