package plots

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// externals are the exports made with other nsys versions.
var externals = []string{"nsysai_h100_2gpu_1s", "nsysai_healthy_1pct", "nsysai_mfu_2gpu_after", "nsysai_mfu_2gpu_before", "train22"}

var opened struct {
	sync.Mutex
	m map[string]*nsysx.Profile
}

// profile opens testdata/profiles/<name> (or testdata/external/<name>) once
// per test binary.
func profile(t testing.TB, name string) *nsysx.Profile {
	t.Helper()
	opened.Lock()
	defer opened.Unlock()
	if p := opened.m[name]; p != nil {
		return p
	}
	path := ""
	if strings.HasPrefix(name, "nsysai_") || name == "train22" {
		path = testutil.External(t, name)
	} else {
		path = testutil.Profile(t, name)
	}
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if opened.m == nil {
		opened.m = map[string]*nsysx.Profile{}
	}
	opened.m[name] = p
	return p
}

// fixture opens testdata/fixtures/<name>, unpacking a .gz.
func fixture(t testing.TB, name string) *nsysx.Profile {
	t.Helper()
	path := filepath.Join(testutil.Root(), "testdata", "fixtures", name)
	if strings.HasSuffix(name, ".gz") {
		path = testutil.Unpack(t, filepath.Join("testdata", "fixtures", name))
	}
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// goldenCSV reads a CSV that nsys wrote for a profile into rows of fields
// by column name; ok is false when nsys wrote nothing.
func goldenCSV(t testing.TB, prof, name string) (rows []map[string]string, ok bool) {
	t.Helper()
	recs := testutil.GoldenCSV(t, prof, name)
	if len(recs) == 0 {
		return nil, false
	}
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		rows = append(rows, m)
	}
	return rows, true
}

func atof(t testing.TB, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("number %q: %v", s, err)
	}
	return f
}

// parquetColumns reads a golden recipe Parquet file (testdata/golden/
// recipes/...) into float64 columns by name (NULL is NaN).
func parquetColumns(t testing.TB, rel string) map[string][]float64 {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tbl, _ := testutil.ParquetTable(t, testutil.GoldenRecipe(rel), mem)
	defer tbl.Release()
	out := map[string][]float64{}
	for i := 0; i < int(tbl.NumCols()); i++ {
		name := tbl.Schema().Field(i).Name
		var vals []float64
		for _, ch := range tbl.Column(i).Data().Chunks() {
			for j := 0; j < ch.Len(); j++ {
				if ch.IsNull(j) {
					vals = append(vals, math.NaN())
					continue
				}
				switch a := ch.(type) {
				case *array.Int64:
					vals = append(vals, float64(a.Value(j)))
				case *array.Float64:
					vals = append(vals, a.Value(j))
				case *array.Uint32:
					vals = append(vals, float64(a.Value(j)))
				case *array.Uint64:
					vals = append(vals, float64(a.Value(j)))
				default:
					if ch.DataType().ID() != arrow.STRING && ch.DataType().ID() != arrow.LARGE_STRING {
						t.Fatalf("%s: column %s has type %s", rel, name, ch.DataType())
					}
				}
			}
		}
		out[name] = vals
	}
	return out
}

// sameFloat compares with NaN equal to NaN.
func sameFloat(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol
}
