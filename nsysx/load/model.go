package load

import "github.com/nsysx/nsysx/nsysx/model"

// The model's names, as the loaders use them.
type (
	source             = model.Source
	TableSchema        = model.TableSchema
	Table              = model.Table
	Column             = model.Column
	ColType            = model.ColType
	MissingTableError  = model.MissingTableError
	MissingColumnError = model.MissingColumnError
)

const (
	Int   = model.Int
	Float = model.Float
	Text  = model.Text
)

var (
	lower        = model.Lower
	ErrNotExport = model.ErrNotExport
)
