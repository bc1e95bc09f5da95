package recipes

import (
	"context"
	"fmt"
	"slices"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// The projection recipes that output ranges without looking at every
// range's text (nvtx_gpu_proj_trace without an NVTX filter) read the NVTX
// composite in two steps: the columns P needs (loadNVTXSpans), then, once
// the projection is known, the text of the rows it kept (projRowsText).
// A PyTorch capture's NVTX_EVENTS holds a text of its own in nearly every
// row (1.6 M distinct ones in 1.65 M rows), of which a sixth or so project.

// needsNVTXText reports whether the options filter on NVTX ranges, which
// needs the whole composite's text (FilterRows).
func needsNVTXText(o *recipe.Options) bool {
	return o.FilterNVTX != nil || o.FilterProjectedNVTX != nil
}

// loadNVTXSpans is the NVTX composite with the columns projNVTX reads
// (start, end, globalTid, endGlobalTid) and no text; the table is returned
// for projRowsText.
func loadNVTXSpans(ctx context.Context, p *nsysx.Profile) (*composite.NVTX, *nsysx.Table, error) {
	t, err := composite.LoadTable(ctx, p, events.TableNVTXEvents, []string{"start", "end"}, []string{"globalTid", "endGlobalTid"})
	if err != nil {
		return nil, nil, err
	}
	n := &composite.NVTX{}
	n.Start, _ = composite.Ints(t, "start")
	n.End, n.EndValid = composite.Ints(t, "end")
	n.EndFloat = n.EndValid != nil
	n.GlobalTid, n.GlobalTidValid = composite.Ints(t, "globalTid")
	n.EndGlobalTid, n.EndGlobalTidValid = composite.Ints(t, "endGlobalTid")
	if err := p.StringsErr(ctx); err != nil {
		return nil, nil, err
	}
	return n, t, nil
}

// projRowsText is the Text column of every row of pr (NVTXRow's text, as
// LoadNVTX resolves it: StringIds(textId), else the inline text), read
// for just those rows. rowids are the rowids of the NVTX composite's rows
// (the table loadNVTXSpans read).
func projRowsText(ctx context.Context, p *nsysx.Profile, rowids []int64, pr *Projection) (*pyframe.Column, error) {
	rows := slices.Clone(pr.NVTXRow)
	slices.Sort(rows)
	rows = slices.Compact(rows)
	ids := make([]int64, len(rows))
	for k, r := range rows {
		ids[k] = rowids[r]
	}
	var cols []string
	for _, c := range []string{"text", "textId"} {
		if p.HasColumn(events.TableNVTXEvents, c) {
			cols = append(cols, c)
		}
	}
	tt, err := p.LoadRows(ctx, events.TableNVTXEvents, ids, cols...)
	if err != nil {
		return nil, err
	}
	if tt.N != len(ids) {
		return nil, fmt.Errorf("NVTX_EVENTS: %d of %d projected rows read", tt.N, len(ids))
	}
	raw, rawValid := composite.TextCol(tt, "text")
	text, valid := composite.ResolveText(ctx, p, tt, raw, rawValid)
	out := make([]string, pr.Len())
	var outValid pyframe.Mask
	for i, r := range pr.NVTXRow {
		k, _ := slices.BinarySearch(rows, r)
		if !valid.Valid(k) {
			outValid = pyframe.SetNull(outValid, len(out), i)
			continue
		}
		out[i] = text[k]
	}
	return pyframe.NewStrings("Text", out, outValid), nil
}
