package composite

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/nsysx/report"
)

// NVTX event types (ENUM_NSYS_EVENT_TYPE) the recipes distinguish.
const (
	NVTXPushPop      = 59 // NvtxPushPopRange
	NVTXStartEnd     = 60 // NvtxStartEndRange
	NVTXDomainCreate = 75 // NvtxDomainCreate
)

// NVTX is the NVTX composite of docs/recipes.md §1.9: NVTX_EVENTS rows in
// table order, with text = StringIds(textId) where that resolves, else the
// inline text. Row is each row's position in NVTX_EVENTS (its pandas label).
type NVTX struct {
	Start               []int64
	End                 []int64
	EndValid            pyframe.Mask
	Text                []string
	TextValid           pyframe.Mask
	GlobalTid, PID, TID []int64
	GlobalTidValid      pyframe.Mask
	EndGlobalTid        []int64
	EndGlobalTidValid   pyframe.Mask
	DomainID            []int64
	DomainIDValid       pyframe.Mask
	EventType           []int64
	Row                 []int
	// EndFloat is set when NVTX_EVENTS.end has any NULL (domain-create
	// rows, marks): pandas then holds end, and every duration computed
	// from it, as float64 (docs/recipes.md §1.2).
	EndFloat bool
	// RawText is the inline text column, before StringIds resolution.
	RawText      []string
	RawTextValid pyframe.Mask
}

// Len is the number of rows.
func (n *NVTX) Len() int { return len(n.Start) }

// LoadNVTX reads the NVTX composite; a report without NVTX_EVENTS gives an
// empty one.
func LoadNVTX(ctx context.Context, p *nsysx.Profile) (*NVTX, error) {
	t, err := LoadTable(ctx, p, events.TableNVTXEvents,
		[]string{"start", "end", "eventType"},
		[]string{"text", "textId", "globalTid", "endGlobalTid", "domainId"})
	if err != nil {
		return nil, err
	}
	n := &NVTX{Row: pyframe.Seq(rows(t))}
	n.Start, _ = Ints(t, "start")
	n.End, n.EndValid = Ints(t, "end")
	n.EndFloat = n.EndValid != nil
	n.EventType, _ = Ints(t, "eventType")
	n.GlobalTid, n.GlobalTidValid = Ints(t, "globalTid")
	n.PID, n.TID = Derive(n.GlobalTid, PidOf), Derive(n.GlobalTid, TidOf)
	n.EndGlobalTid, n.EndGlobalTidValid = Ints(t, "endGlobalTid")
	n.DomainID, n.DomainIDValid = Ints(t, "domainId")
	n.RawText, n.RawTextValid = TextCol(t, "text")
	if err := p.StringsErr(ctx); err != nil {
		return nil, err
	}
	n.Text, n.TextValid = ResolveText(ctx, p, t, n.RawText, n.RawTextValid)
	return n, nil
}

// TextCol returns a TEXT column and its NULL mask; a column the table lacks
// is all NULL.
func TextCol(t *nsysx.Table, name string) ([]string, pyframe.Mask) {
	n := rows(t)
	c := t.Col(name)
	if c == nil {
		return make([]string, n), make(pyframe.Mask, n)
	}
	if c.Type == nsysx.Text && c.Len() == n {
		if m, ok := nullMaskEmpty(c, n); ok {
			return c.Strs, m // the loaded strings themselves, not a copy
		}
	}
	out := make([]string, n)
	var m pyframe.Mask
	for i := range out {
		if c.IsNull(i) {
			m = pyframe.SetNull(m, n, i)
			continue
		}
		out[i] = c.Str(i)
	}
	return out, m
}

// nullMaskEmpty is a text column's NULL mask; ok is false when some NULL
// row holds a string other than "" (then the strings cannot be used as
// they are).
func nullMaskEmpty(c *nsysx.Column, n int) (m pyframe.Mask, ok bool) {
	if !c.HasNulls() {
		return nil, true
	}
	for i := 0; i < n; i++ {
		if c.IsNull(i) {
			if c.Strs[i] != "" {
				return nil, false
			}
			m = pyframe.SetNull(m, n, i)
		}
	}
	return m, true
}

// ResolveText is StringIds(textId) where that resolves, else the inline
// text.
func ResolveText(ctx context.Context, p *nsysx.Profile, t *nsysx.Table, raw []string, rawValid pyframe.Mask) ([]string, pyframe.Mask) {
	ids, idValid := Ints(t, "textId")
	out := make([]string, len(raw))
	var m pyframe.Mask
	for i := range raw {
		if idValid.Valid(i) {
			if s, ok := p.String(ctx, ids[i]); ok {
				out[i] = s
				continue
			}
		}
		if !rawValid.Valid(i) {
			m = pyframe.SetNull(m, len(raw), i)
			continue
		}
		out[i] = raw[i]
	}
	return out, m
}

// Subset returns the composite restricted to rows (in the given order);
// Row keeps the original labels and EndFloat the table's dtype.
func (n *NVTX) Subset(rows []int) *NVTX {
	return &NVTX{
		Start:             pyframe.Pick(n.Start, rows),
		End:               pyframe.Pick(n.End, rows),
		EndValid:          n.EndValid.Pick(rows),
		Text:              pyframe.Pick(n.Text, rows),
		TextValid:         n.TextValid.Pick(rows),
		GlobalTid:         pyframe.Pick(n.GlobalTid, rows),
		PID:               pyframe.Pick(n.PID, rows),
		TID:               pyframe.Pick(n.TID, rows),
		GlobalTidValid:    n.GlobalTidValid.Pick(rows),
		EndGlobalTid:      pyframe.Pick(n.EndGlobalTid, rows),
		EndGlobalTidValid: n.EndGlobalTidValid.Pick(rows),
		DomainID:          pyframe.Pick(n.DomainID, rows),
		DomainIDValid:     n.DomainIDValid.Pick(rows),
		EventType:         pyframe.Pick(n.EventType, rows),
		Row:               pyframe.Pick(n.Row, rows),
		EndFloat:          n.EndFloat,
		RawText:           pyframe.Pick(n.RawText, rows),
		RawTextValid:      n.RawTextValid.Pick(rows),
	}
}

