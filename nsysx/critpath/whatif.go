package critpath

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/internal/suggest"
)

// WhatIf is one change to predict: Target is "kernels", "memcpy", "host",
// "launch" or "sync"; Match (kernels, host) restricts it to kernels whose
// name, or host time whose enclosing NVTX range, it matches; Factor
// scales the durations (sync: Drop removes the host's waits instead).
type WhatIf struct {
	Spec   string
	Target string
	Match  *regexp.Regexp
	Factor float64
	Drop   bool
}

var targets = []string{"kernels", "memcpy", "host", "launch", "sync"}

const whatIfForms = "kernels[:REGEX]=FACTOR, memcpy=FACTOR, host[:REGEX]=FACTOR, launch=FACTOR or sync=drop"

// ParseWhatIf parses one --what-if spec: kernels[:REGEX]=FACTOR,
// memcpy=FACTOR, host[:REGEX]=FACTOR, launch=FACTOR or sync=drop.
func ParseWhatIf(spec string) (WhatIf, error) {
	w := WhatIf{Spec: spec}
	lhs, rhs, ok := strings.Cut(spec, "=")
	if !ok {
		return w, fmt.Errorf("what-if %q: no '=': want %s", spec, whatIfForms)
	}
	target, re, hasRe := strings.Cut(lhs, ":")
	w.Target = strings.TrimSpace(target)
	known := false
	for _, t := range targets {
		known = known || t == w.Target
	}
	if !known {
		return w, fmt.Errorf("what-if %q: unknown target %q%s; want %s", spec, w.Target, suggest.Suggest(w.Target, targets), whatIfForms)
	}
	if hasRe {
		if w.Target != "kernels" && w.Target != "host" {
			return w, fmt.Errorf("what-if %q: %s takes no :REGEX; want %s", spec, w.Target, whatIfForms)
		}
		m, err := regexp.Compile(re)
		if err != nil {
			return w, fmt.Errorf("what-if %q: bad regular expression: %v", spec, strings.ReplaceAll(err.Error(), "\n", " "))
		}
		w.Match = m
	}
	if w.Target == "sync" {
		if strings.TrimSpace(rhs) != "drop" {
			return w, fmt.Errorf("what-if %q: sync takes only \"drop\" (sync=drop)", spec)
		}
		w.Drop = true
		return w, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(rhs), 64)
	if err != nil || f < 0 || f != f || f > 1e6 {
		return w, fmt.Errorf("what-if %q: factor %q is not a number between 0 and 1e6", spec, rhs)
	}
	w.Factor = f
	return w, nil
}
