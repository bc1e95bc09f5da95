package nsysxengine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/plots"
)

// kernelCountRecipe is a small recipe for the magic's tests: per rank and
// device, the kernels and their total time (table per_rank), and an
// all_stats-shaped table over the ranks so that it gets the stats charts.
var kernelCountRecipe = &recipe.Recipe{
	Name: "kernel_count_test", DisplayName: "Kernel Count (test)", Help: "kernels per device",
	Options: []string{"input", "csv"}, Notebook: "stats.ipynb",
	Map: func(ctx context.Context, r *recipe.Report, _ *recipe.Options, _ any) (*recipe.Part, error) {
		t, err := r.Profile.Load(ctx, "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "deviceId")
		if err != nil {
			return nil, err
		}
		count, sum := map[int64]int64{}, map[int64]int64{}
		for i := 0; i < t.N; i++ {
			d := t.Col("deviceId").Int(i)
			count[d]++
			sum[d] += t.Col("end").Int(i) - t.Col("start").Int(i)
		}
		f := &recipe.Frame{Cols: []*recipe.Column{{Name: "Device ID", Type: recipe.Int64}, {Name: "Count", Type: recipe.Int64}, {Name: "Sum", Type: recipe.Int64}}}
		for d := range count {
			f.Cols[0].IntVals, f.Cols[1].IntVals, f.Cols[2].IntVals = append(f.Cols[0].IntVals, d), append(f.Cols[1].IntVals, count[d]), append(f.Cols[2].IntVals, sum[d])
		}
		return &recipe.Part{Frames: map[string]*recipe.Frame{"k": f}}, nil
	},
	Reduce: func(_ context.Context, parts []*recipe.Part, _ *recipe.Options, _ any) (*recipe.Output, error) {
		per := &recipe.Frame{Cols: []*recipe.Column{{Name: "Rank", Type: recipe.Int64}, {Name: "Device ID", Type: recipe.Int64},
			{Name: "Count", Type: recipe.Int64}, {Name: "Sum", Type: recipe.Int64}}}
		all := &recipe.Frame{Index: recipe.NamedIndex, IndexCols: []string{"Name"}}
		for _, n := range []string{"Count", "Mean", "Min", "Q1 (approx)", "Median (approx)", "Q3 (approx)", "Max", "Sum"} {
			all.Cols = append(all.Cols, &recipe.Column{Name: n, Type: recipe.Float64})
		}
		all.Cols = append(all.Cols, &recipe.Column{Name: "Name", Type: recipe.String})
		for rank, p := range parts {
			k := p.Frames["k"]
			for i := 0; i < k.Rows(); i++ {
				row := []int64{int64(rank), k.Cols[0].IntVals[i], k.Cols[1].IntVals[i], k.Cols[2].IntVals[i]}
				for j, v := range row {
					per.Cols[j].IntVals = append(per.Cols[j].IntVals, v)
				}
				s := float64(row[3])
				for j := 0; j < 8; j++ {
					all.Cols[j].FloatVals = append(all.Cols[j].FloatVals, s)
				}
				all.Cols[8].Strs = append(all.Cols[8].Strs, fmt.Sprintf("rank %d device %d", rank, row[1]))
			}
		}
		return &recipe.Output{Tables: []recipe.Table{{Name: "per_rank", Frame: per}, {Name: "all_stats", Frame: all}}}, nil
	},
}

func init() { recipe.Register(kernelCountRecipe) }

// kernelTotals is the per-device kernel count and time of a profile, by
// SQL on the file.
func kernelTotals(t *testing.T, name string) map[int64][2]int64 {
	t.Helper()
	db, err := sqlite3.Open("file:" + testutil.Profile(t, name) + "?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, _, err := db.Prepare(`select deviceId, count(*), sum("end" - start) from CUPTI_ACTIVITY_KIND_KERNEL group by deviceId`)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := map[int64][2]int64{}
	for s.Step() {
		out[s.ColumnInt64(0)] = [2]int64{s.ColumnInt64(1), s.ColumnInt64(2)}
	}
	return out
}

func TestMagicRecipe(t *testing.T) {
	e := openEngine(t, "rank1")
	cell(t, e, "%open sample") // not a file: left out of the session's inputs
	cell(t, e, "%open "+gz("rank0"))
	r := cell(t, e, "%nsys recipe kernel_count_test")
	// progress, the two tables, the stats box chart (no rank_stats: no per-rank chart)
	if len(r.Displays) != 4 {
		t.Fatalf("%d displays", len(r.Displays))
	}
	id := r.Displays[0].ID
	var texts []string
	for _, u := range r.Updates {
		if u.ID != id {
			t.Errorf("update of display %q, not the progress %q", u.ID, id)
		}
		texts = append(texts, u.Data["text/plain"].(string))
	}
	if len(texts) != 3 || texts[0] != "running 1/2: kernel_count_test…" || texts[1] != "running 2/2: kernel_count_test…" ||
		!strings.HasPrefix(texts[2], "kernel_count_test: 2 report(s) in ") {
		t.Errorf("progress %q", texts)
	}
	per := r.Displays[1].Data
	if !strings.Contains(per["text/html"].(string), "<b>per_rank</b>") || !strings.HasPrefix(per["text/plain"].(string), "per_rank: ") {
		t.Errorf("table display %v", per["text/plain"])
	}
	for _, d := range r.Displays[3:] {
		if d.Data[plots.MIMEPNG] == nil || d.Data[plots.MIMEVegaLite] == nil {
			t.Errorf("chart display without PNG or Vega-Lite: %v", d.Data[plots.MIMEPlainText])
		}
	}
	// the rows, in Rank order (rank0 before rank1 whatever the input order),
	// are the SQL totals; the result is left in recipeResult
	var want []string
	for rank, p := range []string{"rank0", "rank1"} {
		for dev, v := range kernelTotals(t, p) {
			want = append(want, fmt.Sprintf("%d %d %d %d", rank, dev, v[0], v[1]))
		}
	}
	sort.Strings(want)
	got := cell(t, e, `import "fmt"
rows := ""
f := recipeResult.Output.Table("per_rank")
for i := 0; i < f.Rows(); i++ { rows += fmt.Sprintln(f.Cols[0].IntVals[i], f.Cols[1].IntVals[i], f.Cols[2].IntVals[i], f.Cols[3].IntVals[i]) }
rows`).result(t)["text/plain"].(string)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	sort.Strings(lines)
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("per_rank rows %q, want %q", lines, want)
	}
	if got := cell(t, e, `recipeResult.Files[0] + "," + recipeResult.Files[1]`).result(t)["text/plain"]; got != "rank0,rank1" {
		t.Errorf("files %v", got)
	}
	// the recipe package is imported in cells
	if got := cell(t, e, `r, _ := recipe.Lookup("kernel_count_test")
r.DisplayName`).result(t)["text/plain"]; got != "Kernel Count (test)" {
		t.Errorf("recipe package in cells: %v", got)
	}
	// a table value in a cell shows as a table
	if h, _ := cell(t, e, `recipeResult.Output.Table("per_rank")`).result(t)["text/html"].(string); !strings.Contains(h, "<table") {
		t.Errorf("frame display %q", h)
	}
}

// --input takes %open names and files; -v names the variable.
func TestMagicRecipeInputAndVar(t *testing.T) {
	e := openEngine(t, "rank0 as r0", "train")
	cell(t, e, "%nsys recipe kernel_count_test --input r0 "+gz("rank1")+" -v kc")
	if got := cell(t, e, `kc.Files[0] + "," + kc.Files[1]`).result(t)["text/plain"]; got != "rank0,rank1" {
		t.Errorf("files %v", got)
	}
	if got := cell(t, e, `len(kc.Opts.Input)`).result(t)["text/plain"]; got != "2" {
		t.Errorf("inputs %v", got)
	}
}

func TestMagicRecipeErrors(t *testing.T) {
	e := newEngine(t)
	// no input, nothing open (the cases below open profiles)
	if _, err := tryCell(t, e, "%nsys recipe kernel_count_test"); errName(err) != "UsageError" || !strings.Contains(err.Error(), "no input") {
		t.Errorf("no input: %v", err)
	}
	if _, err := tryCell(t, e, "%nsys recipe kernel_count_test --input sample"); errName(err) != "UsageError" || !strings.Contains(err.Error(), "sample") {
		t.Errorf("--input sample: %v", err)
	}
	for code, want := range map[string]string{
		"%nsys recipe kernel_cuont_test":                                         "did you mean kernel_count_test?",
		"%nsys recipe kernel_count_test --bins 3 --input " + gz("rank0"):         "does not take --bins",
		"%nsys recipe kernel_count_test --input " + gz("rank0") + " --inptu":     "did you mean --input?",
		"%nsys recipe kernel_count_test --input " + gz("rank0") + " --mode fast": "--mode",
		"%nsys recipe kernel_count_test -v 1x":                                   "not a Go variable name",
		"%nsys recipe kernel_count_test --var":                                   "needs a variable name",
		"%nsys recipe kernel_count_test --input /no/such.sqlite":                 "no such file",
	} {
		_, err := tryCell(t, e, code)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line with %q", code, err, want)
		}
		if n := errName(err); n != "UsageError" && n != "OpenError" {
			t.Errorf("%q: error %s", code, n)
		}
	}
	r := cell(t, e, "%nsys recipe --help")
	if !strings.Contains(r.Out.String(), "recipeResult") || len(r.Displays) != 1 ||
		!strings.Contains(r.Displays[0].Data["text/plain"].(string), "kernel_count_test") {
		t.Errorf("help: %q %v", r.Out.String(), r.Displays)
	}
	if r := cell(t, e, "%nsys recipe kernel_count_test --help"); !strings.Contains(r.Out.String(), "--csv") {
		t.Errorf("recipe help %q", r.Out.String())
	}
}

