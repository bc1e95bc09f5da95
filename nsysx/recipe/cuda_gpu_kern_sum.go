package recipe

import "context"

// mapKernSum describes the filtered kernels' positive durations by short
// name, and by (short name, device) (docs/recipes.md §2.2).
func mapKernSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	k, keep, err := filteredKernels(ctx, r, o, nil, kernelShort)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return noData(o, r)
	}
	rows := positive(k.Span(), keep)
	dur := durations(k.Span(), rows, false)
	name := nameCol("Name", k.ShortName, k.ShortValid, rows)
	dev := NewInts("Device ID", Uint32, pick(k.DeviceID, rows), nil)
	return StatsPart(Describe([]*Column{name}, dur), Describe([]*Column{name, dev}, dur)), nil
}
