package load

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// The Parquet parts of an export are read with the column chunk readers of
// parquet/file, straight into Columns: pqarrow, which would give Arrow
// arrays, imports Arrow Flight and gRPC (docs/export.md).

// openParquet opens a Parquet file and decodes the Arrow schema stored in
// it (nil when there is none), checked before anything decodes it. The
// stored schema, as for pqarrow, says the column types: nsys annotates some
// signed int32 columns as unsigned in the Parquet schema but not in the
// Arrow one, and the SQLite export agrees with the Arrow one.
func (s *arrowSource) openParquet(path string) (*file.Reader, *arrow.Schema, error) {
	props := parquet.NewReaderProperties(s.mem)
	rd, err := file.OpenParquetFile(path, false, file.WithReadProps(props))
	if err != nil {
		return nil, nil, fileErr(path, err)
	}
	v := rd.MetaData().KeyValueMetadata().FindValue("ARROW:schema")
	if v == nil {
		return rd, nil, nil
	}
	sc, err := decodeStoredSchema(*v)
	if err != nil {
		rd.Close()
		return nil, nil, fileErr(path, err)
	}
	return rd, sc, nil
}

// decodeStoredSchema decodes an "ARROW:schema" value: a base64 Arrow IPC
// stream holding the schema message.
func decodeStoredSchema(encoded string) (*arrow.Schema, error) {
	if err := checkStoredSchema(encoded); err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil || len(b) == 0 {
		b, _ = base64.RawStdEncoding.DecodeString(encoded)
	}
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("stored Arrow schema: %w", err)
	}
	defer r.Release()
	return r.Schema(), nil
}

func (s *arrowSource) addParquet(path string) (err error) {
	defer recoverErr(&err, path)
	rd, stored, err := s.openParquet(path)
	if err != nil {
		return err
	}
	defer rd.Close()
	root := rd.MetaData().Schema.Root()
	var names []string
	var types []ColType
	for i := 0; i < root.NumFields(); i++ {
		f := root.Field(i)
		names = append(names, f.Name())
		types = append(types, parquetColType(f, stored))
	}
	s.addTableCols(stem(path), names, types, tablePart{kind: parquetPart, path: path})
	return nil
}

// storedField is the field of the stored Arrow schema named like n, if any.
func storedField(n schema.Node, stored *arrow.Schema) (arrow.Field, bool) {
	if stored == nil {
		return arrow.Field{}, false
	}
	if i := fieldIndex(stored, n.Name()); i >= 0 {
		return stored.Field(i), true
	}
	return arrow.Field{}, false
}

// parquetColType maps a Parquet column to the column type the SQLite export
// would have, as arrowColType does for the Arrow type pqarrow would give:
// booleans and integers of every width (timestamps included) are Int,
// floats are Float, byte arrays and nested columns are Text. A stored Arrow
// schema decides.
func parquetColType(n schema.Node, stored *arrow.Schema) ColType {
	if f, ok := storedField(n, stored); ok {
		return arrowColType(f.Type)
	}
	p, ok := n.(*schema.PrimitiveNode)
	if !ok {
		return Text
	}
	switch p.PhysicalType() {
	case parquet.Types.Float, parquet.Types.Double:
		return Float
	case parquet.Types.ByteArray:
		return Text
	case parquet.Types.FixedLenByteArray:
		if _, ok := p.LogicalType().(schema.Float16LogicalType); ok {
			return Float
		}
		return Text
	}
	return Int
}

// parquetField finds a top-level column by name, case-insensitively (exact
// match first).
func parquetField(root *schema.GroupNode, name string) schema.Node {
	if i := root.FieldIndexByName(name); i >= 0 {
		return root.Field(i)
	}
	for i := 0; i < root.NumFields(); i++ {
		if strings.EqualFold(root.Field(i).Name(), name) {
			return root.Field(i)
		}
	}
	return nil
}

// parquetLeaves is the leaf column index of each column b reads, checked to
// be flat and of the type of the table's first part.
func parquetLeaves(rd *file.Reader, stored *arrow.Schema, b *tableBuilder) ([]int, error) {
	sc := rd.MetaData().Schema
	idx := make([]int, len(b.names))
	for j, name := range b.names {
		n := parquetField(sc.Root(), name)
		if n == nil {
			return nil, fmt.Errorf("no column %s", name)
		}
		if parquetColType(n, stored) != b.cs[j].Type {
			return nil, fmt.Errorf("column %s has another type here than in the table's first part", name)
		}
		idx[j] = sc.ColumnIndexByNode(n)
		if _, ok := n.(*schema.PrimitiveNode); !ok || idx[j] < 0 || sc.Column(idx[j]).MaxRepetitionLevel() > 0 {
			return nil, fmt.Errorf("column %s is nested: only flat columns are read", name)
		}
	}
	return idx, nil
}