func TestMagicRecipeCompletion(t *testing.T) {
	e := newEngine(t)
	k, err := kernel.New(e)
	if err != nil {
		t.Fatal(err)
	}
	cell(t, e, "%open "+gz("rank0")+" as r0")
	for code, want := range map[string][]string{
		"%nsys rec":                                  {"recipe"},
		"%nsys recipe kernel_co":                     {"kernel_count_test"},
		"%nsys recipe kernel_count_test --":          {"--input", "--csv", "--mode", "--var", "--force-overwrite"},
		"%nsys recipe kernel_count_test --mode c":    {"concurrent"},
		"%nsys recipe kernel_count_test --input r":   {"r0"},
		"%nsys recipe kernel_count_test --input x r": {"r0"},
	} {
		got := complete(t, k, e, code)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %v, want %s", code, got, w)
			}
		}
	}
	if got := complete(t, k, e, "%nsys recipe kernel_count_test --"); slices.Contains(got, "--bins") {
		t.Errorf("offers an option the recipe does not take: %v", got)
	}
}

// A real recipe through the magic: the tables left in the variable are
// nsys's (the golden Parquet files, read with pyframe.ReadParquet), each is
// shown with its row count, then the stats charts.
func TestMagicRecipeKernSum(t *testing.T) {
	e := openEngine(t, "rank0", "rank1")
	r := cell(t, e, "%nsys recipe cuda_gpu_kern_sum -v k")
	res := e.recipeResult("k")
	if res == nil || res.Output == nil {
		t.Fatal("no result in k")
	}
	if want := 1 + len(res.Output.Tables) + 2; len(r.Displays) != want {
		t.Fatalf("%d displays, want %d", len(r.Displays), want)
	}
	checkGoldenTables(t, r, res, "rank0+rank1/cuda_gpu_kern_sum")
	for _, d := range r.Displays[len(r.Displays)-2:] {
		if d.Data[plots.MIMEPNG] == nil || d.Data[plots.MIMEVegaLite] == nil {
			t.Errorf("chart display: %v", d.Data[plots.MIMEPlainText])
		}
	}
}

