package recipe

import "context"

// mapMemSizeSum describes the bytes of every memcpy and memset, zero-byte
// operations included, by operation name and by (name, device); Min, Max
// and Sum are uint64 like the bytes column (docs/recipes.md §2.3).
func mapMemSizeSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	m, err := loadMemOps(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	if len(m.bytes) == 0 {
		return noData(o, r)
	}
	rows := seq(len(m.bytes))
	return m.stats(rows, NewInts("bytes", Uint64, m.bytes, nil)), nil
}
