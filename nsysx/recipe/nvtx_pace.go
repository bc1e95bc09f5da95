package recipe

import "context"

func init() {
	Register(&Recipe{
		Name:        "nvtx_pace",
		DisplayName: "NVTX Pacing",
		Help:        "The pacing of one NVTX range (--name) over its iterations: start, duration and gap to the previous one, per rank.",
		Options:     paceOptions,
		Notebook:    paceNotebook,
		Prepare:     requireName,
		Map:         mapNVTXPace,
		Reduce:      reducePace,
	})
}

// mapNVTXPace takes the filtered NVTX rows whose text is --name, in table
// order, whatever their domain or type (docs/recipes.md §2.10).
func mapNVTXPace(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	nv, err := LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	keep, err := FilterRows(ctx, r.Profile, o, nv.Span(), nv)
	if err != nil {
		return nil, err
	}
	var start, end []int64
	for _, i := range keep {
		if nv.TextValid.Valid(i) && nv.Text[i] == o.Name {
			start, end = append(start, nv.Start[i]), append(end, nv.End[i])
		}
	}
	if len(start) == 0 {
		return noData(o, r)
	}
	return pacePart(o.Name, "Text", start, end, nv.EndFloat), nil
}
