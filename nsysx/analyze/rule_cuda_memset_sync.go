package analyze

func init() { register(memsetSyncRule.report()) }

// memsetSyncRule: memsets on pinned (1) or managed (4) memory whose call is
// LIKE cudaMemset% and NOT LIKE %async% (docs/stats.md §5.5). nsys prints cuda_api_sync's
// advice and no-result texts for this rule, and so do we.
var memsetSyncRule = &memRule{
	name: "cuda_memset_sync", title: "CUDA Synchronous Memset", alias: "cuda-sync-memset",
	help:  "Synchronous memset calls on pinned or managed memory, which block the host.",
	table: tMemset, what: "memset",
	cols: []string{"memKind"},
	keepOp: func(v RowVals) bool {
		return sqlIs(v, memExtra, 1) || sqlIs(v, memExtra, 4)
	},
	keepFirst: func(kind int64) bool { return kind == 1 || kind == 4 },
	keepAPI:   func(s string) bool { return likeASCII(s, "cudaMemset%") && !likeASCII(s, "%async%") },
	head:      []string{"Memory Kind"},
	row: func(dst []Value, kinds map[int64]string, v RowVals) []Value {
		return append(dst, memKindLabel(kinds, v, memExtra))
	},
	advice: adviceSyncAPI,
	noRes:  noResultSyncAPI,
}
