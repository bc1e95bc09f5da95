package recipe

import (
	"context"
	"slices"

	"github.com/nsysx/nsysx/nsysx"
)

// The projection recipes that output ranges without looking at every
// range's text (nvtx_gpu_proj_trace without an NVTX filter) read the NVTX
// composite in two steps: the columns P needs (loadNVTXSpans), then, once
// the projection is known, the text of the rows it kept (fillProjText).
// A PyTorch capture's NVTX_EVENTS holds a text of its own in nearly every
// row (1.6 M distinct ones in 1.65 M rows), of which a sixth or so project.

// needsNVTXText reports whether the options filter on NVTX ranges, which
// needs the whole composite's text (FilterRows).
func needsNVTXText(o *Options) bool { return o.FilterNVTX != nil || o.FilterProjectedNVTX != nil }

// loadNVTXSpans is the NVTX composite with the columns projNVTX reads
// (start, end, globalTid, endGlobalTid) and no text; the table is returned
// for fillProjText.
func loadNVTXSpans(ctx context.Context, p *nsysx.Profile) (*NVTX, *nsysx.Table, error) {
	t, err := loadTable(ctx, p, "NVTX_EVENTS", []string{"start", "end"}, []string{"globalTid", "endGlobalTid"})
	if err != nil {
		return nil, nil, err
	}
	n := &NVTX{}
	n.Start, _ = ints(t, "start")
	n.End, n.EndValid = ints(t, "end")
	n.EndFloat = n.EndValid != nil
	n.GlobalTid, n.GlobalTidValid = ints(t, "globalTid")
	n.EndGlobalTid, n.EndGlobalTidValid = ints(t, "endGlobalTid")
	if err := p.StringsErr(ctx); err != nil {
		return nil, nil, err
	}
	return n, t, nil
}

// fillProjText sets nv.Text and nv.TextValid at the rows pr projects, as
// LoadNVTX resolves them (StringIds(textId), else the inline text); the
// other rows' text stays empty. t is the table loadNVTXSpans read.
func fillProjText(ctx context.Context, p *nsysx.Profile, t *nsysx.Table, nv *NVTX, pr *Projection) error {
	rows := slices.Clone(pr.NVTXRow)
	slices.Sort(rows)
	rows = slices.Compact(rows)
	ids := make([]int64, len(rows))
	for k, r := range rows {
		ids[k] = t.RowIDs[r]
	}
	var cols []string
	for _, c := range []string{"text", "textId"} {
		if p.HasColumn("NVTX_EVENTS", c) {
			cols = append(cols, c)
		}
	}
	tt, err := p.LoadRows(ctx, "NVTX_EVENTS", ids, cols...)
	if err != nil {
		return err
	}
	raw, rawValid := textCol(tt, "text")
	text, valid := resolveText(ctx, p, tt, raw, rawValid)
	n := nv.Len()
	nv.Text = make([]string, n)
	for k, r := range rows {
		if k >= tt.N || tt.RowIDs[k] != ids[k] {
			panic("NVTX_EVENTS: a projected row is missing on reading its text")
		}
		if !valid.Valid(k) {
			nv.TextValid = setNull(nv.TextValid, n, r)
			continue
		}
		nv.Text[r] = text[k]
	}
	return nil
}
