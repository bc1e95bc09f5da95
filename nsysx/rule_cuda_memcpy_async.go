package nsysx

func init() {
	register(&Report{Name: "cuda_memcpy_async", Title: "CUDA Async Memcpy with Pageable Memory", Aliases: []string{"cuda-async-memcpy"}, Rule: true,
		Help:    "Asynchronous memcpy calls on pageable host memory, which the driver runs synchronously.",
		Options: []Option{rowsOption},
		run:     memcpyAsyncRule.run})
}

// memcpyAsyncRule: memcpys from or to pageable memory (srcKind or dstKind 0)
// whose call is LIKE cudaMemcpy%Async% (§5.3).
var memcpyAsyncRule = &memRule{
	table: tMemcpy, what: "memcpy",
	cols: []string{"srcKind", "dstKind", "copyKind"},
	keepOp: func(t *Table, i int) bool {
		return isInt(t.Col("srcKind"), i, 0) || isInt(t.Col("dstKind"), i, 0)
	},
	keepAPI: func(s string) bool { return likeASCII(s, "cudaMemcpy%Async%") },
	head:    []string{"Src Kind", "Dst Kind"},
	row:     memcpyKinds,
	advice: "The following APIs use PAGEABLE memory which causes asynchronous CUDA memcpy operations to block and be executed synchronously. This leads to low GPU utilization.\n\n" +
		"Suggestion: If applicable, use PINNED memory instead.",
	noRes: "There were no problems detected related to memcpy operations using pageable memory.",
}

// memcpyKinds gives the Src Kind and Dst Kind labels of a memcpy.
func memcpyKinds(kinds map[int64]string, t *Table, i int) []Value {
	return []Value{memKindLabel(kinds, t.Col("srcKind"), i), memKindLabel(kinds, t.Col("dstKind"), i)}
}