// --output writes the directory as nsysx recipe does; it is refused when
// it exists without --force-overwrite.
func TestMagicRecipeOutput(t *testing.T) {
	e := newEngine(t)
	dir := filepath.Join(t.TempDir(), "kc")
	r := cell(t, e, "%nsys recipe kernel_count_test --input "+gz("rank0")+" --output "+dir)
	if !strings.Contains(r.Out.String(), "Generated:\n    "+dir) {
		t.Errorf("stdout %q", r.Out.String())
	}
	for _, f := range []string{"per_rank.parquet", "all_stats.parquet", "kc.nsys-analysis", "stats.ipynb", "kernel_count_test-stats.svg", "kernel_count_test-stats.vl.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	_, err := tryCell(t, e, "%nsys recipe kernel_count_test --input "+gz("rank0")+" --output "+dir)
	if errName(err) != "RecipeError" || !strings.Contains(err.Error(), "--force-overwrite") {
		t.Errorf("existing output: %v", err)
	}
	cell(t, e, "%nsys recipe kernel_count_test --input "+gz("rank0")+" --output "+dir+" --force-overwrite")
}

// checkGoldenTables compares every output table (and its display's row
// count) with nsys's golden Parquet file of the same name.
func checkGoldenTables(t *testing.T, r *recorder, res *recipe.Result, rel string) {
	t.Helper()
	for i, tb := range res.Output.Tables {
		golden, err := pyframe.ReadParquet(filepath.Join(testutil.Root(), "testdata", "golden", "recipes", rel, tb.Name+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		text := r.Displays[1+i].Data["text/plain"].(string)
		if head := fmt.Sprintf("%s: %s", tb.Name, rowCount(golden.Rows())); !strings.HasPrefix(text, head) {
			t.Errorf("display %d starts %q, want %q", i, strings.SplitN(text, "\n", 2)[0], head)
		}
		for _, gc := range golden.Cols {
			c := tb.Frame.Find(gc.Name)
			if c == nil {
				t.Fatalf("%s %s: no column %s", rel, tb.Name, gc.Name)
			}
			for j := 0; j < golden.Rows(); j++ {
				if frameCell(c, j) != frameCell(gc, j) {
					t.Fatalf("%s %s %s row %d: %s, golden %s", rel, tb.Name, gc.Name, j, frameCell(c, j), frameCell(gc, j))
				}
			}
		}
	}
}

// The heatmap and pace recipes through the magic: nsys's tables, then
// their charts (one heatmap; progress and delta).
func TestMagicRecipeMapsAndPace(t *testing.T) {
	e := openEngine(t, "rank0", "rank1")
	for _, tc := range []struct {
		code, rel string
		charts    int
	}{
		{"%nsys recipe nccl_gpu_time_util_map -v m", "rank0+rank1/nccl_gpu_time_util_map", 1},
		{"%nsys recipe nvtx_pace --name forward -v m", "rank0+rank1/nvtx_pace", 2},
	} {
		r := cell(t, e, tc.code)
		res := e.recipeResult("m")
		if want := 1 + len(res.Output.Tables) + tc.charts; len(r.Displays) != want {
			t.Fatalf("%s: %d displays, want %d", tc.code, len(r.Displays), want)
		}
		checkGoldenTables(t, r, res, tc.rel)
		for _, d := range r.Displays[len(r.Displays)-tc.charts:] {
			if d.Data[plots.MIMEPNG] == nil || d.Data[plots.MIMEVegaLite] == nil {
				t.Errorf("%s: chart display %v", tc.code, d.Data[plots.MIMEPlainText])
			}
		}
	}
}

// A run without data says so as nsys does, and is no error.
func TestMagicRecipeNoData(t *testing.T) {
	e := openEngine(t, "train")
	r := cell(t, e, "%nsys recipe nccl_sum")
	if !strings.Contains(r.Out.String(), "No output generated.") || len(r.Displays) != 1 {
		t.Errorf("stdout %q, %d displays", r.Out.String(), len(r.Displays))
	}
	if got := cell(t, e, "recipeResult.Output == nil").result(t)["text/plain"]; got != "true" {
		t.Errorf("recipeResult.Output == nil: %v", got)
	}
}

// slowRecipe maps until its context is cancelled.
var slowRecipe = &recipe.Recipe{
	Name: "slow_test", DisplayName: "Slow (test)", Help: "waits for an interrupt", Options: []string{"input"},
	Map: func(ctx context.Context, _ *recipe.Report, _ *recipe.Options, _ any) (*recipe.Part, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	},
	Reduce: func(context.Context, []*recipe.Part, *recipe.Options, any) (*recipe.Output, error) {
		return &recipe.Output{}, nil
	},
}

func init() { recipe.Register(slowRecipe) }

// An interrupt stops %nsys recipe at once; the kernel keeps working.
func TestMagicRecipeInterrupt(t *testing.T) {
	e := openEngine(t, "rank0")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	err := runCode(ctx, e, "%nsys recipe slow_test", &recorder{})
	if !errors.Is(err, context.Canceled) && !strings.Contains(fmt.Sprint(err), "interrupt") {
		t.Errorf("interrupted recipe: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if got := cell(t, e, "1 + 1").result(t)["text/plain"]; got != "2" {
		t.Errorf("after the interrupt: %v", got)
	}
}

// frameCell is row i of c as the display shows it (its Result cell's
// text).
func frameCell(c *recipe.Column, i int) string {
	return (&recipe.Frame{Cols: []*recipe.Column{c}}).Result("", "").Cols[0].Text(i)
}