// Span returns the composite's time columns for the frame filter.
func (n *NVTX) Span() Span { return Span{Start: n.Start, End: n.End, EndValid: n.EndValid} }

// domainID returns the domainId of the first domain-create row whose text
// is name; raw selects the inline text instead of the resolved one.
func (n *NVTX) domainID(name string, raw bool) (int64, bool) {
	text, valid := n.Text, n.TextValid
	if raw {
		text, valid = n.RawText, n.RawTextValid
	}
	for i := range n.Start {
		if n.EventType[i] == NVTXDomainCreate && valid.Valid(i) && text[i] == name && n.DomainIDValid.Valid(i) {
			return n.DomainID[i], true
		}
	}
	return 0, false
}

// NCCL is the NCCL composite (docs/recipes.md §1.9): the push/pop and
// start/end rows of the domain created by the first domain-create row
// whose raw text is exactly "NCCL". A report without that domain gives an
// empty composite.
func NCCL(n *NVTX) *NVTX {
	id, ok := n.domainID("NCCL", true)
	var keep []int
	if ok {
		for i := range n.Start {
			ty := n.EventType[i]
			if (ty == NVTXPushPop || ty == NVTXStartEnd) && n.DomainIDValid.Valid(i) && n.DomainID[i] == id {
				keep = append(keep, i)
			}
		}
	}
	return n.Subset(keep)
}

// LoadNCCL reads the NCCL composite.
func LoadNCCL(ctx context.Context, p *nsysx.Profile) (*NVTX, error) {
	nccl, _, err := LoadNCCLAll(ctx, p)
	return nccl, err
}

// LoadNCCLAll reads the NCCL composite and, when the report has an NCCL
// domain, the NVTX composite it was taken from (for --filter-nvtx). A
// report without that domain gives an empty NCCL composite and a nil NVTX
// one, found by a scan of NVTX_EVENTS that keeps nothing but the
// domain-create rows' texts: the NVTX composite of a big capture without
// NCCL (a PyTorch one: a million ranges) is never loaded (docs/performance.md,
// "NCCL and MPI: no load without their data").
func LoadNCCLAll(ctx context.Context, p *nsysx.Profile) (nccl, all *NVTX, err error) {
	return loadNCCLAll(ctx, p, nil)
}

// NCCLMapCost is the memory of a map that loads the NVTX composite (the
// NCCL maps with an NCCL domain, and its projection), in bytes a byte of
// SQLite export: Recipe.MapCost's unit.
const NCCLMapCost = 3

// LoadNCCLFor is LoadNCCLAll for a recipe's map of r: the map's share of
// the in-flight budget grows to NCCLMapCost (Report.Grow) before the NVTX
// composite is loaded, so that the recipes can count the scan alone in
// their MapCost and run as many maps at once as cores where no report has
// an NCCL domain.
func LoadNCCLFor(ctx context.Context, r *recipe.Report) (nccl, all *NVTX, err error) {
	return loadNCCLAll(ctx, r.Profile, func() { r.Grow(NCCLMapCost) })
}

func loadNCCLAll(ctx context.Context, p *nsysx.Profile, grow func()) (nccl, all *NVTX, err error) {
	if _, ok, err := findDomain(ctx, p, "NCCL"); err != nil || !ok {
		return &NVTX{}, nil, err
	}
	if grow != nil {
		grow()
	}
	all, err = LoadNVTX(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	return NCCL(all), all, nil
}

// findDomain returns the domainId of the first domain-create row of
// NVTX_EVENTS whose raw text is name (NVTX.domainID with raw set), scanning
// the table without loading it: the scan is gated on eventType, so that
// only the domain-create rows (two in a PyTorch capture of 1.6 M ranges)
// have their other fields decoded.
func findDomain(ctx context.Context, p *nsysx.Profile, name string) (int64, bool, error) {
	if !p.HasTable(events.TableNVTXEvents) || !p.HasColumn(events.TableNVTXEvents, "domainId") {
		return 0, false, nil
	}
	// the first match of each range of rows; the first range with one wins
	type found struct {
		id int64
		ok bool
	}
	var parts []*found
	isCreate := func(v int64) bool { return v == NVTXDomainCreate }
	_, err := report.ScanPartsWhere(ctx, p.Profile, events.TableNVTXEvents, []string{"eventType", "domainId", "text"}, 0, isCreate, func(int) func(nsysx.ScanRow) error {
		f := &found{}
		parts = append(parts, f)
		return func(r nsysx.ScanRow) error {
			if !f.ok && r.Int(0) == NVTXDomainCreate && !r.IsNull(0) && !r.IsNull(1) && !r.IsNull(2) && string(r.Bytes(2)) == name {
				f.id, f.ok = r.Int(1), true
			}
			return nil
		}
	})
	if err != nil {
		return 0, false, err
	}
	for _, f := range parts {
		if f.ok {
			return f.id, true, nil
		}
	}
	return 0, false, nil
}
