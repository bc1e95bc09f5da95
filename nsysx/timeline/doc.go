// Package timeline turns an Nsight Systems profile into a timeline without
// the Nsight Systems GUI: a Chrome/Perfetto JSON trace (Trace Event Format)
// that ui.perfetto.dev and chrome://tracing load, and an interactive HTML
// view for notebooks that needs no network.
//
// Walk streams a profile's events (CUDA API calls, kernels, memcpy/memset,
// NVTX ranges and marks, OS runtime calls, NCCL kernels and NVTX ranges) to a
// Sink, table by table, without loading the tables: its memory is bounded by
// the number of distinct tracks and the correlation ids of GPU work (8 bytes
// per GPU operation), not by the profile's size. WritePerfetto is the Sink
// that writes the JSON trace; View collects a window for the notebook.
//
// Tracks follow the Nsight Systems GUI: each process is a process; each of
// its threads has up to three lanes (the thread itself for NVTX push/pop
// ranges, "CUDA API" and "OS runtime"), so that events of different sources
// never break each other's nesting; each GPU a process holds becomes a
// process "GPU N: NAME (pid P)" with one thread per CUDA stream. NVTX
// start/end ranges, which may overlap, are async slices of their process.
// Every CUDA API call that launched GPU work has a flow arrow to it.
package timeline
