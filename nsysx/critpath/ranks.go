package critpath

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/compare"
)

// The critical path across ranks: the reports of one job (one per rank),
// their clocks aligned, each NCCL collective matched across ranks, and per
// iteration the straggler, the time each rank lost waiting for the others
// and the step time had the straggler kept the median rank's pace.
// docs/critical-path-ranks.md gives the method and its limits.

// RanksOptions tune Ranks.
type RanksOptions struct {
	// Iterations is the regular expression of the NVTX ranges that mark
	// iterations; "" is compare.DefaultIterations.
	Iterations string
	// Threshold is the least share of the step (a fraction; 0 is
	// DefaultThreshold) by which the rank that waited least must have
	// waited less than every other rank to be named the straggler.
	Threshold float64
	// MinGap is the least such difference in ns, whatever the step (0 is
	// DefaultMinGap): below it clock error and jitter decide.
	MinGap int64
}

// Defaults of RanksOptions.
const (
	DefaultThreshold = 0.02
	DefaultMinGap    = 200_000
)

// RanksResult is the analysis of the reports of one job.
type RanksResult struct {
	Files []string // each rank's report name, rank 0 first (the recipes' order: by file stem)
	// Offsets is what was added to each rank's timestamps to put them on
	// one clock: its session start (UTC) minus the earliest one.
	Offsets []int64
	// Skew is, per rank, the median difference between the end of its
	// collectives and the same collectives' end on rank 0, after the
	// alignment: near 0 when the clocks agree.
	Skew []int64
	// Collectives is how many collectives were matched across the ranks;
	// Outside how many of them fall in no iteration.
	Collectives, Outside int
	Iterations           []RankIteration
	Options              RanksOptions
	Warnings             []string
}

// RankIteration is one iteration of the job (or the whole capture).
type RankIteration struct {
	Name        string
	Collectives int
	// Straggler is the rank that waited least, -1 when no rank waited
	// less than every other by more than the threshold.
	Straggler int
	// Lost is, per rank, the time it waited in the iteration's
	// collectives: for each collective, the last rank's arrival minus
	// its own arrival (the collective's kernel start).
	Lost []int64
	// Idle is the part of Lost during which the rank's GPU ran nothing
	// else: the time the waiting cost it.
	Idle []int64
	// Observed is the step time: the median over ranks of the time from
	// the first GPU operation launched in the iteration to the first one
	// launched in the next (to the last one's end for the last iteration).
	Observed int64
	// Predicted is the step time with the straggler at the median rank's
	// pace: Observed less the idle waiting of the rank that would then
	// be the last to arrive.
	Predicted int64
}

// Ranks analyses the reports of one job, one per rank. Every report must
// hold the same NCCL collectives (the same communicators).
func Ranks(ctx context.Context, profs []*nsysx.Profile, o RanksOptions) (*RanksResult, error) {
	if len(profs) < 2 {
		return nil, fmt.Errorf("critical path across ranks: give the reports of at least two ranks (got %d)", len(profs))
	}
	if o.Threshold < 0 || o.Threshold >= 1 || o.MinGap < 0 {
		return nil, fmt.Errorf("critical path across ranks: threshold %g and minimum gap %d: want 0 <= threshold < 1 and gap >= 0", o.Threshold, o.MinGap)
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
	}
	if o.MinGap == 0 {
		o.MinGap = DefaultMinGap
	}
	if o.Iterations == "" {
		o.Iterations = compare.DefaultIterations
	}
	re, err := regexp.Compile(o.Iterations)
	if err != nil {
		return nil, fmt.Errorf("--iterations %q: %w", o.Iterations, err)
	}
	profs = slices.Clone(profs)
	slices.SortStableFunc(profs, func(a, b *nsysx.Profile) int { return cmp.Compare(stem(a.Path), stem(b.Path)) })
	res := &RanksResult{Options: o}
	ranks := make([]*rankData, len(profs))
	for i, p := range profs {
		if ranks[i], err = readRank(ctx, p, re.MatchString); err != nil {
			return nil, err
		}
		res.Files = append(res.Files, filepath.Base(p.Path))
	}
	res.Offsets = align(ranks)
	cols, warns, err := matchCollectives(ranks, res.Files)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, warns...)
	res.Collectives = len(cols)
	res.Skew = skew(cols, len(ranks))
	for r, s := range res.Skew {
		if s > clockWarn || s < -clockWarn {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: its collectives end %d ns from rank 0's after aligning the session starts: the clocks disagree (reports of different hosts?), waits shorter than that mean nothing", res.Files[r], s))
		}
	}
	res.Iterations, res.Outside = perIteration(ranks, cols, o)
	return res, nil
}

// clockWarn is the median skew of collective ends (ns) above which Ranks
// warns that the clocks disagree.
const clockWarn = 100_000

// stem is a path's base name without its last extension (and without .gz
// or .zst before it): what the recipes order ranks by.
func stem(path string) string {
	b := filepath.Base(path)
	for _, z := range []string{".gz", ".zst"} {
		b = strings.TrimSuffix(b, z)
	}
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// align puts every rank on the clock of the earliest session start, as
// nsys's recipes do, and returns the offsets it added.
func align(ranks []*rankData) []int64 {
	first := ranks[0].session.UTC
	for _, r := range ranks {
		first = min(first, r.session.UTC)
	}
	out := make([]int64, len(ranks))
	for i, r := range ranks {
		out[i] = r.session.UTC - first
		r.shift(out[i])
	}
	return out
}

// ErrNoCollectives is returned (wrapped) when the reports hold no NCCL
// kernel to match.
var ErrNoCollectives = errors.New("no NCCL kernels")

// Result is the analysis as a report result: one row per iteration and
// rank.
func (r *RanksResult) Result() *nsysx.Result {
	res := nsysx.NewResult("critical_path_ranks", r.Title(), "Iteration", "Rank", "File", "Collectives", "Straggler",
		"Lost:dur_ns", "Idle Lost:dur_ns", "Observed:dur_ns", "Predicted:dur_ns")
	for _, it := range r.Iterations {
		s := "none"
		if it.Straggler >= 0 {
			s = strconv.Itoa(it.Straggler)
		}
		for k := range r.Files {
			res.Add(nsysx.TextV(it.Name), nsysx.IntV(int64(k)), nsysx.TextV(r.Files[k]), nsysx.IntV(int64(it.Collectives)),
				nsysx.TextV(s), nsysx.IntV(it.Lost[k]), nsysx.IntV(it.Idle[k]), nsysx.IntV(it.Observed), nsysx.IntV(it.Predicted))
		}
	}
	return res
}

// Title describes the analysis in one line.
func (r *RanksResult) Title() string {
	return fmt.Sprintf("Critical path across %d ranks: %d NCCL collectives matched, %d iterations; straggler: the rank that waited least, by at least %g%% of the step and %d ns",
		len(r.Files), r.Collectives, len(r.Iterations), r.Options.Threshold*100, r.Options.MinGap)
}
