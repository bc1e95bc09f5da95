package recipe

import "github.com/nsysx/nsysx/nsysx/recipe/pyframe"

// The table types of the recipe API live in package pyframe (the frames
// and the files pandas + pyarrow write); these aliases let a caller of the
// runner name them as recipe.Frame, recipe.Column and so on.
type (
	Frame     = pyframe.Frame
	Column    = pyframe.Column
	Kind      = pyframe.Kind
	IndexKind = pyframe.IndexKind
	Mask      = pyframe.Mask
	KV        = pyframe.KV
)

// The column kinds and index kinds of pyframe.
const (
	Int64     = pyframe.Int64
	Uint64    = pyframe.Uint64
	Uint32    = pyframe.Uint32
	Float64   = pyframe.Float64
	String    = pyframe.String
	Null      = pyframe.Null
	ListInt64 = pyframe.ListInt64
	Category  = pyframe.Category

	NoIndex    = pyframe.NoIndex
	RangeIndex = pyframe.RangeIndex
	NamedIndex = pyframe.NamedIndex
	LevelIndex = pyframe.LevelIndex

	LevelIndexName = pyframe.LevelIndexName
)
