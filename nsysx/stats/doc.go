// Package stats holds the `nsys stats` reports, one file each
// (report_NAME.go registers its Report with report.Register from init), and
// what they share: Agg (SQLite's aggregate semantics), the CUDA API-call
// index and kernel-name views, the NVTX range loader, CUDA graphs, and our
// analyses built on them: the GPU idle breakdown (IdleBreakdown,
// LaunchStats) and kernel time by call stack (KernelStacksOf). Each report
// computes a frame.Result with nsys's column specs from the model through a
// report.Ctx; package nsysx runs them (Profile.Stats) and keeps their
// names in its API.
package stats
