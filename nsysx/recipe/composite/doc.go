// Package composite loads the typed event tables nsys's recipes read (the
// composites of docs/recipes.md §1.9): NVTX and NCCL ranges
// (composite_nvtx.go), CUDA kernels, memory operations and runtime calls
// (CUDA_KERNEL, CUDA_GPU: composite_cuda.go, kernel_scan.go, memops.go),
// CUDA API calls joined with their GPU work (CUDA_COMBINED, MPI:
// composite_combined.go), CUDA graph launches and node events (graph*.go)
// and GPU metrics samples (gpu_metrics.go); the frame filters of §1.4
// (filter.go) and the interval algebra the heatmaps use (overlap.go).
//
// The recipes (package recipes) ask it for typed columns; three recipe
// files still name export tables themselves (nvtx_pace.go's streamed NVTX
// scan, proj_text.go's NVTX texts, summary.go's API tables), and the runner
// reads the session facts (recipe.Session). This package's API is the seam
// along which the tables will move into nsysx's event layer.
package composite
