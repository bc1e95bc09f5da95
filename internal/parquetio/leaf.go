package parquetio

import (
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// WriteLeaf writes a leaf array and its definition and repetition levels
// to a column chunk with the calls pqarrow.WriteArrowToColumn makes for the
// types this package writes, so that the bytes are pqarrow's (and so
// pyarrow's), without linking pqarrow (which brings in Arrow Flight, gRPC
// and protobuf, whose package initialisers every nsysx command would run).
func WriteLeaf(cw file.ColumnChunkWriter, leaf arrow.Array, def, rep []int16) error {
	lv := cw.LevelInfo()
	singleNullable := lv.DefLevel == lv.RepeatedAncestorDefLevel+1
	if lv.HasNullableValues() && !singleNullable {
		// pqarrow sets a bits buffer here; no column this package writes has this shape.
		return fmt.Errorf("parquet column %s: nested nullable levels are not supported", cw.Descr().Name())
	}
	if d, ok := leaf.(*array.Dictionary); ok {
		return writeDictLeaf(cw, d, def, rep)
	}
	return writeDenseLeaf(cw, leaf, def, rep)
}

// writeDenseLeaf is pqarrow's writeDenseArrow for this package's leaf types:
// WriteBatch when there is no NULL, else WriteBatchSpaced with the validity
// bitmap.
func writeDenseLeaf(cw file.ColumnChunkWriter, leaf arrow.Array, def, rep []int16) error {
	dense := cw.Descr().SchemaNode().RepetitionType() == parquet.Repetitions.Required || leaf.NullN() == 0
	sp := spacing{dense, leaf.NullBitmapBytes(), int64(leaf.Data().Offset())}
	switch wr := cw.(type) {
	case *file.Int32ColumnChunkWriter:
		if leaf.DataType().ID() == arrow.NULL {
			_, err := wr.WriteBatchSpacedWithError(nil, def, rep, sp.nulls, 0)
			return err
		}
		return writeTyped(wr, arrow.Int32Traits.CastFromBytes(valueBytes(leaf)), def, rep, sp)
	case *file.Int64ColumnChunkWriter:
		return writeTyped(wr, arrow.Int64Traits.CastFromBytes(valueBytes(leaf)), def, rep, sp)
	case *file.Float64ColumnChunkWriter:
		return writeTyped(wr, leaf.(*array.Float64).Float64Values(), def, rep, sp)
	case *file.ByteArrayColumnChunkWriter:
		return writeStrings(wr, leaf, def, rep, sp)
	}
	return fmt.Errorf("parquet column %s: cannot write Arrow type %s", cw.Descr().Name(), leaf.DataType())
}

// spacing says how a leaf's values are laid out: dense (no NULL), or with
// a slot per row and the validity bitmap from offset off.
type spacing struct {
	dense bool
	nulls []byte
	off   int64
}

// typedWriter is a column chunk writer of values of type T.
type typedWriter[T any] interface {
	WriteBatch(values []T, def, rep []int16) (int64, error)
	WriteBatchSpacedWithError(values []T, def, rep []int16, valid []byte, off int64) (int64, error)
}

// writeTyped writes values with WriteBatch when dense, else spaced.
func writeTyped[T any](w typedWriter[T], data []T, def, rep []int16, sp spacing) (err error) {
	if sp.dense {
		_, err = w.WriteBatch(data, def, rep)
	} else {
		_, err = w.WriteBatchSpacedWithError(data, def, rep, sp.nulls, sp.off)
	}
	return err
}

// valueBytes is the value buffer of a fixed-width array from its offset on.
func valueBytes(a arrow.Array) []byte {
	buf := a.Data().Buffers()[1]
	if buf == nil {
		return nil
	}
	w := a.DataType().(arrow.FixedWidthDataType).Bytes()
	off := a.Data().Offset()
	return buf.Bytes()[off*w : (off+a.Len())*w]
}

// writeStrings writes a large_utf8 leaf as pqarrow does (from the Arrow
// offsets when the writer takes them), and a utf8 leaf as the byte arrays
// of its strings.
func writeStrings(wr *file.ByteArrayColumnChunkWriter, leaf arrow.Array, def, rep []int16, sp spacing) (err error) {
	if s, ok := leaf.(*array.String); ok {
		data, offs := s.ValueBytes(), s.ValueOffsets()
		base := offs[0]
		vs := make([]parquet.ByteArray, s.Len())
		for i := range vs {
			vs[i] = parquet.ByteArray(data[offs[i]-base : offs[i+1]-base])
		}
		return writeTyped(wr, vs, def, rep, sp)
	}
	s, ok := leaf.(*array.LargeString)
	if !ok {
		return fmt.Errorf("parquet column %s: cannot write Arrow type %s", wr.Descr().Name(), leaf.DataType())
	}
	vals := []byte{}
	if buf := s.Data().Buffers()[2]; buf != nil {
		vals = buf.Bytes()
	}
	offsets := s.ValueOffsets()
	if !wr.SupportsArrowOffsets() {
		data := make([]parquet.ByteArray, s.Len())
		for i := range data {
			data[i] = parquet.ByteArray(vals[offsets[i]:offsets[i+1]])
		}
		return writeTyped(wr, data, def, rep, sp)
	}
	if sp.dense {
		_, err = wr.WriteBatchArrow64(vals, offsets, def, rep)
	} else {
		_, err = wr.WriteBatchSpacedArrow64(vals, offsets, def, rep, sp.nulls, sp.off)
	}
	return err
}

// dictEncoder is the part of the column writer's dictionary encoder that
// pqarrow's writeDictionaryArrow uses.
type dictEncoder interface {
	PutDictionary(arrow.Array) error
	NumEntries() int
	PreservedDictionary() arrow.Array
	NormalizeDict(arrow.Array) (arrow.Array, error)
}

// writeDictLeaf is pqarrow's writeDictionaryArrow for an int64 dictionary
// (a Category column) written once per column chunk: the categories become
// the dictionary page as they are, the codes its indices, and the page
// statistics cover the categories the codes use.
func writeDictLeaf(cw file.ColumnChunkWriter, d *array.Dictionary, def, rep []int16) error {
	enc, ok := cw.CurrentEncoder().(dictEncoder)
	if !ok || cw.CurrentEncoder().Encoding() != parquet.Encodings.PlainDict || cw.CurrentEncoder().(dictEncoder).PreservedDictionary() != nil {
		return writeDictDense(cw, d, def, rep)
	}
	normalized, err := enc.NormalizeDict(d.Dictionary())
	if err != nil {
		return err
	}
	defer normalized.Release()
	if err := enc.PutDictionary(normalized); err != nil {
		return err
	}
	if enc.NumEntries() != normalized.Len() {
		cw.FallbackToPlain()
		return writeDictDense(cw, d, def, rep)
	}
	if st := cw.PageStatistics(); st != nil {
		ref := referencedDict(normalized, d.Indices())
		defer ref.Release()
		nonNull := d.Indices().Len() - d.Indices().NullN()
		st.IncNulls(max(int64(len(def)-nonNull), 0))
		st.IncNumValues(int64(nonNull))
		if err := st.UpdateFromArrow(ref, false); err != nil {
			return err
		}
	}
	return cw.WriteDictIndices(d.Indices(), def, rep)
}

// referencedDict is what pqarrow takes for the statistics: the dictionary
// itself when the distinct indices (a NULL counting as one) are as many as
// its entries, else the entries at the distinct indices in order of first
// use (compute.UniqueArray then Take), a NULL index giving a NULL entry.
func referencedDict(dict arrow.Array, idx arrow.Array) arrow.Array {
	seen := map[int64]bool{}
	var order []int64 // -1 for NULL
	for i := 0; i < idx.Len(); i++ {
		k := int64(-1)
		if idx.IsValid(i) {
			k = codeAt(idx, i)
		}
		if !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
	}
	if len(order) == dict.Len() {
		dict.Retain()
		return dict
	}
	vals := dict.(*array.Int64)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for _, k := range order {
		if k < 0 {
			b.AppendNull()
		} else {
			b.Append(vals.Value(int(k)))
		}
	}
	return b.NewArray()
}

// codeAt is index i of an integer index array.
func codeAt(idx arrow.Array, i int) int64 {
	switch a := idx.(type) {
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	}
	return idx.(*array.Int64).Value(i)
}

// writeDictDense writes a dictionary leaf as its decoded int64 values.
func writeDictDense(cw file.ColumnChunkWriter, d *array.Dictionary, def, rep []int16) error {
	vals := d.Dictionary().(*array.Int64)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := 0; i < d.Len(); i++ {
		if d.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(vals.Value(d.GetValueIndex(i)))
		}
	}
	dense := b.NewArray()
	defer dense.Release()
	return writeDenseLeaf(cw, dense, def, rep)
}

