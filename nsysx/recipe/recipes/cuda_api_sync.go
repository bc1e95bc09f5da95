package recipes

func init() {
	registerRule("cuda_api_sync", "CUDA Synchronization APIs",
		"cudaDeviceSynchronize and cudaStreamSynchronize calls, longest first (nsys analyze cuda_api_sync).",
		nil, nil, nil)
}
