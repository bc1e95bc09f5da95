package analyze

import (
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/frame"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// The names the rules compute with: the run context, registry and
// filters (package report), values and tables (package model), results
// (package frame).
type (
	Ctx     = report.Ctx
	Report  = report.Report
	Option  = report.Option
	Filter  = report.Filter
	Scanner = report.Scanner
	RowVals = report.RowVals

	MissingColumnError = model.MissingColumnError

	Kind   = model.Kind
	Value  = model.Value
	Column = model.Column
	Table  = model.Table

	Result = frame.Result
	Row    = frame.Row
)

// Value kinds and column storage types (see package model).
const (
	IntKind = model.IntKind
	Int     = model.Int
)

var (
	register        = report.Register
	Null            = model.Null
	IntV            = model.IntV
	FloatV          = model.FloatV
	TextV           = model.TextV
	NewResult       = frame.NewResult
	Compare         = model.Compare
	Round1          = model.Round1
	ErrBadOption    = model.ErrBadOption
	ParsePyInt      = report.ParsePyInt
	ScanGatedSQLite = report.ScanGatedSQLite
)

// The tables the rules read (package events).
const (
	tKernel  = events.TableKernel
	tRuntime = events.TableRuntime
	tMemcpy  = events.TableMemcpy
	tMemset  = events.TableMemset
	tStrings = events.TableStringIds
)

// PID and TID of a globalTid.
func gPID(gtid int64) int64 { return model.GlobalTid(gtid).PID() }
func gTID(gtid int64) int64 { return model.GlobalTid(gtid).TID() }
