package nsysx

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/analyze"
	"github.com/nsysx/nsysx/nsysx/report"
	"github.com/nsysx/nsysx/nsysx/stats"
)

// The reports' and rules' names (packages report, stats, analyze) keep
// the library's public API as it was.
type (
	Filter        = report.Filter
	SkipError     = report.SkipError
	Report        = report.Report
	Option        = report.Option
	Spec          = report.Spec
	KV            = report.KV
	Ctx           = report.Ctx
	ScanRow       = report.ScanRow
	Agg           = stats.Agg
	OverflowError = report.OverflowError
	GraphExec     = stats.GraphExec
	GraphNodes    = stats.GraphNodes
	IdleCat       = stats.IdleCat
	IdleOptions   = stats.IdleOptions
	IdlePiece     = stats.IdlePiece
	IdleSpan      = stats.IdleSpan
	IdleDevice    = stats.IdleDevice
	Idle          = stats.Idle
	LaunchStat    = stats.LaunchStat
	IdleEvidence  = stats.IdleEvidence
	StackFrame    = stats.StackFrame
	StackOptions  = stats.StackOptions
	KernelStack   = stats.KernelStack
	KernelStacks  = stats.KernelStacks
	FunctionTime  = stats.FunctionTime
)

const (
	IdleSync      = stats.IdleSync
	IdleCopy      = stats.IdleCopy
	IdleLaunch    = stats.IdleLaunch
	IdleOtherCUDA = stats.IdleOtherCUDA
	IdleOSRT      = stats.IdleOSRT
	IdleHostBusy  = stats.IdleHostBusy
	IdleOutside   = stats.IdleOutside
	NumIdleCats   = stats.NumIdleCats
	NoStackFrame  = stats.NoStackFrame
	PythonFrame   = stats.PythonFrame
)

var (
	ErrBadOption      = report.ErrBadOption
	ErrNotImplemented = stats.ErrNotImplemented
)

// RuleOptionRange returns the accepted range of the integer rule option
// name (chunks, threshold, gap), shared by the rules and their recipes;
// ok is false for another name.
func RuleOptionRange(name string) (lo, hi int64, ok bool) { return analyze.RuleOptionRange(name) }

// ParseTimeFilter parses a `--filter-time [start]/[end]` argument. Each bound
// is a sequence of number+unit parts ("1s2ms3us4ns", "1.5e3us"); the units
// are ns/nsec, us/usec, ms/msec, s/sec, m/min and h/hour, a bare number being
// nanoseconds. An omitted start is -2^63 and an omitted end 2^63-1.
func ParseTimeFilter(s string) (*Filter, error) { return report.ParseTimeFilter(s) }

// ParseNVTXFilter parses a `--filter-nvtx name[@domain][/index]` argument. The
// range itself is looked up when the filter is applied to a profile.
func ParseNVTXFilter(s string) (*Filter, error) { return report.ParseNVTXFilter(s) }

// OptionFilter is the filter nsys builds from a report's start=, end= and
// nvtx= options (nil pointers and !hasNVTX for absent ones): without nvtx= a
// missing start is 0 and a missing end 2^63-1; with it the range supplies
// the missing bounds.
func OptionFilter(start, end *int64, nvtx string, hasNVTX bool) *Filter {
	return report.OptionFilter(start, end, nvtx, hasNVTX)
}

// DefaultReports is what `nsys stats` 2025.3 runs when no report is named.
func DefaultReports() []string { return report.DefaultReports() }

// Reports lists the stats reports (rules excluded), sorted by name.
func Reports() []*Report { return report.Reports() }

// Rules lists the analyze rules, sorted by name.
func Rules() []*Report { return report.Rules() }

// LookupReport finds a report by name or 2022.4 alias.
func LookupReport(name string) (*Report, error) { return report.LookupReport(name) }

// LookupRule finds a rule by name (or 2022.4 name).
func LookupRule(name string) (*Report, error) { return report.LookupRule(name) }

// Suggest returns " (did you mean X?)" for the closest names, or "".
func Suggest(name string, names []string) string { return report.Suggest(name, names) }

// ParseSpec splits "cuda_gpu_kern_sum:base:nvtx-name" or "gpu_gaps:gap=1".
func ParseSpec(s string) Spec { return report.ParseSpec(s) }

// CheckOptions validates options for a report without running it.
func CheckOptions(r *Report, opts []KV) error { return report.CheckOptions(r, opts) }

// WithCores returns a context under which a Profile's table loads and
// ScanParts may use up to n goroutines each (package model).
func WithCores(ctx context.Context, n int) context.Context { return report.WithCores(ctx, n) }

// R1 rounds a value to one decimal as SQLite round(x,1) (NULL stays NULL).
func R1(v Value) Value { return stats.R1(v) }

