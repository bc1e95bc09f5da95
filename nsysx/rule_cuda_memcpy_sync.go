package nsysx

func init() {
	register(&Report{Name: "cuda_memcpy_sync", Title: "CUDA Synchronous Memcpy", Aliases: []string{"cuda-sync-memcpy"}, Rule: true,
		Help:    "Synchronous memcpy calls that block the host (small host-to-device copies and same-device copies excepted).",
		Options: []Option{rowsOption},
		run:     memcpySyncRule.run})
}

// memcpySyncRule: memcpys other than host-to-device copies of 64000 bytes or
// less and copies within one device, whose call is LIKE cudaMemcpy% and NOT
// LIKE %Async% (§5.4). The WHERE clause is SQL three-valued logic: a NULL
// comparison keeps nothing.
var memcpySyncRule = &memRule{
	table: tMemcpy, what: "memcpy",
	cols:    []string{"srcKind", "dstKind", "copyKind", "srcDeviceId", "dstDeviceId"},
	keepOp:  keepSyncMemcpy,
	keepAPI: func(s string) bool { return likeASCII(s, "cudaMemcpy%") && !likeASCII(s, "%Async%") },
	head:    []string{"Src Kind", "Dst Kind"},
	row:     memcpyKinds,
	advice: "The following are synchronous memory transfers that block the host. This does not include host to device transfers of a memory block of 64 KB or less.\n\n" +
		"Suggestion: Use cudaMemcpy*Async() APIs instead.",
	noRes: "There were no problems detected related to synchronous memcpy operations.",
}

// keepSyncMemcpy is NOT (bytes <= 64000 AND copyKind == 1) AND NOT
// (srcDeviceId IS NOT NULL AND srcDeviceId == dstDeviceId).
func keepSyncMemcpy(t *Table, i int) bool {
	b, k := t.Col("bytes"), t.Col("copyKind")
	// NOT (x AND y) is true only when x or y is (non-NULL) false.
	if !((!b.IsNull(i) && b.Ints[i] > 64000) || (!k.IsNull(i) && k.Ints[i] != 1)) {
		return false
	}
	src, dst := t.Col("srcDeviceId"), t.Col("dstDeviceId")
	return src.IsNull(i) || (!dst.IsNull(i) && src.Ints[i] != dst.Ints[i])
}