// WriteStrings writes the strings strs of an optional string column (valid
// marks the non-NULL ones; nil: all) as the byte arrays of its strings,
// without copying them into an Arrow array first, a chunk of rows at a time
// (chunkRows): the pages are those of the Arrow path (WriteLeaf of a
// large_utf8 array). ones are at least len(strs) definition levels of 1.
func WriteStrings(cw file.ColumnChunkWriter, strs []string, valid []bool, ones []int16) error {
	wr, ok := cw.(*file.ByteArrayColumnChunkWriter)
	if !ok {
		return fmt.Errorf("parquet column %s: not a byte array column", cw.Descr().Name())
	}
	s, e := 0, len(strs)
	isNull := func(i int) bool { return valid != nil && !valid[i] }
	spaced := valid != nil && slices.Contains(valid, false) // as the Arrow path decides, for the whole chunk
	n := chunkRows(cw, e-s)
	data := make([]parquet.ByteArray, n)
	var def []int16
	var bits []byte
	if spaced {
		def, bits = make([]int16, n), make([]byte, bitutil.BytesForBits(int64(n)))
	}
	for a := s; a < e; a += n {
		b := min(a+n, e)
		data := data[:b-a]
		clear(bits)
		for i := a; i < b; i++ {
			data[i-a] = nil
			if spaced {
				def[i-a] = 0
				if isNull(i) {
					continue
				}
				def[i-a] = 1
				bitutil.SetBit(bits, i-a)
			}
			data[i-a] = noBytes
			if v := strs[i]; v != "" {
				data[i-a] = unsafe.Slice(unsafe.StringData(v), len(v))
			}
		}
		var err error
		if spaced {
			_, err = wr.WriteBatchSpacedWithError(data, def[:b-a], nil, bits, 0)
		} else {
			_, err = wr.WriteBatch(data, ones[:b-a], nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// chunkRows is how many rows (or levels) of n WriteStrings and
// WriteLists hand the column writer at once: a multiple of its batch
// size, so that it cuts the same batches, and so pages, as from one call.
func chunkRows(cw file.ColumnChunkWriter, n int) int {
	return min(n, 64*int(cw.Properties().WriteBatchSize()))
}

// WriteLists writes the rows of an optional list<int64> column (valid
// marks the non-NULL lists; nil: all) as the levels of an optional list of
// optional elements (NULL list: def 0, empty list: def 1, element: def 3;
// rep 1 for every element but a list's first) and the element values, a
// chunk of levels at a time (chunkRows): the calls pqarrow makes for the
// whole row group, cut where its batches are.
func WriteLists(cw file.ColumnChunkWriter, lists [][]int64, valid []bool) error {
	wr, ok := cw.(*file.Int64ColumnChunkWriter)
	if !ok {
		return fmt.Errorf("parquet column %s: not an int64 column", cw.Descr().Name())
	}
	n := chunkRows(cw, math.MaxInt)
	def, rep, vals := make([]int16, 0, n), make([]int16, 0, n), make([]int64, 0, n)
	put := func(d, r int16) error {
		def, rep = append(def, d), append(rep, r)
		if len(def) < n {
			return nil
		}
		_, err := wr.WriteBatch(vals, def, rep)
		def, rep, vals = def[:0], rep[:0], vals[:0]
		return err
	}
	for i, l := range lists {
		var err error
		switch {
		case valid != nil && !valid[i]:
			err = put(0, 0)
		case len(l) == 0:
			err = put(1, 0)
		default:
			for j, v := range l {
				vals = append(vals, v)
				if err = put(3, min(int16(j), 1)); err != nil {
					break
				}
			}
		}
		if err != nil {
			return err
		}
	}
	if len(def) == 0 {
		return nil
	}
	_, err := wr.WriteBatch(vals, def, rep)
	return err
}

// noBytes is the value of an empty string (not nil, as the Arrow path
// gives it).
var noBytes = []byte{}
