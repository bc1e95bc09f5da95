package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// mapNVTXSum describes the filtered NVTX composite's positive durations by
// text (docs/recipes.md §2.5). The default window drops marks, domain rows
// and open ranges (NULL end); durations are float64 when NVTX end has
// NULLs, as in nsys. Without an NVTX filter the table is scanned and
// grouped by text id (scanNVTXSum); where that leaves a case to the
// composite, only the columns the summary reads are loaded (loadNVTXLean).
func mapNVTXSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	if o.FilterNVTX == nil && o.FilterProjectedNVTX == nil && canScanNVTX(r.Profile) {
		if part, ok, err := scanNVTXSum(ctx, r, o); ok || err != nil {
			return part, err
		}
		nv, err := loadNVTXLean(ctx, r.Profile, false)
		if err != nil {
			return nil, err
		}
		return textSum(ctx, r, o, nvtxTextRows(nv), nil)
	}
	nv, err := composite.LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, nvtxTextRows(nv), nv)
}

// loadNVTXLean is LoadNVTX without the columns the summaries do not use:
// start, end and the text (StringIds(textId) where it resolves, else the
// inline text), and with threads globalTid and endGlobalTid (what the
// projection reads); not the types, domains, pids, tids, row labels and
// the inline text kept apart, 56 bytes a range (docs/performance.md,
// "Summaries load the columns they read"). The other fields are nil. The
// caller checks canScanNVTX (the columns LoadNVTX requires).
func loadNVTXLean(ctx context.Context, p *nsysx.Profile, threads bool) (*composite.NVTX, error) {
	opt := []string{"text", "textId"}
	if threads {
		opt = append(opt, "globalTid", "endGlobalTid")
	}
	t, err := composite.LoadTable(ctx, p, events.TableNVTXEvents, []string{"start", "end"}, opt)
	if err != nil {
		return nil, err
	}
	n := &composite.NVTX{}
	n.Start, _ = composite.Ints(t, "start")
	n.End, n.EndValid = composite.Ints(t, "end")
	n.EndFloat = n.EndValid != nil
	if threads {
		n.GlobalTid, n.GlobalTidValid = composite.Ints(t, "globalTid")
		_, n.EndGlobalTidValid = composite.Ints(t, "endGlobalTid")
	}
	raw, rawValid := composite.TextCol(t, "text")
	if err := p.StringsErr(ctx); err != nil {
		return nil, err
	}
	n.Text, n.TextValid = composite.ResolveText(ctx, p, t, raw, rawValid)
	return n, nil
}
