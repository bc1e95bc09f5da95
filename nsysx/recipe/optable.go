package recipe

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// Opt is one recipe option: its .nsys-analysis key, its command-line flag,
// the help text, and how its values are stored into Options. The table
// below holds every option of `nsys recipe` (docs/recipes.md §1.1 and §2)
// plus nsysx's own; a recipe takes the common ones, nsysx's, and the keys
// it lists in Recipe.Options.
type Opt struct {
	Key     string // .nsys-analysis key ("filter_time"); "" for nsysx's own
	Flag    string // "--filter-time"
	Meta    string // value placeholder in help ("[S]/[E]"); "" for a flag
	Help    string
	Default string // shown in help; "" for none
	// Group names a mutually exclusive group ("filter", "per", "input").
	Group  string
	Hidden bool // --start/--end: accepted, not listed
	// Nsys marks nsys's own options (they win abbreviation ties).
	Nsys bool
	// Many: the option takes one or more values (--input).
	Many bool
	set  func(o *Options, vals []string) error
}

// TakesValue reports whether the option takes a value.
func (op *Opt) TakesValue() bool { return op.Meta != "" }

const nvtxHelp = "NVTX range R, in domain D when given (@* for every domain), the i-th match (0-based) when /i is given; escape @ and / in names with \\"

// Options common to every recipe, before the recipe's own (§1.6 key order).
var commonHead = []string{"output", "force_overwrite"}

// Options common to every recipe, after the recipe's own.
var commonTail = []string{"mode"}

// nsysx's own options, taken by every recipe (no .nsys-analysis key).
var ownFlags = []string{"--workers", "--strict", "--force-export", "--png", "--clear-output", "--log-level", "--log-stream", "--help"}

