package nsysx_test

import (
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// goldenCSV reads an nsys golden CSV: the header and the rows.
func goldenCSV(t *testing.T, profile, name string) ([]string, [][]string) {
	t.Helper()
	path := filepath.Join(testutil.Root(), "testdata", "golden", profile, name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	if strings.HasSuffix(name, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = csv.NewReader(gz)
	}
	r.FieldsPerRecord = -1
	all, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return all[0], all[1:]
}

func stats(t *testing.T, profile, report string) *nsysx.Result {
	t.Helper()
	p, err := nsysx.Open(testutil.Profile(t, profile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	r, err := p.Stats(context.Background(), report)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func cell(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("golden cell %q: %v", s, err)
	}
	return f
}

func ok(t *testing.T, r *nsysx.Result) *nsysx.Result {
	t.Helper()
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return r
}

// The kernels of the GPU trace, grouped by name, give nsys's kernel
// summary: instances, total, min, max, median and standard deviation.
func TestGroupByMatchesKernelSummary(t *testing.T) {
	tr := stats(t, "train", "cuda_gpu_trace")
	kern := ok(t, tr.Where("GrdX", "!=", nil))
	g := ok(t, kern.GroupBy("Name").Agg("count(*)", "sum(Duration) as Total", "min(Duration)", "max(Duration)",
		"median(Duration)", "std(Duration)", "mean(Duration)"))
	_, rows := goldenCSV(t, "train", "cuda_gpu_kern_sum.csv")
	if g.Len() != len(rows) {
		t.Fatalf("%d groups, nsys has %d kernels", g.Len(), len(rows))
	}
	byName := map[string]int{}
	for i := 0; i < g.Len(); i++ {
		byName[g.Col("Name").String(i)] = i
	}
	for _, row := range rows {
		i, found := byName[row[8]]
		if !found {
			t.Fatalf("kernel %q missing from the groups", row[8])
		}
		checks := []struct {
			col  string
			want float64
		}{{"count(*)", cell(t, row[2])}, {"Total", cell(t, row[1])}, {"min(Duration)", cell(t, row[5])},
			{"max(Duration)", cell(t, row[6])}, {"median(Duration)", cell(t, row[4])},
			{"std(Duration)", cell(t, row[7])}, {"mean(Duration)", cell(t, row[3])}}
		for _, c := range checks {
			got := g.Col(c.col).Float(i)
			if strings.HasPrefix(c.col, "std") || strings.HasPrefix(c.col, "mean") || strings.HasPrefix(c.col, "median") {
				got = nsysx.Round1(got)
			}
			if got != c.want {
				t.Errorf("%s of %.40s: %v, nsys %v", c.col, row[8], got, c.want)
			}
		}
	}
	if tag := g.Col("Total").Tag(); tag != "dur_ns" {
		t.Errorf("sum keeps the unit tag: got %q", tag)
	}
}

// Sorting by several keys agrees with sort.SliceStable over the golden rows.
func TestSortMatchesPlainSort(t *testing.T) {
	r := stats(t, "train", "cuda_gpu_kern_sum")
	_, rows := goldenCSV(t, "train", "cuda_gpu_kern_sum.csv")
	sort.SliceStable(rows, func(a, b int) bool {
		ia, ib := cell(t, rows[a][2]), cell(t, rows[b][2])
		if ia != ib {
			return ia > ib
		}
		return rows[a][8] < rows[b][8]
	})
	s := ok(t, r.Sort("-Instances", "Name"))
	if s.Len() != len(rows) || r.Col("Name").String(0) != firstName(t) {
		t.Fatalf("sorted %d rows of %d, or the receiver changed", s.Len(), len(rows))
	}
	for i, row := range rows {
		if got := s.Col("Name").String(i); got != row[8] {
			t.Fatalf("row %d: %q, want %q", i, got, row[8])
		}
	}
	asc := ok(t, r.Sort("Avg"))
	for i := 1; i < asc.Len(); i++ {
		if asc.Col("Avg").Float(i-1) > asc.Col("Avg").Float(i) {
			t.Fatalf("Sort(Avg) not ascending at %d", i)
		}
	}
}

func firstName(t *testing.T) string {
	_, rows := goldenCSV(t, "train", "cuda_gpu_kern_sum.csv")
	return rows[0][8]
}

// Where, Filter, Select, Head and Tail against loops over the golden rows.
func TestWhereFilterSelectHeadTail(t *testing.T) {
	r := stats(t, "train", "cuda_gpu_kern_sum")
	_, rows := goldenCSV(t, "train", "cuda_gpu_kern_sum.csv")
	var many, gemm []string
	for _, row := range rows {
		if cell(t, row[2]) > 100 {
			many = append(many, row[8])
		}
		if strings.Contains(row[8], "gemm") && cell(t, row[3]) >= 500000 {
			gemm = append(gemm, row[8])
		}
	}
	sameNames(t, "Where(Instances > 100)", ok(t, r.Where("Instances", ">", 100)), many)
	f := r.Filter(func(w nsysx.Row) bool {
		return strings.Contains(w.String("Name"), "gemm") && w.Float("Avg") >= 500000
	})
	sameNames(t, "Filter", ok(t, f), gemm)
	sameNames(t, "Where contains", ok(t, r.Where("Name", "contains", "gemm").Where("Avg", ">=", 500000.0)), gemm)

	sel := ok(t, r.Select("Name", "Total Time"))
	if got := sel.Columns(); strings.Join(got, "|") != "Name|Total Time" {
		t.Errorf("Select columns: %v", got)
	}
	head, tail := ok(t, r.Head(3)), ok(t, r.Tail(2))
	var want []string
	for _, row := range rows[:3] {
		want = append(want, row[8])
	}
	sameNames(t, "Head(3)", head, want)
	sameNames(t, "Tail(2)", tail, []string{rows[len(rows)-2][8], rows[len(rows)-1][8]})
	if r.Head(1000).Len() != len(rows) || r.Tail(-1).Len() != 0 {
		t.Error("Head/Tail beyond the rows")
	}
	for i, row := range rows {
		if sel.Col("Total Time").Int(i) != int64(cell(t, row[1])) || r.Col("Avg").Float(i) != cell(t, row[3]) {
			t.Fatalf("typed access, row %d", i)
		}
	}
}

func sameNames(t *testing.T, what string, r *nsysx.Result, want []string) {
	t.Helper()
	got := r.Col("Name").Strings()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: %d rows %.200q, want %d %.200q", what, len(got), got, len(want), want)
	}
}

// Joining rank 0 and rank 1 on the kernel name pairs the golden rows.
func TestJoinRanks(t *testing.T) {
	a, b := stats(t, "rank0", "cuda_gpu_kern_sum"), stats(t, "rank1", "cuda_gpu_kern_sum")
	_, ra := goldenCSV(t, "rank0", "cuda_gpu_kern_sum.csv")
	_, rb := goldenCSV(t, "rank1", "cuda_gpu_kern_sum.csv")
	inB := map[string]string{}
	for _, row := range rb {
		inB[row[8]] = row[1]
	}
	var inner, left int
	for _, row := range ra {
		if _, found := inB[row[8]]; found {
			inner++
		}
		left++
	}
	j := ok(t, a.Join(b, "Name"))
	if j.Len() != inner {
		t.Fatalf("inner join: %d rows, want %d", j.Len(), inner)
	}
	ta, tb := j.Col("Total Time ("+a.Source+")"), j.Col("Total Time ("+b.Source+")")
	if ta == nil || tb == nil {
		t.Fatalf("joined columns %v", j.Columns())
	}
	for i := 0; i < j.Len(); i++ {
		name := j.Col("Name").String(i)
		if want := cell(t, inB[name]); tb.Float(i) != want {
			t.Errorf("%s: rank1 total %v, want %v", name, tb.Float(i), want)
		}
	}
	outer := ok(t, a.OuterJoin(b, "Name"))
	union := map[string]bool{}
	for _, row := range append(ra, rb...) {
		union[row[8]] = true
	}
	if lj := ok(t, a.LeftJoin(b, "Name")); lj.Len() != left || outer.Len() != len(union) {
		t.Errorf("left join %d rows (want %d), outer %d (want %d)", lj.Len(), left, outer.Len(), len(union))
	}
}

// Unknown columns, operators and aggregations are errors with the closest
// name, carried along a chain; nothing panics.
func TestTableErrors(t *testing.T) {
	r := stats(t, "train", "cuda_gpu_kern_sum")
	if _, err := r.Column("Totl Time"); err == nil || !strings.Contains(err.Error(), "did you mean Total Time") {
		t.Errorf("Column(Totl Time): %v", err)
	}
	cases := map[string]*nsysx.Result{
		"did you mean Avg":       r.Sort("-Avgg").Head(3),
		"did you mean Name":      r.Filter(func(w nsysx.Row) bool { return w.String("Nme") != "" }),
		"unknown operator":       r.Where("Avg", "=>", 1),
		"did you mean Instances": r.GroupBy("Instance").Agg("count(*)"),
		"unknown aggregation":    r.GroupBy("Name").Agg("summ(Avg)"),
		"cannot compare":         r.Where("Avg", ">", []int{1}),
		"did you mean Max":       r.Select("Name", "Mx"),
	}
	for want, res := range cases {
		if err := res.Err(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want an error with %q, got %v", want, err)
		}
	}
	// Col of an unknown name: a column carrying Column's error, never nil,
	// whose cells read as NULL instead of panicking
	for _, c := range []*nsysx.ResultCol{r.Col("Totl Time"), r.Sort("-Avgg").Col("Name")} {
		if c == nil || c.Err() == nil {
			t.Fatalf("Col of an unknown name: %v", c)
		}
		if c.Len() != 0 || !c.Value(0).IsNull() || c.Text(3) != "" || len(c.Floats()) != 0 {
			t.Errorf("cells of an unknown column: len %d, %v", c.Len(), c.Value(0))
		}
	}
	if err := r.Col("Totl Time").Err(); !strings.Contains(err.Error(), "did you mean Total Time") {
		t.Errorf("Col(Totl Time).Err: %v", err)
	}
	if err := r.Col("Total Time").Err(); err != nil {
		t.Errorf("Col(Total Time).Err: %v", err)
	}
}

// Schema and the Arrow record describe the columns and hold the values.
func TestSchemaAndRecord(t *testing.T) {
	r := stats(t, "train", "cuda_gpu_kern_sum")
	hdr, rows := goldenCSV(t, "train", "cuda_gpu_kern_sum.csv")
	s := ok(t, r.Schema())
	if s.Len() != len(hdr) {
		t.Fatalf("schema has %d rows, golden %d columns", s.Len(), len(hdr))
	}
	for i, h := range hdr {
		label, _, _ := strings.Cut(h, " (")
		if s.Col("Column").String(i) != label {
			t.Errorf("schema row %d: %q, golden header %q", i, s.Col("Column").String(i), h)
		}
	}
	if s.Col("Type").String(8) != "text" || s.Col("Type").String(1) != "int" || s.Col("Type").String(3) != "float" {
		t.Errorf("types %v", s.Col("Type").Strings())
	}
	rec, err := format.Record(r)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if int(rec.NumRows()) != len(rows) || rec.ColumnName(1) != hdr[1] {
		t.Fatalf("record: %d rows, column 1 %q", rec.NumRows(), rec.ColumnName(1))
	}
	for i, row := range rows {
		if got := rec.Column(1).ValueStr(i); got != row[1] {
			t.Errorf("record row %d total %s, golden %s", i, got, row[1])
		}
	}
	if !math.IsNaN(r.Col("Name").Float(0)) || r.Col("Name").Int(0) != 0 {
		t.Error("text as a number")
	}
}

// Every Where operator, against a loop over the golden rows.
func TestWhereOperators(t *testing.T) {
	r := stats(t, "train", "cuda_gpu_kern_sum")
	_, rows := goldenCSV(t, "train", "cuda_gpu_kern_sum.csv")
	med := cell(t, rows[len(rows)/2][2]) // an Instances value that occurs
	cases := []struct {
		col, op string
		val     any
		keep    func(row []string) bool
	}{
		{"Instances", "==", int(med), func(w []string) bool { return cell(t, w[2]) == med }},
		{"Instances", "=", med, func(w []string) bool { return cell(t, w[2]) == med }},
		{"Instances", "!=", int64(med), func(w []string) bool { return cell(t, w[2]) != med }},
		{"Instances", "<", uint(med), func(w []string) bool { return cell(t, w[2]) < med }},
		{"Instances", "<=", float32(med), func(w []string) bool { return cell(t, w[2]) <= med }},
		{"Avg", ">=", 500000.5, func(w []string) bool { return cell(t, w[3]) >= 500000.5 }},
		{"Name", "endswith", "Params)", func(w []string) bool { return strings.HasSuffix(w[8], "Params)") }},
		{"Name", "matches", `^void at::native::.*reduce`, func(w []string) bool {
			return strings.HasPrefix(w[8], "void at::native::") && strings.Contains(w[8][17:], "reduce")
		}},
		{"Name", "==", nil, func(w []string) bool { return false }},
		{"Name", "!=", nil, func(w []string) bool { return true }},
		{"Name", ">", "v", func(w []string) bool { return w[8] > "v" }},
	}
	for _, c := range cases {
		var want []string
		for _, row := range rows {
			if c.keep(row) {
				want = append(want, row[8])
			}
		}
		if len(want) == 0 && c.val != nil {
			t.Errorf("Where(%s %s %v) keeps no golden row: the case tests nothing", c.col, c.op, c.val)
		}
		sameNames(t, fmt.Sprintf("Where(%s %s %v)", c.col, c.op, c.val), ok(t, r.Where(c.col, c.op, c.val)), want)
	}
}

// Whole-column access, NULL cells, and the aggregations the summary test
// does not reach (count of a column, first, last, mean of a float column).
func TestColumnsAndMoreAggregations(t *testing.T) {
	tr := stats(t, "train", "cuda_gpu_trace")
	_, rows := goldenCSV(t, "train", "cuda_gpu_trace.csv.gz")
	grdx, dur := tr.Col("GrdX"), tr.Col("Duration")
	ints, floats := dur.Ints(), dur.Floats()
	nulls := 0
	for i, row := range rows {
		if ints[i] != int64(cell(t, row[1])) || floats[i] != cell(t, row[1]) {
			t.Fatalf("row %d: duration %d / %v, golden %s", i, ints[i], floats[i], row[1])
		}
		if grdx.IsNull(i) != (row[3] == "") {
			t.Fatalf("row %d: GrdX null %v, golden %q", i, grdx.IsNull(i), row[3])
		}
		if row[3] == "" {
			nulls++
		}
	}
	g := ok(t, tr.GroupBy("Strm").Agg("count(*)", "count(GrdX)", "first(Start)", "last(Start)", "mean(Throughput)"))
	type acc struct {
		n, kern     int
		first, last string
		thr         float64
		nthr        int
	}
	want := map[string]*acc{}
	var order []string
	for _, row := range rows {
		a := want[row[19]]
		if a == nil {
			a = &acc{first: row[0]}
			want[row[19]] = a
			order = append(order, row[19])
		}
		a.n++
		if row[3] != "" {
			a.kern++
		}
		a.last = row[0]
		if row[13] != "" {
			a.thr += cell(t, row[13])
			a.nthr++
		}
	}
	if g.Len() != len(order) {
		t.Fatalf("%d streams, golden %d", g.Len(), len(order))
	}
	for i, s := range order {
		a := want[s]
		if g.Col("Strm").String(i) != s || g.Col("count(*)").Int(i) != int64(a.n) || g.Col("count(GrdX)").Int(i) != int64(a.kern) ||
			g.Col("first(Start)").String(i) != a.first || g.Col("last(Start)").String(i) != a.last {
			t.Errorf("stream %s: %v, want %+v", s, g.Row(i), *a)
		}
		// the golden throughput is rounded to 3 decimals (MB/s); the mean of
		// the raw values is within that rounding
		if a.nthr > 0 && math.Abs(g.Col("mean(Throughput)").Float(i)/1e6-a.thr/float64(a.nthr)) > 0.001 {
			t.Errorf("stream %s: mean throughput %v B/s, golden mean %v MB/s", s, g.Col("mean(Throughput)").Float(i), a.thr/float64(a.nthr))
		}
	}
	if nulls == 0 {
		t.Fatal("the trace has no memory operations to check NULLs with")
	}
}
