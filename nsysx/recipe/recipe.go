package recipe

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// Recipe is one nsys recipe: its name, the options it takes (in nsys's
// registration order, which is the key order of the .nsys-analysis
// Options), and its map and reduce steps.
type Recipe struct {
	Name        string // e.g. "cuda_gpu_kern_sum"
	DisplayName string // e.g. "CUDA GPU Kernel Summary"
	Help        string // one line: what the recipe answers
	// Options are the recipe's own option keys, as they appear in the
	// .nsys-analysis JSON between force_overwrite and mode: "input", "start",
	// "end", "csv", "filter_time", "filter_nvtx", ...
	Options []string
	// Notebook is the file name of the notebook written into the output
	// directory ("stats.ipynb", "heatmap.ipynb", ...), as nsys lists it
	// under Outputs.
	Notebook string
	// MoreNotebooks are further notebooks listed after Notebook
	// (nvtx_gpu_proj_sum's "topN.ipynb").
	MoreNotebooks []string

	// Prepare, when set, runs once over all reports before the map
	// (session alignment of the heatmaps) and returns plain data handed to
	// every Map and to Reduce.
	Prepare func(ctx context.Context, reps []*Report, o *Options) (any, error)
	// Map turns one report into named frames. It returns (nil, nil) when the
	// report has no data for the recipe, and an error when it fails; either
	// way the report gets no Rank.
	Map func(ctx context.Context, r *Report, o *Options, shared any) (*Part, error)
	// SpillStats lets the runner spill each part's "stats" frame to a
	// temporary file as its map finishes (Options.SpillParts); Reduce must
	// then be StatsReduceConsume, which reads such parts.
	SpillStats bool
	// MapCost estimates the memory one Map needs, in bytes per byte of its
	// report (the file, or the files of an export directory); 0 means 1.
	// Run keeps the estimates of the maps in flight within InFlightBytes.
	MapCost float64
	// Reduce merges the parts, sorted by file stem (Rank = position), into
	// the output tables.
	Reduce func(ctx context.Context, parts []*Part, o *Options, shared any) (*Output, error)
	// Whole, when set, replaces Prepare, Map and Reduce: the recipe reads
	// its inputs itself (diff reads two recipe output directories) and
	// returns every table it writes, files included.
	Whole func(ctx context.Context, o *Options) (*Output, error)
}

// Report is one input as a mapper sees it.
type Report struct {
	Path    string // as given (or expanded from a directory)
	Stem    string // basename minus its last suffix: the Rank sort key
	Pos     int    // position in the input list
	Profile *nsysx.Profile
	// SessionFacts, when set, reads the report's session facts (Session)
	// for ReadSession in place of opening the report: a runner that can read
	// them more cheaply (nsysx-beam's launcher reads a remote export's few
	// pages rather than downloading it).
	SessionFacts func(ctx context.Context, path string) (utc, dur int64, err error)

	open  Opener // set by Run; OpenProfile uses it
	grant *grant // the map's share of the in-flight budget (set by Run)
}

// Grow raises the map's share of the in-flight budget (InFlightBytes) to
// cost bytes a byte of the report, waiting, as a map waits before it
// starts, until that fits: for a map that finds out only as it reads the
// report that it must hold more than its Recipe.MapCost said (nccl_sum's
// scan for the NCCL domain costs next to nothing, the NVTX composite it
// loads when the domain is there about 3 bytes a byte). A share is never
// lowered. Outside Run it does nothing.
func (r *Report) Grow(cost float64) {
	if g := r.grant; g != nil {
		g.grow(int64(cost * float64(g.size)))
	}
}

