package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "nvtx_pace",
		DisplayName: "NVTX Pacing",
		Help:        "The pacing of one NVTX range (--name) over its iterations: start, duration and gap to the previous one, per rank.",
		Options:     paceOptions,
		Notebook:    paceNotebook,
		Prepare:     requireName,
		Map:         mapNVTXPace,
		MapCost:     0.25, // streams NVTX_EVENTS (pages released behind the scan) and keeps only the rows of --name
		Reduce:      reducePace,
	})
}

// mapNVTXPace takes the filtered NVTX rows whose text is --name, in table
// order, whatever their domain or type (docs/recipes.md §2.10).
func mapNVTXPace(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	var start, end []int64
	var endFloat bool
	var err error
	if o.FilterNVTX == nil && o.FilterProjectedNVTX == nil && canScanNVTX(r.Profile) {
		start, end, endFloat, err = paceRowsScanned(ctx, r.Profile, o)
	} else {
		start, end, endFloat, err = paceRowsLoaded(ctx, r.Profile, o)
	}
	if err != nil {
		return nil, err
	}
	if len(start) == 0 {
		return noData(o, r)
	}
	return pacePart(o.Name, "Text", start, end, endFloat), nil
}

// paceRowsLoaded reads the NVTX composite and keeps the filtered rows whose
// text is --name: their start and end, and the composite's EndFloat.
func paceRowsLoaded(ctx context.Context, p *nsysx.Profile, o *recipe.Options) (start, end []int64, endFloat bool, err error) {
	nv, err := composite.LoadNVTX(ctx, p)
	if err != nil {
		return nil, nil, false, err
	}
	keep, err := composite.FilterRows(ctx, p, o, nv.Span(), nv)
	if err != nil {
		return nil, nil, false, err
	}
	for _, i := range keep {
		if nv.TextValid.Valid(i) && nv.Text[i] == o.Name {
			start, end = append(start, nv.Start[i]), append(end, nv.End[i])
		}
	}
	return start, end, nv.EndFloat, nil
}

// canScanNVTX reports whether p has NVTX_EVENTS with the columns LoadNVTX
// requires, so that a scan sees the same rows (else LoadNVTX decides: an
// empty composite or its error).
func canScanNVTX(p *nsysx.Profile) bool {
	for _, c := range []string{"start", "end", "eventType"} {
		if !p.HasColumn(events.TableNVTXEvents, c) {
			return false
		}
	}
	return true
}

// paceRowsScanned is paceRowsLoaded without an NVTX filter: the rows of
// scanNamedNVTX, windowed.
func paceRowsScanned(ctx context.Context, p *nsysx.Profile, o *recipe.Options) (start, end []int64, endFloat bool, err error) {
	nv, endFloat, err := scanNamedNVTX(ctx, p, o.Name)
	if err != nil {
		return nil, nil, false, err
	}
	s := nv.Span()
	lo, hi := o.Window()
	keep := composite.Window(s, pyframe.Seq(s.Len()), lo, hi)
	return pyframe.Pick(s.Start, keep), pyframe.Pick(s.End, keep), endFloat, nil
}

// scanNamedNVTX is the NVTX composite's rows whose text (StringIds(textId)
// where it resolves, else the inline text) is name, in table order, in one
// pass that keeps only them: their start, end, globalTid and endGlobalTid
// (with their NULL masks), nothing else; endFloat is the whole composite's
// EndFloat (it looks at every row's end). The pass runs over the table's
// ranges at once where the map has spare cores (Profile.ScanParts), each
// range collecting its own rows, appended in range order. The caller checks
// canScanNVTX first.
func scanNamedNVTX(ctx context.Context, p *nsysx.Profile, name string) (nv *composite.NVTX, endFloat bool, err error) {
	if err = p.StringsErr(ctx); err != nil {
		return nil, false, err
	}
	type part struct {
		_        [64]byte // its own cache lines (see nsysx's ScanParts)
		nv       composite.NVTX
		endFloat bool
		_        [64]byte
	}
	var parts []*part
	cols := []string{"start", "end", "text", "textId", "globalTid", "endGlobalTid"}
	_, err = p.ScanParts(ctx, events.TableNVTXEvents, cols, func(int) func(nsysx.ScanRow) error {
		pt := &part{}
		parts = append(parts, pt)
		return func(row nsysx.ScanRow) error {
			if row.IsNull(1) {
				pt.endFloat = true
			}
			if nvtxTextIs(ctx, p, row, name) {
				n := &pt.nv
				n.Start, n.End = append(n.Start, row.Int(0)), append(n.End, row.Int(1))
				n.EndValid = append(n.EndValid, !row.IsNull(1))
				n.GlobalTid, n.GlobalTidValid = append(n.GlobalTid, row.Int(4)), append(n.GlobalTidValid, !row.IsNull(4))
				n.EndGlobalTidValid = append(n.EndGlobalTidValid, !row.IsNull(5))
			}
			return nil
		}
	})
	if err != nil {
		return nil, false, err
	}
	nv = &composite.NVTX{EndValid: pyframe.Mask{}, GlobalTidValid: pyframe.Mask{}, EndGlobalTidValid: pyframe.Mask{}}
	for _, pt := range parts {
		n := &pt.nv
		nv.Start, nv.End = append(nv.Start, n.Start...), append(nv.End, n.End...)
		nv.EndValid = append(nv.EndValid, n.EndValid...)
		nv.GlobalTid, nv.GlobalTidValid = append(nv.GlobalTid, n.GlobalTid...), append(nv.GlobalTidValid, n.GlobalTidValid...)
		nv.EndGlobalTidValid = append(nv.EndGlobalTidValid, n.EndGlobalTidValid...)
		endFloat = endFloat || pt.endFloat
	}
	return nv, endFloat, nil
}

// nvtxTextIs reports whether a row of NVTX_EVENTS scanned with text (column
// 2) and textId (column 3) has the composite text name (resolveText).
func nvtxTextIs(ctx context.Context, p *nsysx.Profile, row nsysx.ScanRow, name string) bool {
	if !row.IsNull(3) {
		if t, ok := p.String(ctx, row.Int(3)); ok {
			return t == name
		}
	}
	return !row.IsNull(2) && string(row.Bytes(2)) == name
}