// Pct is round(part*100.0/whole, 1), NULL when whole is 0.
func Pct(part, whole int64) Value { return stats.Pct(part, whole) }

// SummaryCols are the STATS(d, N) column names with the count label n.
func SummaryCols(n string) []string { return stats.SummaryCols(n) }

// StripAPIVersion removes a CUDA API name's version suffix ("_v7000") as the
// reports do: when the 6th and 5th code points from the end are "_v".
func StripAPIVersion(s string) string { return stats.StripAPIVersion(s) }

// GraphName names a CUDA graph: "CUDA graph 7" by its graph id; without
// one (-1), by its launch, "CUDA graph (launch 1234)" (the correlation id
// of its cudaGraphLaunch call); without either, "CUDA graph".
func GraphName(graphID, launch int64) string { return stats.GraphName(graphID, launch) }

// GraphTraceNote is what the analyses say about a profile whose CUDA graphs
// were traced whole (n executions): they count as GPU work, and where to
// get per-kernel rows.
func GraphTraceNote(n int) string { return stats.GraphTraceNote(n) }

// Run computes a report or rule given as "name[:opt...]" on the profile.
func (p *Profile) Run(ctx context.Context, spec string, f *Filter) (*Result, error) {
	return report.Run(ctx, p.Profile, spec, f)
}

// Stats computes a stats report ("cuda_gpu_kern_sum", "cuda_gpu_kern_sum:base");
// cancelling ctx stops it with ctx.Err().
func (p *Profile) Stats(ctx context.Context, spec string) (*Result, error) {
	return report.Stats(ctx, p.Profile, spec)
}

// Analyze runs an analyze rule ("gpu_gaps", "gpu_gaps:gap=1"); cancelling
// ctx stops it with ctx.Err().
func (p *Profile) Analyze(ctx context.Context, spec string) (*Result, error) {
	return report.Analyze(ctx, p.Profile, spec)
}

// RunReport computes r with options and an optional filter. SKIPPED reports
// are results with Skipped set, not errors; errors are bad options, a
// cancelled context or an unreadable file.
func (p *Profile) RunReport(ctx context.Context, r *Report, opts []KV, f *Filter) (*Result, error) {
	return report.RunReport(ctx, p.Profile, r, opts, f)
}

// Scan calls fn for every row of table, in rowid order, that passes f (nil:
// every row), with the columns cols, in bounded memory; see report.Scan.
func (p *Profile) Scan(ctx context.Context, table string, f *Filter, cols []string, fn func(r ScanRow) error) error {
	return report.Scan(ctx, p.Profile, table, f, cols, fn)
}

// ScanParts is Scan without a filter over up to n ranges of the table's
// rows at once, n from WithCores(ctx); see report.ScanParts.
func (p *Profile) ScanParts(ctx context.Context, table string, cols []string, newFn func(part int) func(ScanRow) error) (int, error) {
	return report.ScanParts(ctx, p.Profile, table, cols, newFn)
}

// ScanInts streams the integer columns cols of a SQLite export's table
// without loading them; ok is false when the scan does not apply. See
// report.ScanInts.
func (p *Profile) ScanInts(ctx context.Context, table string, cols []string, fn func(v []int64, null uint32) error) (ok bool, err error) {
	return report.ScanInts(ctx, p.Profile, table, cols, fn)
}

// GraphExecs reads the executions of CUDA graphs traced whole, in table
// order, under f (nil: all of them); see stats.GraphExecs.
func (p *Profile) GraphExecs(ctx context.Context, f *Filter) ([]GraphExec, error) {
	return stats.GraphExecs(ctx, p.Profile, f)
}

// GraphNodes reads which graph each node of a node-level trace belongs to;
// see stats.GraphNodesOf.
func (p *Profile) GraphNodes(ctx context.Context) (GraphNodes, error) {
	return stats.GraphNodesOf(ctx, p.Profile)
}

// IdleBreakdown splits each GPU's idle time by what the host was doing.
func (p *Profile) IdleBreakdown(ctx context.Context, o IdleOptions) (*Idle, error) {
	return stats.IdleBreakdown(ctx, p.Profile, o)
}

// LaunchStats computes the kernel launch statistics (f may be nil), sorted
// by device, then total kernel time (descending), then name.
func (p *Profile) LaunchStats(ctx context.Context, f *Filter) ([]LaunchStat, error) {
	return stats.LaunchStats(ctx, p.Profile, f)
}

// KernelStacks sums GPU kernel time by launching call stack.
func (p *Profile) KernelStacks(ctx context.Context, o StackOptions) (*KernelStacks, error) {
	return stats.KernelStacksOf(ctx, p.Profile, o)
}
