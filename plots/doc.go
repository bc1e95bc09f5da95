// Package plots draws charts of Nsight Systems profiles opened with nsysx:
// the top kernels and CUDA API calls, memory operations, the NVTX GPU
// projection timeline, GPU utilisation heatmaps, NCCL communication against
// compute, iteration durations, kernel duration histograms and side-by-side
// comparisons of two profiles.
//
// Each chart is a function of a context and the model (Kernels, APICalls, MemOps,
// NVTXTimeline, GPUUtil, NCCL, Iterations, KernelHist, Compare) that
// computes its data from nsysx's reports (cuda_gpu_kern_sum,
// nvtx_gpu_proj_trace ...) or tables and returns a *Chart. A Chart renders
// to PNG (at PNGScale times DPI, for HiDPI screens) and SVG with
// gonum/plot, to Vega-Lite v5 JSON where it has an interactive version, and
// to a Jupyter MIME bundle (MIMEBundle). A profile that lacks the data a
// chart needs gives a chart whose Note says why, not an error; a cancelled
// context stops the chart with ctx.Err().
//
// The registry (Names, Lookup, Parse, Def.Draw) names the charts and parses
// their options from words (`--top 10`, `--range "iteration 12"`), so that
// `nsysx plot` and the Jupyter kernel's %plot magic share them. The public
// API has no generics, so that the yaegi interpreter can bind it.
//
// Long timelines are aggregated at the resolution of the image: GPU lanes
// keep, per pixel, the kind of operation that ran longest, and NVTX bars
// closer than a pixel merge, so that no output grows with the profile.
package plots
