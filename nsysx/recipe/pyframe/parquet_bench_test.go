package pyframe

import (
	"io"
	"strconv"
	"testing"
)

// benchFrame is a trace-like frame of n rows: int64 times, uint64 ids, a
// Float with NULLs, a string and a list column, with a stored index.
func benchFrame(n int) *Frame {
	start, pid, idx := make([]int64, n), make([]int64, n), make([]int64, n)
	pct, valid := make([]float64, n), make([]bool, n)
	names, stacks := make([]string, n), make([][]int64, n)
	for i := range start {
		start[i], pid[i], idx[i] = int64(i)*1000, int64(i%4), int64(i)
		pct[i], valid[i] = float64(i%1000)/10, i%7 != 0
		names[i] = "kernel_" + strconv.Itoa(i%50)
		stacks[i] = []int64{int64(i % 3), int64(i)}
	}
	return &Frame{Cols: []*Column{
		{Name: "Start", Type: Int64, IntVals: start},
		{Name: "PID", Type: Uint64, IntVals: pid},
		{Name: "Overlap", Type: Float64, FloatVals: pct, Valid: valid},
		{Name: "Name", Type: String, Strs: names},
		{Name: "Range Stack", Type: ListInt64, Lists: stacks},
		{Name: LevelIndexName, Type: Int64, IntVals: idx},
	}, Index: LevelIndex, IndexCols: []string{LevelIndexName}}
}

// BenchmarkWrite writes the frame as Parquet and as CSV.
func BenchmarkWrite(b *testing.B) {
	f := benchFrame(200_000)
	for _, w := range []struct {
		name  string
		write func(io.Writer, *Frame) error
	}{{"Parquet", WriteParquet}, {"CSV", WriteCSV}} {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := w.write(io.Discard, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
