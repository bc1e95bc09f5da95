package recipes

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
)

// specOptions are the option lists of docs/recipes.md §2, typed here from
// the spec (not taken from the registry) for the parser tests.
var specOptions = map[string][]string{
	"cuda_gpu_kern_sum":      {"input", "start", "end", "csv", "filter_time", "filter_nvtx"},
	"cuda_gpu_mem_size_sum":  {"input", "csv"},
	"nvtx_gpu_proj_trace":    {"input", "start", "end", "csv", "per_gpu", "per_stream", "filter_time", "filter_nvtx", "filter_projected_nvtx"},
	"nvtx_pace":              {"input", "name", "start", "end", "filter_time", "filter_nvtx"},
	"cuda_gpu_time_util_map": {"input", "start", "end", "bins", "disable_alignment", "cumulative", "filter_time", "filter_nvtx"},
	"gpu_time_util":          {"input", "start", "end", "nvtx", "rows", "filter_time", "threshold", "chunks"},
	"gpu_gaps":               {"input", "start", "end", "nvtx", "rows", "filter_time", "gap"},
	"nccl_sum":               {"input", "start", "end", "csv"},
	"diff":                   {"input", "print_compat_recipes", "tolerance", "drop", "csv"},
}

func specRecipe(name string) *recipe.Recipe {
	return &recipe.Recipe{Name: name, Options: specOptions[name]}
}

// inputs makes two empty files and returns their paths.
func inputs(t *testing.T) (string, string, string) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "rank0.sqlite"), filepath.Join(dir, "rank1.sqlite")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, a, b
}

func str(v string) *string { return &v }
func intp(v int) *int      { return &v }

func TestParseArgsOptions(t *testing.T) {
	_, a, b := inputs(t)
	want := func(f func(o *recipe.Options)) *recipe.Options {
		o := recipe.Defaults()
		o.Input = []string{a, b}
		f(o)
		return o
	}
	tests := []struct {
		recipe string
		args   []string
		want   *recipe.Options
	}{
		{"cuda_gpu_kern_sum", []string{"--input", a, b}, want(func(o *recipe.Options) {})},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--input", b, "--csv", "--output", "out", "--force-overwrite", "--mode", "none"},
			want(func(o *recipe.Options) { o.CSV, o.Output, o.ForceOverwrite, o.Mode = true, "out", true, "none" })},
		{"cuda_gpu_kern_sum", []string{"--input=" + a, "--input", b, "--mode=dask-futures", "--workers", "3", "--strict", "--force-export"},
			want(func(o *recipe.Options) { o.Mode, o.Workers, o.Strict, o.ForceExport = "dask-futures", 3, true, true })},
		{"cuda_gpu_kern_sum", []string{"--input", a, b, "--filter-time", "100/200"},
			want(func(o *recipe.Options) {
				o.FilterTime = &recipe.TimeRange{Start: i64(100), End: i64(200)}
				o.Start, o.End = i64(100), i64(200)
			})},
		{"cuda_gpu_kern_sum", []string{"--input", a, b, "--filter-time", "1ms/"},
			want(func(o *recipe.Options) { o.FilterTime = &recipe.TimeRange{Start: i64(1000000)}; o.Start = i64(1000000) })},
		{"cuda_gpu_kern_sum", []string{"--input", a, b, "--start", "5", "--end", "9"},
			want(func(o *recipe.Options) {
				o.Start, o.End = i64(5), i64(9)
				o.FilterTime = &recipe.TimeRange{Start: i64(5), End: i64(9)}
			})},
		{"cuda_gpu_kern_sum", []string{"--input", a, b, "--start", "5", "--filter-time", "/70"},
			want(func(o *recipe.Options) { o.FilterTime = &recipe.TimeRange{End: i64(70)}; o.End = i64(70) })},
		{"cuda_gpu_kern_sum", []string{"--input", a, b, "--filter-nvtx", `fw\@d@dom/2`},
			want(func(o *recipe.Options) {
				o.FilterNVTX = &recipe.NVTXRange{Range: "fw@d", Domain: str("dom"), Index: intp(2)}
			})},
		{"nvtx_gpu_proj_trace", []string{"--input", a, b, "--per-gpu", "--filter-projected-nvtx", "step@*"},
			want(func(o *recipe.Options) {
				o.PerGPU = true
				o.FilterProjectedNVTX = &recipe.NVTXRange{Range: "step", Domain: str("*")}
			})},
		{"nvtx_gpu_proj_trace", []string{"--input", a, b, "--per-stream"}, want(func(o *recipe.Options) { o.PerStream = true })},
		{"nvtx_pace", []string{"--input", a, b, "--name", "forward"}, want(func(o *recipe.Options) { o.Name = "forward" })},
		{"cuda_gpu_time_util_map", []string{"--input", a, b, "--bins", "7", "--disable-alignment", "--cumulative"},
			want(func(o *recipe.Options) { o.Bins, o.DisableAlignment, o.Cumulative = 7, true, true })},
		{"gpu_time_util", []string{"--input", a, b, "--rows", "-1", "--threshold", "20", "--chunks", "1000", "--nvtx", "x/0"},
			want(func(o *recipe.Options) {
				o.Threshold, o.Chunks, o.NVTX = 20, 1000, &recipe.NVTXRange{Range: "x", Index: intp(0)}
			})},
		{"gpu_time_util", []string{"--input", a, b, "--rows", "10"}, want(func(o *recipe.Options) { o.Rows = 10 })},
		{"gpu_gaps", []string{"--input", a, b, "--gap", "100"}, want(func(o *recipe.Options) { o.Gap = 100 })},
		// Unambiguous prefixes, as argparse's allow_abbrev.
		{"cuda_gpu_time_util_map", []string{"--inp", a, b, "--bin", "5", "--dis", "--cum"},
			want(func(o *recipe.Options) { o.Bins, o.DisableAlignment, o.Cumulative = 5, true, true })},
		// --force is nsys's --force-overwrite, though nsysx adds --force-export.
		{"cuda_gpu_kern_sum", []string{"--input", a, b, "--force"}, want(func(o *recipe.Options) { o.ForceOverwrite = true })},
		{"cuda_gpu_kern_sum", []string{"--input", a, b, "--csv=false", "--log-level", "debug"}, want(func(o *recipe.Options) {})},
	}
	for _, tc := range tests {
		got, err := recipe.ParseArgs(specRecipe(tc.recipe), tc.args)
		if err != nil {
			t.Errorf("%s %q: %v", tc.recipe, tc.args, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %q:\n got %+v\nwant %+v", tc.recipe, tc.args, got, tc.want)
		}
	}
}

