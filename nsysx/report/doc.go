// Package report is the run context the stats reports (package stats) and
// the analyze rules (package analyze) share: the registry of reports and
// rules (Register, LookupReport, LookupRule) and how one runs (RunReport,
// Stats, Analyze, Run: options checked, filter resolved, SKIPPED results,
// panics and overflows turned into errors); Ctx, what a report computes
// with (the model's profile, the parsed options, the filter; Load applies
// the filter); the filters of --filter-time, --filter-nvtx and
// start=/end=/nvtx=; and the passes over a table that load nothing (Scan,
// ScanParts, ScanInts, Scanner), which ask the profile's loader for its
// streaming capability and fall back to Load without it.
//
// The package reads the model (package model) and names tables through
// package events; it imports neither the reports nor the facade nsysx.
package report
