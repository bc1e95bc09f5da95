// Package report is the run context the stats reports (package stats) and
// the analyze rules (package analyze) share: the registry of reports and
// rules (Register, LookupReport, LookupRule) and how one runs (RunReport,
// Stats, Analyze, Run: options checked, filter resolved, SKIPPED results,
// panics and overflows turned into errors); Ctx, what a report computes
// with (the model's profile, the parsed options, the filter; View gives a
// table's events under the filter, LoadRaw reads a table unfiltered);
// SetupFilter, which adds a report's start=/end=/nvtx= to the caller's
// filter (the filters themselves, their row test and the filtered views are
// package events'; Filter, Scanner and the parsers are aliases of them);
// and the passes over a table that load nothing (Scan, ScanParts,
// ScanInts), which ask the profile's loader for its streaming capability
// and fall back to the view's Load without it.
//
// The package reads the model (package model) and names tables through
// package events; it imports neither the reports nor the facade nsysx.
package report