func TestParseArgsErrors(t *testing.T) {
	_, a, _ := inputs(t)
	tests := []struct {
		recipe string
		args   []string
		want   string // part of the message
	}{
		{"cuda_gpu_kern_sum", []string{"--input", a, "--bins", "5"}, "does not take --bins"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--cvs"}, "unknown option --cvs (did you mean --csv?)"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter"}, "ambiguous option --filter: could be --filter-time, --filter-nvtx"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter-time", "5/6", "--filter-nvtx", "x"}, "--filter-time and --filter-nvtx cannot be used together"},
		{"nvtx_gpu_proj_trace", []string{"--input", a, "--per-gpu", "--per-stream"}, "--per-gpu and --per-stream cannot be used together"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter-time", "6/5"}, "the start must be before the end"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter-time", "5/5"}, "the start must be before the end"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter-time", "5"}, "want [S]/[E]"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter-time", "/"}, "give a start, an end or both"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter-time", "x/5"}, "--filter-time"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--start", "9", "--end", "2"}, "--start must be before --end"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--start", "abc"}, `--start: "abc" is not an integer`},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter-nvtx", "@d"}, "empty range name"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter-nvtx", "r/x"}, "index after / must be an integer"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--filter-nvtx", "r@"}, "empty domain"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--mode", "fast"}, "--mode must be none, concurrent or dask-futures"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--output"}, "--output needs a value"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--output", "out-%x"}, "unknown substitution %x"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--output", "out-%q{NSYSX_SURELY_UNSET}"}, "NSYSX_SURELY_UNSET is not set"},
		{"cuda_gpu_kern_sum", []string{"--input"}, "--input needs at least one value"},
		{"cuda_gpu_kern_sum", []string{"--csv"}, "needs --input"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--csv", "stray"}, `unexpected argument "stray"`},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--csv=maybe"}, "--csv takes no value"},
		{"cuda_gpu_kern_sum", []string{"--input", a, "--workers", "0"}, "--workers must be at least 1"},
		{"cuda_gpu_kern_sum", []string{"--input", "/nonexistent/rank9.nsys-rep"}, "/nonexistent/rank9.nsys-rep: no such file"},
		{"cuda_gpu_time_util_map", []string{"--input", a, "--bins", "0"}, "--bins must be between 1 and 100000, not 0"},
		{"cuda_gpu_time_util_map", []string{"--input", a, "--bins", "100000000"}, "--bins must be between 1 and 100000, not 100000000"},
		{"gpu_time_util", []string{"--input", a, "--chunks", "0"}, "--chunks must be between 1 and 1000, not 0"},
		{"gpu_gaps", []string{"--input", a, "--gap", "-5"}, "--gap must be between 0 and 2147483647, not -5"},
		{"cuda_gpu_time_util_map", []string{"--input", a, "--bins", "x"}, `--bins: "x" is not an integer`},
		{"gpu_time_util", []string{"--input", a, "--chunks", "0"}, "--chunks must be between 1 and 1000"},
		{"gpu_time_util", []string{"--input", a, "--chunks", "1001"}, "--chunks must be between 1 and 1000"},
		{"gpu_time_util", []string{"--input", a, "--threshold", "-1"}, "--threshold must be between 0 and 2147483647, not -1"},
		{"gpu_time_util", []string{"--input", a, "--rows", "-2"}, "--rows must be at least -1"},
		{"gpu_gaps", []string{"--input", a, "--gap", "-1"}, "--gap must be between 0 and 2147483647, not -1"},
		{"nvtx_pace", []string{"--input", a}, "nvtx_pace needs --name"},
		{"diff", []string{"--input", a}, "diff needs --input DIR1 DIR2"},
		{"diff", []string{"--input", a, a}, "not a directory"},
		{"diff", []string{"--input", "/nonexistent1", "/nonexistent2"}, "/nonexistent1: no such directory"},
		{"diff", []string{"--tolerance", "-1"}, "--tolerance must be at least 0"},
		{"diff", []string{"--print-compat-recipes", "--input", "x", "y"}, "--input and --print-compat-recipes cannot be used together"},
	}
	for _, tc := range tests {
		_, err := recipe.ParseArgs(specRecipe(tc.recipe), tc.args)
		if err == nil {
			t.Errorf("%s %q: no error, want %q", tc.recipe, tc.args, tc.want)
			continue
		}
		if !errors.Is(err, recipe.ErrUsage) {
			t.Errorf("%s %q: %v is not a usage error", tc.recipe, tc.args, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: error %q, want it to contain %q", tc.recipe, tc.args, err, tc.want)
		}
	}
}

func TestParseArgsHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"--he"}, {"--input", "x", "--help"}} {
		if _, err := recipe.ParseArgs(specRecipe("nvtx_pace"), args); !errors.Is(err, recipe.ErrHelp) {
			t.Errorf("%q: %v, want ErrHelp", args, err)
		}
	}
}

func TestParseArgsDiff(t *testing.T) {
	d1, d2 := t.TempDir(), t.TempDir()
	o, err := recipe.ParseArgs(specRecipe("diff"), []string{"--input", d1, d2, "--tolerance", "0.5", "--drop", "--csv"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(o.Input, []string{d1, d2}) || o.Tolerance != 0.5 || !o.Drop || !o.CSV {
		t.Errorf("got %+v", o)
	}
	if o, err = recipe.ParseArgs(specRecipe("diff"), []string{"--print-compat-recipes"}); err != nil || !o.PrintCompat {
		t.Errorf("--print-compat-recipes: %+v, %v", o, err)
	}
}

func TestParseArgsWorkersEnv(t *testing.T) {
	_, a, _ := inputs(t)
	t.Setenv("NSYS_CONCURRENT_MAX_WORKERS", "5")
	o, err := recipe.ParseArgs(specRecipe("nccl_sum"), []string{"--input", a})
	if err != nil || o.Workers != 5 {
		t.Errorf("NSYS_CONCURRENT_MAX_WORKERS=5: workers %d, %v", o.Workers, err)
	}
	o, err = recipe.ParseArgs(specRecipe("nccl_sum"), []string{"--input", a, "--workers", "2"})
	if err != nil || o.Workers != 2 {
		t.Errorf("--workers 2 over the variable: workers %d, %v", o.Workers, err)
	}
}

func TestHelp(t *testing.T) {
	h := recipe.Help(&recipe.Recipe{Name: "gpu_time_util", DisplayName: "GPU Time Utilization", Options: specOptions["gpu_time_util"]})
	h = strings.Join(strings.Fields(h), " ")
	for _, want := range []string{"usage: nsysx recipe gpu_time_util", "--input PATH ...", "--threshold PCT", "(default 50)",
		"--chunks N", "--workers N", "--strict", "--force-export", "--mode none|concurrent|dask-futures"} {
		if !strings.Contains(h, want) {
			t.Errorf("help lacks %q:\n%s", want, h)
		}
	}
	for _, hidden := range []string{"--start", "--end", "--log-level", "--bins"} {
		if strings.Contains(h, hidden+" ") {
			t.Errorf("help shows %s:\n%s", hidden, h)
		}
	}
	h = strings.Join(strings.Fields(recipe.Help(specRecipe("cuda_gpu_kern_sum"))), " ")
	if !strings.Contains(h, "not with --filter-nvtx") {
		t.Errorf("help does not say that the filters exclude each other:\n%s", h)
	}
}

// FuzzParseArgs: any command line gives Options or a usage error (or
// ErrHelp), never a panic.
func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{"--input x --bins 3", "--filter-nvtx a\\@b@c/1", "--filter-time /", "--nvtx @/", "--tol -1", "--f", "-5 --rows -1", "--input=a:3"} {
		f.Add(s)
	}
	r := &recipe.Recipe{Name: "all", Options: []string{"input", "start", "end", "csv", "name", "bins", "nvtx", "rows", "per_gpu", "filter_time", "filter_nvtx", "filter_projected_nvtx", "threshold", "chunks", "gap", "tolerance", "drop"}}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := recipe.ParseArgs(r, strings.Fields(s))
		if err != nil && !errors.Is(err, recipe.ErrUsage) && !errors.Is(err, recipe.ErrHelp) {
			t.Errorf("%q: %v is not a usage error", s, err)
		}
		if err == nil && o == nil {
			t.Errorf("%q: no Options and no error", s)
		}
	})
}

