package events

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx/model"
)

// DefaultIterations matches NVTX ranges that mark iterations: "iteration 12",
// "iter_3", "step 7", "batch #2", or just "step".
const DefaultIterations = `(?i)^(iteration|iter|step|batch|train_step|training_step)([ _#:=-]*\d+)?$`

// Iteration is one iteration of a run: the window of an NVTX range that
// marks it, and the thread that opened it.
type Iteration struct {
	Start, End int64
	Thread     model.GlobalTid
}

// IterationFinder finds a run's iterations among its NVTX ranges: the
// ranges whose name the expression matches, grouped by the first
// submatch (the word: "step", "iteration"); the most numerous group wins
// when it has at least two ranges. compare and critpath find iterations
// with it, so that both see the same ones.
type IterationFinder struct {
	re    *regexp.Regexp
	cands map[string][]Iteration
}

// NewIterationFinder finds iterations named as re matches (its first
// submatch, when it has one, groups them).
func NewIterationFinder(re *regexp.Regexp) *IterationFinder {
	return &IterationFinder{re: re, cands: map[string][]Iteration{}}
}

// Add offers a range (its name as RangeName gives it) and reports whether
// it marks an iteration.
func (f *IterationFinder) Add(name string, start, end int64, thread model.GlobalTid) bool {
	m := f.re.FindStringSubmatch(name)
	if m == nil {
		return false
	}
	word := ""
	if len(m) > 1 {
		word = strings.ToLower(m[1])
	}
	f.cands[word] = append(f.cands[word], Iteration{Start: start, End: end, Thread: thread})
	return true
}

// Iterations are the iterations found, sorted by start: nested or
// overlapping ranges of the winning group are merged into the first.
// None when no group has two ranges.
func (f *IterationFinder) Iterations() []Iteration {
	var best []Iteration
	var bestName string
	for name, r := range f.cands {
		if len(r) > len(best) || len(r) == len(best) && name < bestName {
			best, bestName = r, name
		}
	}
	if len(best) < 2 {
		return nil
	}
	sort.SliceStable(best, func(i, j int) bool { return best[i].Start < best[j].Start })
	out := []Iteration{best[0]}
	for _, w := range best[1:] {
		if last := &out[len(out)-1]; w.Start < last.End {
			last.End = max(last.End, w.End)
			continue
		}
		out = append(out, w)
	}
	return out
}

// Iterations finds the iterations of p among its NVTX ranges (re nil:
// DefaultIterations).
func Iterations(ctx context.Context, p *model.Profile, re *regexp.Regexp) ([]Iteration, error) {
	if re == nil {
		re = regexp.MustCompile(DefaultIterations)
	}
	r, err := NVTXRanges(ctx, p, RangeOptions{})
	if err != nil {
		return nil, err
	}
	return r.Iterations(re), nil
}

// Iterations finds the iterations among r as IterationFinder does.
func (r *Ranges) Iterations(re *regexp.Regexp) []Iteration {
	f := NewIterationFinder(re)
	for _, x := range r.List {
		f.Add(r.Names[x.Name], x.Start, x.End, x.Thread)
	}
	return f.Iterations()
}
