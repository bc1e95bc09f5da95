// Package nsysx opens Nsight Systems exports and computes the `nsys stats`
// reports and `nsys analyze` rules from one in-memory columnar model.
//
// Open reads a SQLite export (any schema from nsys 2022.4 to 2026), a Parquet or
// Arrow directory export, or a .nsys-rep through an installed nsys, through the
// loaders of package load. Tables are loaded column by column on demand into
// typed vectors (Table, Column) by the model (package model); tables are named
// through package events. Reports read the model: where a pass over a big table
// must not load it, they ask the profile's loader for a streaming capability
// (model.RecordScanner) and fall back to loading the columns without it, so
// that no report reads the file itself (docs/architecture.md). A report returns a Result: typed
// columns with nsys's column specs, which the format package renders in every
// nsys output format and which the Arrow and Parquet writers export.
//
// What callers use: Open, OpenWith and OpenSample; Profile's Stats, Analyze,
// Run, Load, Scan, IdleBreakdown, LaunchStats and KernelStacks; Filter and its
// parsers; the Result table methods (Sort, Where, GroupBy, Join...); Reports,
// Rules and their lookups; ExportTables and NewRecordWriter. Package nsysx is
// the facade: the reports live in package stats, the rules in package
// analyze, and the run context both compute with (the registry, Ctx, the
// filters and scans) in package report; nsysx imports them and keeps their
// names (Report, Filter, Agg, Idle, ...) as aliases, so a program needs only
// nsysx. R1, Pct, SummaryCols, ComputedCol and PyFloat, the reports' building
// blocks, stay exported so that `go doc` shows them next to what they compute
// (docs/stats.md); a Ctx exists only inside a report's run.
// Everything that reads the profile takes a context.Context first (Stats,
// Analyze, Load, RunReport, ExportTables, ...) and stops with ctx.Err() when
// it is cancelled. There is no
// process-wide default context: a Jupyter cell passes its own ctx.
package nsysx
