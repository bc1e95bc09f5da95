package events

import (
	"cmp"
	"context"
	"slices"

	"github.com/nsysx/nsysx/nsysx/model"
)

// NVTXRange is one closed NVTX range.
type NVTXRange struct {
	Start, End int64
	Name       string // the range's text (inline, or registered in StringIds)
	Thread     model.GlobalTid
}

// NamedRanges reads the NVTX push/pop and start/end ranges (event types 59
// and 60) that have an end and whose text keep accepts, sorted by start
// (stably). A profile without NVTX_EVENTS has none.
func NamedRanges(ctx context.Context, p *model.Profile, keep func(name string) bool) ([]NVTXRange, error) {
	if !p.HasTable(TableNVTXEvents) {
		return nil, nil
	}
	cols := []string{"start", "end", "eventType"}
	for _, c := range []string{"text", "textId", "globalTid"} {
		if p.HasColumn(TableNVTXEvents, c) {
			cols = append(cols, c)
		}
	}
	t, err := p.Load(ctx, TableNVTXEvents, cols...)
	if err != nil {
		return nil, err
	}
	st, en, typ := t.Col("start"), t.Col("end"), t.Col("eventType")
	text, textID, gt := t.Col("text"), t.Col("textId"), t.Col("globalTid")
	var strs map[int64]string
	if textID != nil {
		if strs, err = p.Strings(ctx); err != nil {
			return nil, err
		}
	}
	var out []NVTXRange
	for i := 0; i < t.N; i++ {
		if ty := typ.Int(i); (ty != nvtxPushPop && ty != nvtxStartEnd) || st.IsNull(i) || en.IsNull(i) {
			continue
		}
		var name string
		switch {
		case text != nil && !text.IsNull(i):
			name = text.Str(i)
		case textID != nil && !textID.IsNull(i):
			name = strs[textID.Int(i)]
		}
		if !keep(name) {
			continue
		}
		r := NVTXRange{Start: st.Int(i), End: en.Int(i), Name: name}
		if gt != nil && !gt.IsNull(i) {
			r.Thread = model.GlobalTid(gt.Int(i))
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b NVTXRange) int { return cmp.Compare(a.Start, b.Start) })
	return out, nil
}
