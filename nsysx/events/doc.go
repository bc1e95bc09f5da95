// Package events is the library's view of a profile as typed events: the
// raw table names (tables.go), and the views every analysis reads instead
// of the export's tables (GPU operations, sessions, threads, ...). It
// imports the model and nothing above it.
//
// The filters of `--filter-time`, `--filter-nvtx` and the reports'
// start=/end=/nvtx= options live here (Filter: made by report.ParseTimeFilter,
// ParseNVTXFilter, OptionFilter; resolved per profile, the NVTX range looked
// up in the unfiltered NVTX_EVENTS). A View is one kind of event under a
// filter (Kernels, Memcpys, Memsets, CUDAAPICalls, OSRTCalls, NVTXEvents,
// GraphExecs, or Of for any table): its Load gives the filtered columns
// (the kept rows computed once per filter, profile and table), its Scanner
// streams the kept rows, and its RowFilter is the row test a caller's own
// scan (a gated or ranged scan of the SQLite loader) applies as it reads,
// so that every path gives the rows the load gives.
package events
