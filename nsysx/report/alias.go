package report

import (
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/frame"
	"github.com/nsysx/nsysx/nsysx/model"
)

// The model's names (values, tables, errors) and the frames' (results)
// the run context uses.
type (
	Kind               = model.Kind
	Value              = model.Value
	Column             = model.Column
	Table              = model.Table
	MissingColumnError = model.MissingColumnError
	MissingTableError  = model.MissingTableError
	Result             = frame.Result
	ResultCol          = frame.ResultCol
	// OverflowError reports a sum or a duration that does not fit in 64
	// bits (frame.OverflowError: the frames' checked sums raise it too).
	OverflowError = frame.OverflowError
)

// Column storage types (see package model).
const (
	Int   = model.Int
	Float = model.Float
	Text  = model.Text
)

var (
	// Null is the SQL NULL.
	Null = model.Null
	// IntV, FloatV, TextV, PyFloat, Round1, Compare: see package model.
	IntV, FloatV, TextV = model.IntV, model.FloatV, model.TextV
	PyFloat, Round1     = model.PyFloat, model.Round1
	Compare             = model.Compare
	lower               = model.Lower
	// NewResult, Skip and ComputedCol make results (package frame).
	NewResult, Skip, ComputedCol = frame.NewResult, frame.Skip, frame.ComputedCol
)

// NVTXScanCols are the NVTX_EVENTS columns an NVTX scan reads (the
// filters' range lookup and the NVTX reports), in the order the NVTX
// reports' rowVals indexes them.
func NVTXScanCols(p *model.Profile) []string {
	return append([]string(nil), events.NVTXScanCols...)
}
