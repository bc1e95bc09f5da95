package pyframe

import "github.com/nsysx/nsysx/nsysx/frame"

// The recipes' table type is package frame's (frame.Frame, one table type
// for report results and recipe outputs); these names keep the code and
// notebook cells written against pyframe working.
type (
	Frame     = frame.Frame
	Column    = frame.Column
	Kind      = frame.Type
	IndexKind = frame.IndexKind
	Mask      = frame.Mask
	Num       = frame.Num
)

// The column types and index kinds (package frame).
const (
	Int64     = frame.Int64
	Uint64    = frame.Uint64
	Uint32    = frame.Uint32
	Float64   = frame.Float64
	String    = frame.String
	Null      = frame.AllNull
	ListInt64 = frame.ListInt64
	Category  = frame.Category

	NoIndex    = frame.NoIndex
	RangeIndex = frame.RangeIndex
	NamedIndex = frame.NamedIndex
	LevelIndex = frame.LevelIndex

	LevelIndexName = frame.LevelIndexName
)

// StatNames are the describe columns (frame.StatNames).
var StatNames = frame.StatNames

// NewInts is frame.NewInts.
func NewInts(name string, k Kind, v []int64, valid Mask) *Column {
	return frame.NewInts(name, k, v, valid)
}

// NewFloats is frame.NewFloats.
func NewFloats(name string, v []float64, valid Mask) *Column { return frame.NewFloats(name, v, valid) }

// NewStrings is frame.NewStrings.
func NewStrings(name string, v []string, valid Mask) *Column { return frame.NewStrings(name, v, valid) }

// NewColumn is frame.NewColumn.
func NewColumn(name string, k Kind, n int) *Column { return frame.NewColumn(name, k, n) }

// AppendCol is frame.AppendCol.
func AppendCol(dst, src *Column) { frame.AppendCol(dst, src) }

// Reserve is frame.Reserve.
func Reserve(c *Column, n int) { frame.Reserve(c, n) }

// Round is frame.Round.
func Round(x float64) float64 { return frame.Round(x) }

// RoundFrame is frame.RoundFrame.
func RoundFrame(f *Frame) { frame.RoundFrame(f) }

// TitleCase is frame.TitleCase.
func TitleCase(s string) string { return frame.TitleCase(s) }

// StatColumns is frame.StatColumns.
func StatColumns(names []string, n int, valueKind func(name string) Kind, more int) []*Column {
	return frame.StatColumns(names, n, valueKind, more)
}

// Describe is frame.Describe.
func Describe(keys []*Column, vals *Column) *Frame { return frame.Describe(keys, vals) }

// DescribeGrouped is frame.DescribeGrouped.
func DescribeGrouped(vals *Column, order, starts []int, index []*Column) *Frame {
	return frame.DescribeGrouped(vals, order, starts, index)
}

// Quartiles is frame.Quartiles.
func Quartiles(v []float64) [3]float64 { return frame.Quartiles(v) }

// Quantile is frame.Quantile.
func Quantile(v []float64, q float64) float64 { return frame.Quantile(v, q) }

// MinMaxSum is frame.MinMaxSum.
func MinMaxSum(vals *Column, rows []int) (lo, hi, sum Num) { return frame.MinMaxSum(vals, rows) }

// GroupRows is frame.GroupRows.
func GroupRows(keys []*Column, vals *Column) (order, starts []int) {
	return frame.GroupRows(keys, vals)
}

// SetNull is frame.SetNull.
func SetNull(m Mask, n, i int) Mask { return frame.SetNull(m, n, i) }

// Pick is frame.Pick.
func Pick[T any](v []T, rows []int) []T { return frame.Pick(v, rows) }

// Seq is frame.Seq.
func Seq(n int) []int { return frame.Seq(n) }

// AddInt is frame.AddInt.
func AddInt(a, b int64) int64 { return frame.AddInt(a, b) }

// Elapsed is frame.Elapsed.
func Elapsed(end, start int64) int64 { return frame.Elapsed(end, start) }