// tree makes files (names ending in / are directories) under a new dir.
func tree(t *testing.T, names ...string) string {
	dir := t.TempDir()
	for _, n := range names {
		p := filepath.Join(dir, n)
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExpandInputs(t *testing.T) {
	d := tree(t, "runs/b.nsys-rep", "runs/a.nsys-rep", "runs/a.sqlite", "runs/a_pqtdir/StringIds.parquet",
		"runs/c_pqtdir/StringIds.parquet", "runs/c_arwdir/StringIds.arrow", "runs/d.qdrep", "runs/e.sqlite",
		"runs/notes.txt", "runs/.hidden.sqlite", "runs/f.tmp-export.sqlite", "runs/sub/z.nsys-rep",
		"one.sqlite", "exp/ANALYSIS_DETAILS.parquet", "exp/StringIds.parquet",
		"gz/g.sqlite", "gz/g.sqlite.gz", "gz/h.sqlite.gz", "gz/h_pqtdir/StringIds.parquet", "gz/i.sqlite.zst",
		"gz/k.sqlite.gz", "gz/k.gz", "gz/l.tar.gz")
	j := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(d, n))
		}
		return out
	}
	tests := []struct {
		args []string
		want []string
	}{
		// sorted by path; a counts once (the report); c once (the _pqtdir).
		{j("runs"), j("runs/a.nsys-rep", "runs/b.nsys-rep", "runs/c_pqtdir", "runs/d.qdrep", "runs/e.sqlite")},
		{j("runs:2"), j("runs/a.nsys-rep", "runs/b.nsys-rep")},
		{j("runs:99"), j("runs/a.nsys-rep", "runs/b.nsys-rep", "runs/c_pqtdir", "runs/d.qdrep", "runs/e.sqlite")},
		// files and export directories are kept as given, duplicates too.
		{j("one.sqlite", "runs/c_pqtdir", "one.sqlite"), j("one.sqlite", "runs/c_pqtdir", "one.sqlite")},
		{j("runs/notes.txt"), j("runs/notes.txt")},
		// a directory of tables is an export, not a directory of reports.
		{j("exp"), j("exp")},
		{j("runs/sub:1", "one.sqlite"), j("runs/sub/z.nsys-rep", "one.sqlite")},
		// compressed exports (the repository's testdata/profiles): after the
		// plain .sqlite of their stem, before its _pqtdir.
		{j("gz"), j("gz/g.sqlite", "gz/h.sqlite.gz", "gz/i.sqlite.zst", "gz/k.sqlite.gz")},
		{j("gz:2"), j("gz/g.sqlite", "gz/h.sqlite.gz")},
	}
	for _, tc := range tests {
		if got, err := recipe.ExpandInputs(tc.args); err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %q (error %v)\nwant %q", tc.args, got, err, tc.want)
		}
	}
	// ranks are ordered by stem: a compressed export's is its name's
	for in, want := range map[string]string{"a/rank1.sqlite.gz": "rank1", "rank0.SQLITE.ZST": "rank0", "r.sqlite": "r", "r_pqtdir/": "r"} {
		if got := recipe.Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExpandInputsErrors(t *testing.T) {
	d := tree(t, "one.sqlite", "empty/", "runs/a.sqlite")
	tests := []struct{ arg, want string }{
		{filepath.Join(d, "missing.nsys-rep"), "missing.nsys-rep: no such file or directory"},
		{filepath.Join(d, "one.sqlite") + ":2", ":n applies only to a directory"},
		{filepath.Join(d, "empty"), "no reports in this directory"},
		{filepath.Join(d, "runs") + ":0", "must be a positive integer"},
		{filepath.Join(d, "nodir") + ":3", "nodir: no such file or directory"},
	}
	for _, tc := range tests {
		_, err := recipe.ExpandInputs([]string{filepath.Join(d, "one.sqlite"), tc.arg})
		if err == nil || !errors.Is(err, recipe.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want a usage error with %q", tc.arg, err, tc.want)
		}
	}
}
