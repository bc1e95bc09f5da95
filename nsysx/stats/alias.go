package stats

import (
	"github.com/nsysx/nsysx/nsysx/frame"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// The names the reports compute with: the run context, registry and
// filters (package report), values and tables (package model), results
// (package frame).
type (
	Ctx           = report.Ctx
	Report        = report.Report
	Option        = report.Option
	Filter        = report.Filter
	OverflowError = report.OverflowError
	Scanner       = report.Scanner
	DirectScan    = report.DirectScan
	RowVals       = report.RowVals
	RowFilter     = report.RowFilter
	ScanRow       = report.ScanRow

	MissingTableError = model.MissingTableError

	Kind   = model.Kind
	Value  = model.Value
	Column = model.Column
	Table  = model.Table

	Result    = frame.Result
	ResultCol = frame.ResultCol
	Row       = frame.Row
)

// Value kinds and column storage types (see package model).
const (
	NullKind  = model.NullKind
	IntKind   = model.IntKind
	FloatKind = model.FloatKind
	TextKind  = model.TextKind
	Int       = model.Int
	Float     = model.Float
)

var (
	register      = report.Register
	nvtxScanCols  = report.NVTXScanCols
	Null          = model.Null
	IntV          = model.IntV
	FloatV        = model.FloatV
	TextV         = model.TextV
	NewResult     = frame.NewResult
	ComputedCol   = frame.ComputedCol
	Compare       = model.Compare
	Round1        = model.Round1
	PyFloat       = model.PyFloat
	ErrBadOption  = model.ErrBadOption
	Suggest       = report.Suggest
	DirectOf      = report.DirectOf
	scannerDirect = report.ScannerDirect
	GatedCores    = report.GatedCores
	ParsePyInt    = report.ParsePyInt
)
