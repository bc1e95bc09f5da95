package recipes

func init() {
	registerRule("cuda_memcpy_sync", "CUDA Synchronous Memcpy",
		"Synchronous memcpy calls, longest first (nsys analyze cuda_memcpy_sync).",
		nil, nil, nil)
}
