package analyze

func init() { register(memcpyAsyncRule.report()) }

// memcpyAsyncRule: memcpys from or to pageable memory (srcKind or dstKind 0)
// whose call is LIKE cudaMemcpy%Async% (docs/stats.md §5.3).
var memcpyAsyncRule = &memRule{
	name: "cuda_memcpy_async", title: "CUDA Async Memcpy with Pageable Memory", alias: "cuda-async-memcpy",
	help:  "Asynchronous memcpy calls on pageable host memory, which the driver runs synchronously.",
	table: tMemcpy, what: "memcpy",
	cols: []string{"srcKind", "dstKind", "copyKind"},
	keepOp: func(v RowVals) bool {
		return sqlIs(v, memcpySrcKind, 0) || sqlIs(v, memcpyDstKind, 0)
	},
	keepAPI: func(s string) bool { return likeASCII(s, "cudaMemcpy%Async%") },
	head:    []string{"Src Kind", "Dst Kind"},
	row:     memcpyKinds,
	advice: "The following APIs use PAGEABLE memory which causes asynchronous CUDA memcpy operations to block and be executed synchronously. This leads to low GPU utilization.\n\n" +
		"Suggestion: If applicable, use PINNED memory instead.",
	noRes: "There were no problems detected related to memcpy operations using pageable memory.",
}

// Scan positions of the memcpy rules' own columns.
const (
	memcpySrcKind = memExtra + iota
	memcpyDstKind
	memcpyCopyKind
	memcpySrcDevice
	memcpyDstDevice
)

// memcpyKinds appends the Src Kind and Dst Kind labels of a memcpy to dst.
func memcpyKinds(dst []Value, kinds map[int64]string, v RowVals) []Value {
	return append(dst, memKindLabel(kinds, v, memcpySrcKind), memKindLabel(kinds, v, memcpyDstKind))
}
