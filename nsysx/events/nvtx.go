package events

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx/model"
)

// NVTX event types of the ranges (push/pop and start/end).
const (
	nvtxPushPop  = 59
	nvtxStartEnd = 60
)

// Range is one closed NVTX range (push/pop or start/end) of a thread. Name
// indexes Ranges.Names.
type Range struct {
	Start, End int64
	Thread     model.GlobalTid
	Name       int32
}

// Ranges are a profile's NVTX ranges, their names interned (one string
// per distinct name, not per range).
type Ranges struct {
	List  []Range
	Names []string
}

// RangeOptions say how NVTXRanges reads the ranges; the zero value is the
// ranges in table order, named as an operator's ranges add up.
type RangeOptions struct {
	// Full keeps a range's name whole: its text (or registered string).
	// By default PyTorch's per-call suffixes are dropped (RangeName).
	Full bool
	// Keep, when set, keeps only the ranges whose name it accepts.
	Keep func(name string) bool
	// ByStart sorts the ranges by start (stably) instead of table order.
	ByStart bool
}

// NVTXRanges reads the closed NVTX ranges (push/pop and start/end, event
// types 59 and 60, with a start and an end) of p as o says; a range's name
// is its text, else the StringIds string of its textId ("" for none). A
// profile without NVTX has none.
func NVTXRanges(ctx context.Context, p *model.Profile, o RangeOptions) (*Ranges, error) {
	out := &Ranges{}
	ids := map[string]int32{}
	cols := []string{"start", "end", "eventType", "globalTid", "text", "textId"}
	err := eachRow(ctx, p, TableNVTXEvents, cols, func(f *model.Fields) error {
		if typ := intOr(f, 2, 0); (typ != nvtxPushPop && typ != nvtxStartEnd) || isNull(f, 0) || isNull(f, 1) {
			return nil
		}
		var name string
		if f.Text&(1<<4) != 0 {
			name = string(f.B[4])
		} else if !isNull(f, 5) {
			name, _ = p.String(ctx, f.I[5])
		}
		if !o.Full {
			name = RangeName(name)
		}
		if o.Keep != nil && !o.Keep(name) {
			return nil
		}
		id, ok := ids[name]
		if !ok {
			id = int32(len(out.Names))
			ids[name] = id
			out.Names = append(out.Names, name)
		}
		out.List = append(out.List, Range{Start: f.I[0], End: f.I[1], Thread: model.GlobalTid(intOr(f, 3, 0)), Name: id})
		return nil
	})
	if o.ByStart {
		slices.SortStableFunc(out.List, func(a, b Range) int { return cmp.Compare(a.Start, b.Start) })
	}
	return out, err
}

// RangeName drops PyTorch's per-call suffixes from an NVTX range's name,
// so that an operator's ranges add up.
func RangeName(s string) string {
	for _, k := range []string{", op_id = ", ", seq = ", ", sizes = "} {
		if i := strings.Index(s, k); i > 0 {
			s = s[:i]
		}
	}
	return s
}