func (s *arrowSource) loadParquet(p tablePart, b *tableBuilder) (err error) {
	defer recoverErr(&err, p.path)
	rd, stored, err := s.openParquet(p.path)
	if err != nil {
		return err
	}
	defer rd.Close()
	base := filepath.Base(p.path)
	if len(b.names) == 0 {
		b.t.N += int(rd.NumRows())
		return nil
	}
	idx, err := parquetLeaves(rd, stored, b)
	if err != nil {
		return fmt.Errorf("%s: %w", base, err)
	}
	unsigned := make([]bool, len(idx))
	for j, ci := range idx {
		unsigned[j] = isUnsigned(rd.MetaData().Schema.Column(ci), stored)
	}
	for g := 0; g < rd.NumRowGroups(); g++ {
		rg := rd.RowGroup(g)
		rows := rg.NumRows()
		for j, ci := range idx {
			cr, err := rg.Column(ci)
			if err == nil {
				err = readParquetColumn(cr, b.cs[j], rows, unsigned[j])
				closeReader(cr)
			}
			if err != nil {
				return fmt.Errorf("%s: column %s: %w", base, b.names[j], err)
			}
		}
		b.t.N += int(rows)
	}
	return nil
}

// isUnsigned says whether an int32 column holds uint32 values: as the
// stored Arrow schema says, else as the Parquet annotation does.
func isUnsigned(c *schema.Column, stored *arrow.Schema) bool {
	if f, ok := storedField(c.SchemaNode(), stored); ok {
		switch f.Type.ID() {
		case arrow.UINT8, arrow.UINT16, arrow.UINT32:
			return true
		}
		return false
	}
	it, ok := c.LogicalType().(schema.IntLogicalType)
	return ok && !it.IsSigned()
}

// closeReader releases the pages a column chunk reader holds.
func closeReader(cr file.ColumnChunkReader) {
	if c, ok := cr.(interface{ Close() error }); ok {
		c.Close()
	}
}

// readParquetColumn appends the rows cells of a column chunk to c,
// converting as parquetColType says; NULL cells are zeroed and marked.
func readParquetColumn(cr file.ColumnChunkReader, c *Column, rows int64, unsigned bool) error {
	switch r := cr.(type) {
	case *file.Int64ColumnChunkReader:
		return readLeaf(r.ReadBatch, c, rows, func(v int64) { c.Ints = append(c.Ints, v) })
	case *file.Int32ColumnChunkReader:
		return readLeaf(r.ReadBatch, c, rows, func(v int32) {
			if unsigned {
				c.Ints = append(c.Ints, int64(uint32(v)))
			} else {
				c.Ints = append(c.Ints, int64(v))
			}
		})
	case *file.BooleanColumnChunkReader:
		return readLeaf(r.ReadBatch, c, rows, func(v bool) { c.Ints = append(c.Ints, int64(b2i(v))) })
	case *file.Int96ColumnChunkReader:
		return readLeaf(r.ReadBatch, c, rows, func(v parquet.Int96) { c.Ints = append(c.Ints, v.ToTime().UnixNano()) })
	case *file.Float64ColumnChunkReader:
		return readLeaf(r.ReadBatch, c, rows, func(v float64) { c.Floats = append(c.Floats, v) })
	case *file.Float32ColumnChunkReader:
		return readLeaf(r.ReadBatch, c, rows, func(v float32) { c.Floats = append(c.Floats, float64(v)) })
	case *file.ByteArrayColumnChunkReader:
		return readLeaf(r.ReadBatch, c, rows, func(v parquet.ByteArray) { c.Strs = append(c.Strs, string(v)) })
	case *file.FixedLenByteArrayColumnChunkReader:
		if c.Type == Float {
			return readLeaf(r.ReadBatch, c, rows, func(v parquet.FixedLenByteArray) {
				c.Floats = append(c.Floats, float64(float16.FromBits(binary.LittleEndian.Uint16(v)).Float32()))
			})
		}
		return readLeaf(r.ReadBatch, c, rows, func(v parquet.FixedLenByteArray) { c.Strs = append(c.Strs, string(v)) })
	}
	return fmt.Errorf("physical type %s is not read", cr.Type())
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// readLeaf reads rows cells of a flat column in batches of batchRows,
// putting each set value and zeroing and marking each NULL one. A chunk that
// ends before rows cells is corrupt.
func readLeaf[T any](read func(int64, []T, []int16, []int16) (int64, int, error), c *Column, rows int64, put func(T)) error {
	n := min(rows, batchRows)
	vals := make([]T, n)
	def := make([]int16, n)
	var zero T
	for done := int64(0); done < rows; {
		total, nv, err := read(min(n, rows-done), vals, def, nil)
		if err != nil {
			return err
		}
		if total == 0 {
			return fmt.Errorf("%d of %d rows in a row group: corrupt file", done, rows)
		}
		if int64(nv) == total {
			for _, v := range vals[:nv] {
				put(v)
			}
		} else {
			vi := 0
			for _, d := range def[:total] {
				if d > 0 && vi < nv {
					put(vals[vi])
					vi++
					continue
				}
				put(zero)
				i := c.Len() - 1
				c.SetZero(i)
				c.SetNull(i)
			}
		}
		done += total
	}
	return nil
}
