package load

import (
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// arrowColType maps an Arrow type to the column type the SQLite export
// would have: integers of every width, booleans, timestamps and durations are
// Int; floats are Float; strings, binaries and anything else are Text.
func arrowColType(dt arrow.DataType) ColType {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.BOOL, arrow.TIMESTAMP, arrow.DURATION, arrow.NULL:
		return Int
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return Float
	case arrow.DICTIONARY:
		return arrowColType(dt.(*arrow.DictionaryType).ValueType)
	}
	return Text
}

// appendArray appends one Arrow array to c, converting as arrowColType
// says. NULL cells hold 0, NaN or "" and are marked with SetNull.
func appendArray(c *Column, a arrow.Array) {
	base := c.Len()
	if d, ok := a.(*array.Dictionary); ok {
		appendDict(c, d)
		return
	}
	switch c.Type {
	case Int:
		c.Ints = appendInts(c.Ints, a)
	case Float:
		c.Floats = appendFloats(c.Floats, a)
	default:
		c.Strs = appendStrs(c.Strs, a)
	}
	if a.NullN() == 0 {
		return
	}
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			c.SetZero(base + i)
			c.SetNull(base + i)
		}
	}
}

// appendDict appends a dictionary-encoded array cell by cell.
func appendDict(c *Column, d *array.Dictionary) {
	dict := &Column{Type: c.Type}
	appendArray(dict, d.Dictionary())
	for i := 0; i < d.Len(); i++ {
		k := -1
		if d.IsValid(i) {
			k = d.GetValueIndex(i)
		}
		null := k < 0 || dict.IsNull(k)
		switch c.Type {
		case Int:
			c.Ints = append(c.Ints, 0)
		case Float:
			c.Floats = append(c.Floats, math.NaN())
		default:
			c.Strs = append(c.Strs, "")
		}
		n := c.Len() - 1
		if null {
			c.SetNull(n)
			continue
		}
		switch c.Type {
		case Int:
			c.Ints[n] = dict.Ints[k]
		case Float:
			c.Floats[n] = dict.Floats[k]
		default:
			c.Strs[n] = dict.Strs[k]
		}
	}
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func widen[T integer](dst []int64, vs []T) []int64 {
	for _, v := range vs {
		dst = append(dst, int64(v)) // uint64 wraps, as in the SQLite export
	}
	return dst
}

// widenArray widens a's values when a is an array of T (array.Int32 and the
// like: their Values method returns []T).
func widenArray[T integer](dst []int64, a arrow.Array) ([]int64, bool) {
	v, ok := a.(interface{ Values() []T })
	if !ok {
		return dst, false
	}
	return widen(dst, v.Values()), true
}

// intArrays are the integer-valued array types that appendInts widens.
var intArrays = []func([]int64, arrow.Array) ([]int64, bool){
	widenArray[int32], widenArray[int16], widenArray[int8],
	widenArray[uint64], widenArray[uint32], widenArray[uint16], widenArray[uint8],
	widenArray[arrow.Timestamp], widenArray[arrow.Duration],
}

func appendInts(dst []int64, a arrow.Array) []int64 {
	for _, w := range intArrays {
		if out, ok := w(dst, a); ok {
			return out
		}
	}
	switch a := a.(type) {
	case *array.Int64:
		return append(dst, a.Int64Values()...)
	case *array.Boolean:
		for i := 0; i < a.Len(); i++ {
			v := int64(0)
			if a.Value(i) {
				v = 1
			}
			dst = append(dst, v)
		}
		return dst
	}
	return append(dst, make([]int64, a.Len())...) // NULL type: all cells NULL
}

func appendFloats(dst []float64, a arrow.Array) []float64 {
	switch a := a.(type) {
	case *array.Float64:
		return append(dst, a.Float64Values()...)
	case *array.Float32:
		for _, v := range a.Float32Values() {
			dst = append(dst, float64(v))
		}
		return dst
	case *array.Float16:
		for _, v := range a.Values() {
			dst = append(dst, float64(v.Float32()))
		}
		return dst
	}
	return append(dst, make([]float64, a.Len())...)
}

// appendStrs converts text cells. Strings are copied out of the Arrow buffers
// (which are released after the batch) with one allocation per batch.
func appendStrs(dst []string, a arrow.Array) []string {
	switch a := a.(type) {
	case interface { // String, Binary
		ValueBytes() []byte
		ValueOffsets() []int32
	}:
		return sliceStrs(dst, a.ValueBytes(), a.ValueOffsets())
	case interface { // LargeString, LargeBinary
		ValueBytes() []byte
		ValueOffsets() []int64
	}:
		return sliceStrs(dst, a.ValueBytes(), a.ValueOffsets())
	}
	for i := 0; i < a.Len(); i++ {
		s := ""
		if a.IsValid(i) {
			s = strings.Clone(a.ValueStr(i))
		}
		dst = append(dst, s)
	}
	return dst
}

func sliceStrs[O int32 | int64](dst []string, data []byte, offs []O) []string {
	all := string(data)
	if len(offs) == 0 {
		return dst
	}
	base := offs[0]
	for i := 0; i+1 < len(offs); i++ {
		dst = append(dst, all[offs[i]-base:offs[i+1]-base])
	}
	return dst
}
