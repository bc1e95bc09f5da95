package recipe

// Options are a recipe run's parsed options: nsys's recipe command line
// (docs/recipes.md §1.1 and §2) plus nsysx's own (Workers, Strict,
// Progress). A recipe reads only the options it declares.
type Options struct {
	Input []string // as given or expanded, in order
	// Output is --output as given: Result.Write expands its %q{VAR}, %h,
	// %p, %n and %% (docs/recipes.md §1.6); "" = the default name.
	Output         string
	ForceOverwrite bool
	Mode           string // "none", "concurrent" (default) or "dask-futures"

	Start, End *int64 // deprecated --start/--end (nanoseconds)
	// FilterTime is --filter-time [S]/[E]; either bound may be nil.
	FilterTime *TimeRange
	// FilterNVTX and FilterProjectedNVTX are --filter-nvtx and
	// --filter-projected-nvtx; NVTX is the rule recipes' --nvtx.
	FilterNVTX, FilterProjectedNVTX, NVTX *NVTXRange

	CSV              bool
	Bins             int // default 30
	DisableAlignment bool
	Cumulative       bool
	Rows             int // rule recipes; default -1 (no limit)
	PerGPU           bool
	PerStream        bool
	Name             string // pace recipes (required there)
	Threshold        int    // gpu_time_util; default 50
	Chunks           int    // gpu_time_util; default 30 (1..1000)
	Gap              int    // gpu_gaps; ms, default 500
	Tolerance        float64
	Drop             bool
	PrintCompat      bool // diff --print-compat-recipes
	ClearOutput      bool // nsys's internal --clear-output: delete the result
	// Values holds recipe options that have no field above, by their
	// .nsys-analysis key, as the JSON value to record (for example
	// gpu_metric_util_sum's "longest_n": 100).
	Values map[string]any

	// nsysx's own.
	Workers int  // map parallelism; 0 = the CPUs
	Strict  bool // any failed report fails the run
	// ForceExport re-exports .nsys-rep inputs even when a fresh export
	// exists (for the opener).
	ForceExport bool
	// PNG asks for the charts of the output directory as PNG too (SVG and
	// Vega-Lite JSON are always written).
	PNG      bool
	Progress func(done, total int)
	// Log receives one line per skipped report or other notice.
	Log func(msg string)
	// TuneGC lets Run and Result.Write tune the Go collector while they
	// work (GCPercent, GCFloor; gc.go): settings of the whole process,
	// restored afterwards. Only a command that owns its process sets it
	// (nsysx recipe, nsysx-beam); a library caller, such as the Jupyter
	// kernel's %nsys recipe, leaves it false and the process's collector
	// alone.
	TuneGC bool
	// SpillParts lets Run write the parts of a recipe with
	// Recipe.SpillStats to temporary files (under SpillDir, else
	// os.TempDir) as their maps finish, when there are more reports than
	// workers, and stream rank_stats from them
	// when the output is written, so that memory does not grow with the
	// inputs. The Result's Output.Table then has no rank_stats frame
	// (Output.Rows reads it); Result.Close removes the files.
	SpillParts bool
	SpillDir   string
}

// TimeRange is a --filter-time window; a nil bound is open.
type TimeRange struct{ Start, End *int64 }

// NVTXRange is an NVTX range argument R[@D][/i]: Domain nil means no @D
// ("@*" is Domain "*"), Index nil means every match.
type NVTXRange struct {
	Range  string
	Domain *string
	Index  *int
}

// Defaults returns Options with nsys's defaults.
func Defaults() *Options {
	return &Options{Mode: "concurrent", Bins: 30, Rows: -1, Threshold: 50, Chunks: 30, Gap: 500}
}

// Window returns the time window the frame filters use (§1.4 step 3):
// --filter-time, or the deprecated --start/--end; S defaults to 0.
func (o *Options) Window() (s int64, e *int64) {
	switch {
	case o.FilterTime != nil:
		if o.FilterTime.Start != nil {
			s = *o.FilterTime.Start
		}
		return s, o.FilterTime.End
	case o.Start != nil || o.End != nil:
		if o.Start != nil {
			s = *o.Start
		}
		return s, o.End
	}
	return 0, nil
}
