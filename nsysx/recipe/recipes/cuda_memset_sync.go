package recipes

func init() {
	registerRule("cuda_memset_sync", "CUDA Synchronous Memset",
		"Synchronous memset calls on pinned or managed memory, longest first (nsys analyze cuda_memset_sync).",
		nil, nil, nil)
}
