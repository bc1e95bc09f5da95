package nsysx

import (
	"github.com/nsysx/nsysx/nsysx/frame"
	"github.com/nsysx/nsysx/nsysx/model"
)

// The data model lives in package model; these names keep the library's
// public API (nsysx.Value, nsysx.Table, ...) as it was.
type (
	Kind    = model.Kind
	Value   = model.Value
	ColType = model.ColType
	Column  = model.Column
	Table   = model.Table
)

// Value kinds and column storage types (see package model).
const (
	NullKind  = model.NullKind
	IntKind   = model.IntKind
	FloatKind = model.FloatKind
	TextKind  = model.TextKind

	Int   = model.Int
	Float = model.Float
	Text  = model.Text
)

// Null is the SQL NULL.
var Null = model.Null

// IntV, FloatV and TextV make values.
func IntV(i int64) Value     { return model.IntV(i) }
func FloatV(f float64) Value { return model.FloatV(f) }
func TextV(s string) Value   { return model.TextV(s) }

// PyFloat, Round1 and Compare: see package model.
func PyFloat(f float64) string { return model.PyFloat(f) }
func Round1(x float64) float64 { return model.Round1(x) }
func Compare(a, b Value) int   { return model.Compare(a, b) }

// Report results are frames (package frame).
type (
	Result    = frame.Result
	ResultCol = frame.ResultCol
	Row       = frame.Row
	Grouped   = frame.Grouped
)

// NewResult, Skip and ComputedCol make results (package frame).
func NewResult(report, title string, names ...string) *Result {
	return frame.NewResult(report, title, names...)
}
func Skip(report, title, msg string) *Result { return frame.Skip(report, title, msg) }
func ComputedCol(name string, kind Kind, n int, fn func(i int) Value) *ResultCol {
	return frame.ComputedCol(name, kind, n, fn)
}