// ReadSession returns the report's session start and duration (Session):
// through SessionFacts when set, else from the report opened by
// OpenProfile.
func (r *Report) ReadSession(ctx context.Context) (utc, dur int64, err error) {
	if r.SessionFacts != nil {
		return r.SessionFacts(ctx, r.Path)
	}
	p, err := r.OpenProfile(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer p.Close()
	return Session(ctx, p)
}

// OpenProfile opens the report with the run's Opener (nsysx.Open by
// default): for a Prepare pass, which gets reports without a Profile. The
// caller closes it.
func (r *Report) OpenProfile(ctx context.Context) (*nsysx.Profile, error) {
	if r.open == nil {
		return DefaultOpener(ctx, r.Path)
	}
	return r.open(ctx, r.Path)
}

// Part is what Map returns for one report: named frames and the report's
// session facts. Plain data only.
type Part struct {
	Stem   string
	Frames map[string]*pyframe.Frame
	// UTC is TARGET_INFO_SESSION_START_TIME.utcEpochNs and Duration is
	// ANALYSIS_DETAILS.duration (filled in by the runner).
	UTC, Duration int64
	// Extra carries recipe-specific plain values (for example a name list).
	Extra map[string]any
	// spilled is the stats frame on disk (Options.SpillParts), in place of
	// Frames[FrameStats].
	spilled *spillFile
}

// Output is what Reduce returns: the tables to write, in order.
type Output struct {
	Tables []Table
	// Analysis, when set, replaces the standard .nsys-analysis content
	// (diff writes nsys's reduced key set). Keys keep the given order.
	Analysis []pyframe.KV
	// spills are the temporary files the streamed tables read (Close).
	spills *spillSet
}

// Close releases what the output's streamed tables read (the temporary
// files of spilled parts); the tables cannot be read or written after it.
// An output without them has nothing to release.
func (o *Output) Close() error {
	if o == nil {
		return nil
	}
	return o.spills.close()
}

// Rows returns the rows of the output table named name for which keep
// (given the frame holding the row, and its index there) is true, as a
// frame, and the table's row count; a streamed table is read through
// once. The frame is nil when there is no such table.
func (o *Output) Rows(name string, keep func(f *pyframe.Frame, i int) bool) (*pyframe.Frame, int, error) {
	for _, t := range o.Tables {
		if t.Name != name {
			continue
		}
		if t.stream == nil {
			if t.Frame == nil {
				return nil, 0, nil
			}
			return pickRows(t.Frame, keep), t.Frame.Rows(), nil
		}
		out, n := emptyLike(t.stream.head), 0
		err := t.stream.chunks(func(g *pyframe.Frame) error {
			n += g.Rows()
			for i, c := range pickRows(g, keep).Cols {
				pyframe.AppendCol(out.Cols[i], c)
			}
			return nil
		})
		if err != nil {
			return nil, 0, err
		}
		return out, n, nil
	}
	return nil, 0, nil
}

// pickRows is f's rows for which keep is true.
func pickRows(f *pyframe.Frame, keep func(f *pyframe.Frame, i int) bool) *pyframe.Frame {
	var rows []int
	for i := range f.Rows() {
		if keep(f, i) {
			rows = append(rows, i)
		}
	}
	out := &pyframe.Frame{Index: f.Index, IndexCols: f.IndexCols, RangeName: f.RangeName}
	for _, c := range f.Cols {
		out.Cols = append(out.Cols, c.Pick(rows))
	}
	return out
}

// Table is one output file: Name is the file name without ".parquet".
type Table struct {
	Name  string
	Frame *pyframe.Frame
	// NoCSV marks a table that gets no CSV twin even with --csv.
	NoCSV bool
	// stream, when set, is the table in place of Frame: written as it is
	// read (the spilled parts' rank_stats); Output.Rows reads it.
	stream *tableStream
}

// Table returns the output table named name, or nil.
func (o *Output) Table(name string) *pyframe.Frame {
	for _, t := range o.Tables {
		if t.Name == name {
			return t.Frame
		}
	}
	return nil
}

var registry = map[string]*Recipe{}

// Register adds a recipe; each recipe file calls it from init.
func Register(r *Recipe) {
	if _, dup := registry[r.Name]; dup {
		panic("recipe: duplicate " + r.Name)
	}
	registry[r.Name] = r
}

// List returns every recipe, sorted by name.
func List() []*Recipe {
	out := make([]*Recipe, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns every recipe name, sorted.
func Names() []string {
	var out []string
	for _, r := range List() {
		out = append(out, r.Name)
	}
	return out
}

// ErrUsage marks errors in how a recipe was called (unknown recipe, bad
// option value, missing input): the CLI exits 2 for them.
var ErrUsage = fmt.Errorf("usage")

// UsageError is a usage error with its message.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string        { return e.Msg }
func (e *UsageError) Is(target error) bool { return target == ErrUsage }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// Lookup finds a recipe by name; an unknown name is a usage error with the
// closest name suggested.
func Lookup(name string) (*Recipe, error) {
	if r, ok := registry[name]; ok {
		return r, nil
	}
	if r, ok := registry[strings.ToLower(name)]; ok {
		return r, nil
	}
	return nil, Usagef("unknown recipe %q%s", name, nsysx.Suggest(name, Names()))
}

// HasOption reports whether the recipe takes option key (as in Options).
func (r *Recipe) HasOption(key string) bool {
	for _, k := range r.Options {
		if k == key {
			return true
		}
	}
	return false
}

// DiffName is the diff recipe's name (docs/recipes.md §2.26).
const DiffName = "diff"
