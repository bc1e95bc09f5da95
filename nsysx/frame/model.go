package frame

import "github.com/nsysx/nsysx/nsysx/model"

// The model's values, as the frames hold them.
type (
	Value = model.Value
	Kind  = model.Kind
)

const (
	NullKind  = model.NullKind
	IntKind   = model.IntKind
	FloatKind = model.FloatKind
	TextKind  = model.TextKind
)

var (
	Null   = model.Null
	IntV   = model.IntV
	FloatV = model.FloatV
	TextV  = model.TextV
	pyStr  = model.PyStr
)