// optTable is every option, by key (nsys's) or flag (nsysx's).
var optTable = []*Opt{
	{Key: "input", Flag: "--input", Meta: "PATH", Many: true, Nsys: true, Group: "input",
		Help: "reports: .nsys-rep/.qdrep (exported once with nsys and cached), .sqlite, *_pqtdir, *_arwdir, or directories of them; DIR:n keeps the first n of a directory",
		set:  func(o *Options, v []string) error { o.Input = append(o.Input, v...); return nil }},
	{Key: "output", Flag: "--output", Meta: "DIR", Nsys: true,
		Help: "output directory; %q{VAR} = environment variable, %h = host name, %p = process id, %n = the smallest positive integer that makes the name new, %% = % (default <recipe>-N)",
		set:  func(o *Options, v []string) error { o.Output = v[0]; return nil }},
	boolOpt(Opt{Key: "force_overwrite", Flag: "--force-overwrite", Nsys: true,
		Help: "replace an existing --output directory"}, func(o *Options) *bool { return &o.ForceOverwrite }),
	{Key: "mode", Flag: "--mode", Meta: "none|concurrent|dask-futures", Default: "concurrent", Nsys: true,
		Help: "none: one report at a time; concurrent and dask-futures: --workers reports at a time",
		set:  setMode},
	{Key: "start", Flag: "--start", Meta: "NS", Hidden: true, Nsys: true,
		Help: "deprecated: start of the time window (use --filter-time)",
		set:  func(o *Options, v []string) error { return setInt64P(&o.Start, "--start", v[0]) }},
	{Key: "end", Flag: "--end", Meta: "NS", Hidden: true, Nsys: true,
		Help: "deprecated: end of the time window (use --filter-time)",
		set:  func(o *Options, v []string) error { return setInt64P(&o.End, "--end", v[0]) }},
	boolOpt(Opt{Key: "csv", Flag: "--csv", Nsys: true,
		Help: "also write a CSV twin of every Parquet output"}, func(o *Options) *bool { return &o.CSV }),
	{Key: "name", Flag: "--name", Meta: "NAME", Nsys: true,
		Help: "required: the NVTX range or kernel name whose instances make the iterations",
		set:  func(o *Options, v []string) error { o.Name = v[0]; return nil }},
	{Key: "bins", Flag: "--bins", Meta: "N", Default: "30", Nsys: true,
		Help: fmt.Sprintf("number of time bins (1 to %d)", MaxBins),
		set:  func(o *Options, v []string) error { return setIntRange(&o.Bins, "--bins", v[0], 1, MaxBins) }},
	boolOpt(Opt{Key: "disable_alignment", Flag: "--disable-alignment", Nsys: true,
		Help: "do not align the reports' sessions on their UTC start times"}, func(o *Options) *bool { return &o.DisableAlignment }),
	boolOpt(Opt{Key: "cumulative", Flag: "--cumulative", Nsys: true,
		Help: "add up overlapping kernels instead of merging them (utilization can exceed 100%)"}, func(o *Options) *bool { return &o.Cumulative }),
	{Key: "nvtx", Flag: "--nvtx", Meta: "R[@D][/i]", Nsys: true,
		Help: "restrict the rule to the time and thread of an NVTX range: " + nvtxHelp,
		set:  func(o *Options, v []string) error { return setNVTX(&o.NVTX, "--nvtx", v[0]) }},
	{Key: "rows", Flag: "--rows", Meta: "N", Default: "-1", Nsys: true,
		Help: "maximum number of rows per report (-1: no limit)",
		set:  func(o *Options, v []string) error { return setIntRange(&o.Rows, "--rows", v[0], -1, noMax) }},
	boolOpt(Opt{Key: "per_gpu", Flag: "--per-gpu", Group: "per", Nsys: true,
		Help: "project NVTX ranges per GPU"}, func(o *Options) *bool { return &o.PerGPU }),
	boolOpt(Opt{Key: "per_stream", Flag: "--per-stream", Group: "per", Nsys: true,
		Help: "project NVTX ranges per stream of each GPU"}, func(o *Options) *bool { return &o.PerStream }),
	{Key: "filter_time", Flag: "--filter-time", Meta: "[S]/[E]", Group: "filter", Nsys: true,
		Help: "keep events inside this window (nanoseconds in each report's own time base; 1s, 20ms ... also work)",
		set:  setFilterTime},
	{Key: "filter_nvtx", Flag: "--filter-nvtx", Meta: "R[@D][/i]", Group: "filter", Nsys: true,
		Help: "keep events overlapping an NVTX range: " + nvtxHelp,
		set:  func(o *Options, v []string) error { return setNVTX(&o.FilterNVTX, "--filter-nvtx", v[0]) }},
	{Key: "filter_projected_nvtx", Flag: "--filter-projected-nvtx", Meta: "R[@D][/i]", Group: "filter", Nsys: true,
		Help: "keep events overlapping an NVTX range projected onto the GPU: " + nvtxHelp,
		set: func(o *Options, v []string) error {
			return setNVTX(&o.FilterProjectedNVTX, "--filter-projected-nvtx", v[0])
		}},
	{Key: "threshold", Flag: "--threshold", Meta: "PCT", Default: "50", Nsys: true,
		Help: "report chunks where the GPU is in use less than this percentage of the time",
		set:  func(o *Options, v []string) error { return setRuleRange(&o.Threshold, "threshold", v[0]) }},
	{Key: "chunks", Flag: "--chunks", Meta: "N", Default: "30", Nsys: true,
		Help: "number of equal-duration chunks per GPU and process (1 to 1000)",
		set:  func(o *Options, v []string) error { return setRuleRange(&o.Chunks, "chunks", v[0]) }},
	{Key: "gap", Flag: "--gap", Meta: "MS", Default: "500", Nsys: true,
		Help: "minimum GPU gap to report, in milliseconds",
		set:  func(o *Options, v []string) error { return setRuleRange(&o.Gap, "gap", v[0]) }},
	boolOpt(Opt{Key: "print_compat_recipes", Flag: "--print-compat-recipes", Group: "input", Nsys: true,
		Help: "list the recipes whose outputs diff can compare"}, func(o *Options) *bool { return &o.PrintCompat }),
	{Key: "tolerance", Flag: "--tolerance", Meta: "T", Default: "0", Nsys: true,
		Help: "write differences whose magnitude is at most T as 0",
		set:  setTolerance},
	boolOpt(Opt{Key: "drop", Flag: "--drop", Nsys: true,
		Help: "leave out rows whose differences are all zero"}, func(o *Options) *bool { return &o.Drop }),
	// gpu_metric_util_sum's own (recorded in Options.Values).
	{Key: "per_projected_nvtx", Flag: "--per-projected-nvtx", Nsys: true,
		Help: "statistics per projected NVTX range (not supported by nsysx)",
		set: func(o *Options, v []string) error {
			return setValueBool(o, "per_projected_nvtx", "--per-projected-nvtx", v)
		}},
	{Key: "per_kernel", Flag: "--per-kernel", Nsys: true,
		Help: "statistics per kernel (not supported by nsysx)",
		set:  func(o *Options, v []string) error { return setValueBool(o, "per_kernel", "--per-kernel", v) }},
	{Key: "match_ranges", Flag: "--match-ranges", Meta: "RANGES", Nsys: true,
		Help: "NVTX ranges to match (not supported by nsysx)",
		set:  func(o *Options, v []string) error { setValue(o, "match_ranges", v[0]); return nil }},
	{Key: "longest_n", Flag: "--longest-n", Meta: "N", Default: "100", Nsys: true,
		Help: "number of longest kernels or ranges to keep",
		set: func(o *Options, v []string) error {
			var n int
			if err := setIntRange(&n, "--longest-n", v[0], 1, noMax); err != nil {
				return err
			}
			setValue(o, "longest_n", n)
			return nil
		}},

	// nsysx's own.
	{Flag: "--workers", Meta: "N", Default: "the number of CPUs",
		Help: "reports mapped at once (nsys: NSYS_CONCURRENT_MAX_WORKERS, also read)",
		set:  func(o *Options, v []string) error { return setIntRange(&o.Workers, "--workers", v[0], 1, noMax) }},
	boolOpt(Opt{Flag: "--strict",
		Help: "fail (exit 1) when any report cannot be read, instead of skipping it"}, func(o *Options) *bool { return &o.Strict }),
	boolOpt(Opt{Flag: "--force-export",
		Help: "re-export .nsys-rep reports even if a fresh export exists"}, func(o *Options) *bool { return &o.ForceExport }),
	boolOpt(Opt{Flag: "--png",
		Help: "also write the charts as PNG (HiDPI); SVG and Vega-Lite JSON are always written"}, func(o *Options) *bool { return &o.PNG }),
	boolOpt(Opt{Flag: "--clear-output", Hidden: true, Nsys: true,
		Help: "delete the output directory after the run (nsys's internal test flag)"}, func(o *Options) *bool { return &o.ClearOutput }),
	{Flag: "--log-level", Meta: "LEVEL", Hidden: true, Nsys: true,
		Help: "accepted for nsys compatibility; ignored",
		set:  func(*Options, []string) error { return nil }},
	{Flag: "--log-stream", Meta: "STREAM", Hidden: true, Nsys: true,
		Help: "accepted for nsys compatibility; ignored",
		set:  func(*Options, []string) error { return nil }},
	{Flag: "--help",
		Help: "show this help",
		set:  func(*Options, []string) error { return ErrHelp }},
}

