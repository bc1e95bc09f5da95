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
// NULLs, as in nsys. Without an NVTX filter only the columns the summary
// reads are loaded (loadNVTXText).
func mapNVTXSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	if o.FilterNVTX == nil && o.FilterProjectedNVTX == nil && canScanNVTX(r.Profile) {
		t, err := loadNVTXText(ctx, r.Profile)
		if err != nil {
			return nil, err
		}
		return textSum(ctx, r, o, t, nil)
	}
	nv, err := composite.LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, nvtxTextRows(nv), nv)
}

// loadNVTXText is nvtxTextRows(LoadNVTX) without the columns it does not
// use: start, end and the text (StringIds(textId) where it resolves, else
// the inline text) only, not the threads, domains, types and the inline
// text kept apart, which were about a third of a map's peak on a
// PyTorch capture (docs/performance.md, "Recipe nvtx_sum: the columns it
// reads"). The caller checks canScanNVTX (the columns LoadNVTX requires).
func loadNVTXText(ctx context.Context, p *nsysx.Profile) (textRows, error) {
	t, err := composite.LoadTable(ctx, p, events.TableNVTXEvents, []string{"start", "end"}, []string{"text", "textId"})
	if err != nil {
		return textRows{}, err
	}
	var out textRows
	out.span.Start, _ = composite.Ints(t, "start")
	out.span.End, out.span.EndValid = composite.Ints(t, "end")
	out.endFloat = out.span.EndValid != nil
	raw, rawValid := composite.TextCol(t, "text")
	if err := p.StringsErr(ctx); err != nil {
		return textRows{}, err
	}
	out.text, out.valid = composite.ResolveText(ctx, p, t, raw, rawValid)
	return out, nil
}
