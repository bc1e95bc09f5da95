package recipes

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/pqcompare"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// schemaCase is one run whose written tables testdata/recipes/schemas.tsv
// describes; variant names the option that changes the columns.
type schemaCase struct {
	variant, recipe string
	set             func(*recipe.Options)
	profiles        []string // testdata/profiles stems
	fixtures        []string // testdata/fixtures names
}

var schemaCases = []schemaCase{
	{"", "cuda_api_sum", nil, []string{"train", "fixed"}, nil},
	{"", "cuda_api_sync", nil, []string{"train", "fixed"}, nil},
	{"", "cuda_gpu_kern_hist", nil, []string{"train", "fixed"}, nil},
	{"", "cuda_gpu_kern_pace", func(o *recipe.Options) { o.Name = "Kernel2" }, []string{"fixed", "rank0", "rank1"}, nil},
	{"padded", "cuda_gpu_kern_pace", func(o *recipe.Options) { o.Name = "elementwise_kernel" }, []string{"train", "fixed"}, nil},
	{"", "cuda_gpu_kern_sum", nil, []string{"train", "fixed"}, nil},
	{"", "cuda_gpu_mem_size_sum", nil, []string{"train", "fixed"}, nil},
	{"", "cuda_gpu_mem_time_sum", nil, []string{"train", "fixed"}, nil},
	{"", "cuda_gpu_time_util_map", nil, []string{"train", "fixed"}, nil},
	{"", "cuda_memcpy_async", nil, []string{"train", "fixed"}, nil},
	{"", "cuda_memcpy_sync", nil, []string{"sync", "train", "fixed", "bt", "cnn"}, nil},
	{"", "cuda_memset_sync", nil, []string{"sync", "train", "fixed", "bt", "cnn"}, nil},
	{"", "diff", nil, nil, nil},
	{"", "gpu_gaps", func(o *recipe.Options) { o.Gap = 1 }, []string{"fixed", "sync"}, nil},
	{"", "gpu_metric_util_map", nil, []string{"bt"}, nil},
	{"", "gpu_metric_util_sum", nil, []string{"bt"}, nil},
	{"", "gpu_time_util", nil, []string{"train", "fixed"}, nil},
	{"", "mpi_gpu_time_util_map", nil, nil, []string{"mpi_early", "mpi_late"}},
	{"", "mpi_sum", nil, nil, []string{"recipe_mpi_a", "recipe_mpi_b"}},
	{"", "nccl_gpu_overlap_trace", nil, []string{"rank0", "rank1"}, nil},
	{"", "nccl_gpu_proj_sum", nil, []string{"rank0", "rank1"}, nil},
	{"", "nccl_gpu_time_util_map", nil, []string{"rank0", "rank1"}, nil},
	{"", "nccl_sum", nil, []string{"rank0", "rank1"}, nil},
	{"", "nvtx_gpu_proj_pace", func(o *recipe.Options) { o.Name = "forward" }, []string{"rank0", "rank1"}, nil},
	{"", "nvtx_gpu_proj_sum", nil, []string{"train", "fixed"}, nil},
	{"graph", "nvtx_gpu_proj_sum", nil, nil, []string{"recipe_graph"}},
	{"", "nvtx_gpu_proj_trace", nil, []string{"rank0", "rank1"}, nil},
	{"graph", "nvtx_gpu_proj_trace", nil, nil, []string{"recipe_graph"}},
	{"per_gpu", "nvtx_gpu_proj_trace", func(o *recipe.Options) { o.PerGPU = true }, []string{"rank0", "rank1"}, nil},
	{"per_stream", "nvtx_gpu_proj_trace", func(o *recipe.Options) { o.PerStream = true }, []string{"rank0", "rank1"}, nil},
	{"", "nvtx_pace", func(o *recipe.Options) { o.Name = "forward" }, []string{"rank0", "rank1"}, nil},
	{"", "nvtx_sum", nil, []string{"train", "fixed"}, nil},
	{"", "osrt_sum", nil, []string{"train", "fixed"}, nil},
}

// TestSchemasMatchSpec runs every recipe (and each option that changes
// a table's columns) and compares the column names, their physical order
// and Arrow types of every Parquet file it writes with
// testdata/recipes/schemas.tsv, transcribed from nsys's recipe spec. It
// covers the recipes and tables no nsys golden exists for.
func TestSchemasMatchSpec(t *testing.T) {
	want := readSpecSchemas(t)
	cases, recipes := map[string]bool{}, map[string]bool{}
	for _, c := range schemaCases {
		cases[c.recipe+"/"+c.variant], recipes[c.recipe] = true, true
	}
	for _, name := range recipe.Names() {
		if !recipes[name] {
			t.Errorf("recipe %s has no case in schemaCases", name)
		}
	}
	for key := range want {
		if !cases[key] {
			t.Errorf("schemas.tsv lists %s, which no case runs", key)
		}
	}
	for _, c := range schemaCases {
		key := c.recipe + "/" + c.variant
		t.Run(key, func(t *testing.T) {
			got := writtenSchemas(t, c)
			var tables []string
			for tbl := range want[key] {
				tables = append(tables, tbl)
			}
			for tbl := range got {
				if want[key][tbl] == nil {
					tables = append(tables, tbl)
				}
			}
			sort.Strings(tables)
			for _, tbl := range tables {
				if g, w := strings.Join(got[tbl], "\n  "), strings.Join(want[key][tbl], "\n  "); g != w {
					t.Errorf("%s: columns\n  %s\nwant (spec)\n  %s", tbl, g, w)
				}
			}
		})
	}
}

// readSpecSchemas reads testdata/recipes/schemas.tsv: recipe/variant →
// table → "column type" lines in order.
func readSpecSchemas(t *testing.T) map[string]map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.Root(), "testdata", "recipes", "schemas.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string][]string{}
	for n, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 5 {
			t.Fatalf("schemas.tsv:%d: %d fields, want 5 or 6", n+1, len(f))
		}
		key := f[0] + "/" + f[1]
		if out[key] == nil {
			out[key] = map[string][]string{}
		}
		out[key][f[2]] = append(out[key][f[2]], f[3]+" "+f[4])
	}
	return out
}

// writtenSchemas runs c, writes its output directory and returns each
// Parquet file's "column type" lines (its stored ARROW:schema), by stem.
func writtenSchemas(t *testing.T, c schemaCase) map[string][]string {
	t.Helper()
	o := recipe.Defaults()
	if c.set != nil {
		c.set(o)
	}
	var res *recipe.Result
	switch {
	case c.recipe == recipe.DiffName:
		o.Input = []string{goldenRecipeDir("train+fixed", "cuda_gpu_kern_sum"), goldenRecipeDir("rank0+rank1", "cuda_gpu_kern_sum")}
		r, err := recipe.Lookup(recipe.DiffName)
		if err != nil {
			t.Fatal(err)
		}
		if res, err = recipe.Run(context.Background(), r, o, nil); err != nil {
			t.Fatal(err)
		}
	case c.fixtures != nil:
		res = mustFixtures(t, c.recipe, o, c.fixtures...)
	default:
		res = runOn(t, c.recipe, o, c.profiles...)
	}
	dir, err := res.Write(&recipe.WriteOptions{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, f := range files {
		s, err := pqcompare.StoredSchema(f)
		if err != nil {
			t.Fatal(err)
		}
		stem := strings.TrimSuffix(filepath.Base(f), ".parquet")
		for _, fl := range s.Fields() {
			out[stem] = append(out[stem], fl.Name+" "+fl.Type.String())
		}
	}
	return out
}
