package analyze

func init() { register(memcpySyncRule.report()) }

// memcpySyncRule: memcpys other than host-to-device copies of 64000 bytes or
// less and copies within one device, whose call is LIKE cudaMemcpy% and NOT
// LIKE %Async% (docs/stats.md §5.4). The WHERE clause is SQL three-valued logic: a NULL
// comparison keeps nothing.
var memcpySyncRule = &memRule{
	name: "cuda_memcpy_sync", title: "CUDA Synchronous Memcpy", alias: "cuda-sync-memcpy",
	help:  "Synchronous memcpy calls that block the host (small host-to-device copies and same-device copies excepted).",
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
func keepSyncMemcpy(v RowVals) bool {
	b, bNull := sqlInt(v, memBytes)
	k, kNull := sqlInt(v, memcpyCopyKind)
	// NOT (x AND y) is true only when x or y is (non-NULL) false.
	if !((!bNull && b > 64000) || (!kNull && k != 1)) {
		return false
	}
	src, sNull := sqlInt(v, memcpySrcDevice)
	dst, dNull := sqlInt(v, memcpyDstDevice)
	return sNull || (!dNull && src != dst)
}