// OptionByKey returns the option with .nsys-analysis key k, or nil.
func OptionByKey(k string) *Opt {
	for _, op := range optTable {
		if op.Key != "" && op.Key == k {
			return op
		}
	}
	return nil
}

func optionByFlag(f string) *Opt {
	for _, op := range optTable {
		if op.Flag == f {
			return op
		}
	}
	return nil
}

// RecipeOptions lists the options recipe r takes, in help order: the
// recipe's own (Recipe.Options), output, force_overwrite, mode, then nsysx's
// own.
func RecipeOptions(r *Recipe) []*Opt {
	var out []*Opt
	for _, k := range r.Options {
		if op := OptionByKey(k); op != nil {
			out = append(out, op)
		}
	}
	for _, k := range commonHead {
		out = append(out, OptionByKey(k))
	}
	for _, k := range commonTail {
		out = append(out, OptionByKey(k))
	}
	for _, f := range ownFlags {
		out = append(out, optionByFlag(f))
	}
	return out
}

// boolOpt is op taking no value or true/false (see setBool), stored in
// *field(o).
func boolOpt(op Opt, field func(o *Options) *bool) *Opt {
	op.set = func(o *Options, v []string) error { return setBool(field(o), op.Flag, v) }
	return &op
}

func setBool(dst *bool, flag string, v []string) error {
	if len(v) == 0 || v[0] == "" {
		*dst = true
		return nil
	}
	switch strings.ToLower(v[0]) {
	case "true", "1", "yes":
		*dst = true
	case "false", "0", "no":
		*dst = false
	default:
		return Usagef("%s takes no value (or true/false), not %q", flag, v[0])
	}
	return nil
}

