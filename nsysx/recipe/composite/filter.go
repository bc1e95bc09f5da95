package composite

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// Span is a frame's time columns as the frame filter reads them: start and
// end per row (gpu_start/gpu_end for the projection recipes), with NULL
// masks.
type Span struct {
	Start, End           []int64
	StartValid, EndValid pyframe.Mask
}

// Len is the number of rows.
func (s Span) Len() int { return len(s.Start) }

// ErrFilter marks a report whose --filter-nvtx or --filter-projected-nvtx
// range cannot be found: nsys's mapper logs the error and yields nothing for
// that report, so Run records it in Result.Failed and skips it.
var ErrFilter = errors.New("filter")

// FilterError is a filter failure with nsys's message.
type FilterError struct{ Msg string }

func (e *FilterError) Error() string        { return e.Msg }
func (e *FilterError) Is(target error) bool { return target == ErrFilter }

// ProjectNVTX projects the chosen NVTX rows (indexes into nv) onto the GPU
// with the CUDA_COMBINED composite (docs/recipes.md §1.4 step 2, §1.10) and
// returns the projected ranges. The projection code sets it at init; while
// it is nil, --filter-projected-nvtx is refused.
var ProjectNVTX func(ctx context.Context, p *nsysx.Profile, nv *NVTX, rows []int) (start, end []int64, err error)

// FilterRows is nsys's filter_and_adjust_time without the offset
// (docs/recipes.md §1.4): the rows of a frame with time columns s that
// survive --filter-nvtx or --filter-projected-nvtx (chain overlap with the
// chosen ranges) and then the time window (Options.Window; always applied:
// rows with a NULL or negative start, or a NULL end, are dropped). nv is
// the report's NVTX composite when the caller has it, or nil (it is loaded
// when a filter needs it). The kept rows are returned ascending; each recipe
// applies them to its own columns, and adds a session offset afterwards.
func FilterRows(ctx context.Context, p *nsysx.Profile, o *recipe.Options, s Span, nv *NVTX) ([]int, error) {
	keep := pyframe.Seq(s.Len())
	r, projected := o.FilterNVTX, false
	if r == nil && o.FilterProjectedNVTX != nil {
		r, projected = o.FilterProjectedNVTX, true
	}
	if r != nil {
		if nv == nil {
			var err error
			if nv, err = LoadNVTX(ctx, p); err != nil {
				return nil, err
			}
		}
		chosen, err := ChooseNVTX(nv, r)
		if err != nil {
			return nil, err
		}
		var rs, re []int64
		for _, i := range chosen {
			if nv.EndValid.Valid(i) {
				rs, re = append(rs, nv.Start[i]), append(re, nv.End[i])
			}
		}
		if projected {
			if ProjectNVTX == nil {
				return nil, &FilterError{Msg: "--filter-projected-nvtx is not available in this build."}
			}
			if rs, re, err = ProjectNVTX(ctx, p, nv, chosen); err != nil {
				return nil, err
			}
		}
		if !projected || len(rs) > 0 {
			keep = ChainOverlap(s, keep, rs, re)
		}
	}
	start, end := o.Window()
	return Window(s, keep, start, end), nil
}

// ChooseNVTX returns the NVTX composite rows an R[@D][/i] argument selects
// (docs/recipes.md §1.4 step 1): text equal to R; without @D, domain 0
// Push/pop or start/end ranges; with @*, every matching row; with @D, the
// Push/pop or start/end ranges of the first domain created with text D.
// /i keeps the i-th match (0-based, table order).
func ChooseNVTX(nv *NVTX, r *recipe.NVTXRange) ([]int, error) {
	var dom int64
	anyDomain := r.Domain != nil && *r.Domain == "*"
	if r.Domain != nil && !anyDomain {
		id, ok := nv.domainID(*r.Domain, false)
		if !ok {
			return nil, &FilterError{Msg: fmt.Sprintf("Domain '%s' not found.", *r.Domain)}
		}
		dom = id
	}
	var out []int
	for i := 0; i < nv.Len(); i++ {
		if !nv.TextValid.Valid(i) || nv.Text[i] != r.Range {
			continue
		}
		ty := nv.EventType[i]
		if !anyDomain && (ty != NVTXPushPop && ty != NVTXStartEnd || !nv.DomainIDValid.Valid(i) || nv.DomainID[i] != dom) {
			continue
		}
		out = append(out, i)
	}
	if len(out) == 0 {
		return nil, &FilterError{Msg: fmt.Sprintf("Range '%s' not found.", r.Range)}
	}
	if r.Index != nil {
		i := *r.Index
		if i < 0 || i >= len(out) {
			return nil, &FilterError{Msg: fmt.Sprintf("Index %d of range '%s' is out of bounds (%d matches).", i, r.Range, len(out))}
		}
		out = out[i : i+1]
	}
	return out, nil
}

// ChainOverlap keeps the rows (of s, from rows) that share an interval
// group with at least one range [rs[k], re[k]]: all rows and ranges are
// sorted by start together, a group begins where a start exceeds the running
// maximum of the ends before it, so rows touching a chain connected to a
// range are kept too (docs/recipes.md §1.4, §1.10). Rows with a NULL time
// are left out. The result keeps the order of rows.
func ChainOverlap(s Span, rows []int, rs, re []int64) []int {
	type item struct {
		start, end int64
		row        int // -1 for a range
	}
	items := make([]item, 0, len(rows)+len(rs))
	for _, i := range rows {
		if s.StartValid.Valid(i) && s.EndValid.Valid(i) {
			items = append(items, item{s.Start[i], s.End[i], i})
		}
	}
	for k := range rs {
		items = append(items, item{rs[k], re[k], -1})
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].start < items[b].start })
	group := make([]int, len(items))
	var hit []bool
	g := -1
	var runMax int64
	for k, it := range items {
		if k == 0 || it.start > runMax {
			g++
			hit = append(hit, false)
			runMax = it.end
		} else if it.end > runMax {
			runMax = it.end
		}
		group[k] = g
		if it.row < 0 {
			hit[g] = true
		}
	}
	var out []int
	for k, it := range items {
		if it.row >= 0 && hit[group[k]] {
			out = append(out, it.row)
		}
	}
	sort.Ints(out)
	return out
}

// Window keeps the rows with start ≤ end bound (when set), end ≥ start
// and start ≥ 0 (docs/recipes.md §1.4 step 3); NULL times fail every
// comparison, so those rows are dropped. Rows are kept whole, not clipped.
func Window(s Span, rows []int, start int64, end *int64) []int {
	out := make([]int, 0, len(rows))
	for _, i := range rows {
		if !s.StartValid.Valid(i) || !s.EndValid.Valid(i) {
			continue
		}
		st, en := s.Start[i], s.End[i]
		if st < 0 || en < start || end != nil && st > *end {
			continue
		}
		out = append(out, i)
	}
	return out
}
