package recipes

func init() {
	registerRule("cuda_memcpy_async", "CUDA Async Memcpy with Pageable Memory",
		"Asynchronous memcpy calls that use pageable memory and so run synchronously, longest first (nsys analyze cuda_memcpy_async).",
		nil, nil, nil)
}