// setValue records a recipe option that has no Options field.
func setValue(o *Options, key string, v any) {
	if o.Values == nil {
		o.Values = map[string]any{}
	}
	o.Values[key] = v
}

func setValueBool(o *Options, key, flag string, v []string) error {
	var b bool
	if err := setBool(&b, flag, v); err != nil {
		return err
	}
	setValue(o, key, b)
	return nil
}

func parseInt(flag, s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, Usagef("%s: %q is not an integer", flag, s)
	}
	return n, nil
}

func setInt64P(dst **int64, flag, s string) error {
	n, err := parseInt(flag, s)
	if err != nil {
		return err
	}
	*dst = &n
	return nil
}

// noMax is setIntRange's "no upper bound".
const noMax = 1 << 31

// setIntRange parses an integer in [lo, hi].
// MaxBins is the most --bins a heatmap recipe takes: every bin costs
// memory per GPU and rank, and 100 000 bins already resolve a day-long
// session to the second (--bins 100000000 ran to 13 GB; nsys takes any).
const MaxBins = 100_000

// setRuleRange sets an option that a rule shares with its recipe, in the
// range both accept (nsysx.RuleOptionRange).
func setRuleRange(dst *int, key, s string) error {
	lo, hi, _ := nsysx.RuleOptionRange(key)
	return setIntRange(dst, "--"+key, s, int(lo), int(hi))
}

func setIntRange(dst *int, flag, s string, lo, hi int) error {
	n, err := parseInt(flag, s)
	if err != nil {
		return err
	}
	switch {
	case hi < noMax && (n < int64(lo) || n > int64(hi)):
		return Usagef("%s must be between %d and %d, not %d", flag, lo, hi, n)
	case n < int64(lo):
		return Usagef("%s must be at least %d, not %d", flag, lo, n)
	case n >= noMax:
		return Usagef("%s: %d is too large", flag, n)
	}
	*dst = int(n)
	return nil
}

func setMode(o *Options, v []string) error {
	switch v[0] {
	case "none", "concurrent", "dask-futures":
		o.Mode = v[0]
		return nil
	}
	return Usagef("--mode must be none, concurrent or dask-futures, not %q", v[0])
}

func setTolerance(o *Options, v []string) error {
	t, err := strconv.ParseFloat(strings.TrimSpace(v[0]), 64)
	if err != nil || t != t {
		return Usagef("--tolerance: %q is not a number", v[0])
	}
	if t < 0 {
		return Usagef("--tolerance must be at least 0, not %s", v[0])
	}
	o.Tolerance = t
	return nil
}

func setNVTX(dst **NVTXRange, flag, s string) error {
	r, err := ParseNVTXRange(s)
	if err != nil {
		return Usagef("%s: %v", flag, err)
	}
	*dst = r
	return nil
}

// ParseNVTXRange parses R[@D][/i]: a backslash escapes the next character;
// the last unescaped / starts the index and the first unescaped @ before it
// the domain.
func ParseNVTXRange(s string) (*NVTXRange, error) {
	type ch struct {
		c   byte
		esc bool
	}
	var cs []ch
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			cs = append(cs, ch{s[i], true})
			continue
		}
		cs = append(cs, ch{s[i], false})
	}
	text := func(cs []ch) string {
		b := make([]byte, len(cs))
		for i, c := range cs {
			b[i] = c.c
		}
		return string(b)
	}
	r := &NVTXRange{}
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].c == '/' && !cs[i].esc {
			n, err := strconv.Atoi(text(cs[i+1:]))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%q: the index after / must be an integer ≥ 0", s)
			}
			r.Index, cs = &n, cs[:i]
			break
		}
	}
	for i, c := range cs {
		if c.c == '@' && !c.esc {
			d := text(cs[i+1:])
			if d == "" {
				return nil, fmt.Errorf("%q: empty domain after @", s)
			}
			r.Domain, cs = &d, cs[:i]
			break
		}
	}
	if r.Range = text(cs); r.Range == "" {
		return nil, fmt.Errorf("%q: empty range name (want R[@D][/i])", s)
	}
	return r, nil
}
