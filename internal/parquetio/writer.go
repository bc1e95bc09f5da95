// Package parquetio is the library's one Parquet writer: raw-table exports,
// report results and recipe outputs are all written by its Writer. It uses
// the low-level column writers of arrow-go's parquet/file, without its
// pqarrow package: pqarrow imports Arrow Flight, and with it gRPC, for the
// two functions that encode the stored Arrow schema, which this package does
// with arrow/ipc directly (docs/export.md says why the library keeps gRPC
// out of its dependencies). The columns are encoded with the calls pqarrow
// makes (WriteLeaf), and the footer is written as pyarrow orders it, so a
// file is the same every time.
//
// Options.Pandas turns on pandas compatibility: the file is what pandas and
// pyarrow write for a DataFrame (pyarrow's writer properties and schema,
// the pandas metadata, which names the index columns, stored with the
// Arrow schema). Package pyframe builds that metadata for the recipes'
// frames.
package parquetio

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"golang.org/x/sync/errgroup"
)

// Writer writes record batches of one schema as row groups of a Parquet
// file. The Arrow schema is stored base64-encoded under "ARROW:schema", and
// its metadata as the file's key-value metadata, as pyarrow and pqarrow do,
// so readers get the same field types and metadata back.
//
// Each column of the current row group is encoded by a goroutine of its
// own, which takes the column's slices of the batches in order: a batch's
// columns are encoded at once, and a slow column (a text column's
// dictionary, compression) holds up only itself until the row group ends,
// not every batch.
type Writer struct {
	fw      *file.Writer
	out     *footerWriter
	sc      *arrow.Schema
	rg      file.BufferedRowGroupWriter
	rgRows  int64
	maxRows int64
	cols    []chan arrow.Array // the current row group's column workers
	wg      sync.WaitGroup
	mu      sync.Mutex
	err     error // a column worker's first error
}

// Options say how a file is written.
type Options struct {
	// Props are the writer properties (compression, row group length,
	// allocator); nil: Snappy and arrow-go's defaults, or pyarrow's with
	// Pandas.
	Props *parquet.WriterProperties
	// Pandas, when not empty, is the pandas metadata JSON of the frame the
	// file holds (its dtypes and index: the index columns it names are the
	// schema's last fields): the file is written as pandas + pyarrow write
	// a DataFrame, with the metadata stored under "pandas" (in the Arrow
	// schema too), and pyarrow's writer properties unless Props is set
	// (PandasProps).
	Pandas string
}

// MaxRowGroup is pyarrow's default row group length (1 Mi rows), the
// longest row group of a pandas-compatible file.
const MaxRowGroup = 1 << 20

// PandasProps are the writer properties pyarrow uses when pandas writes a
// DataFrame: format 2.6, Snappy, dictionary encoding, row groups of up to
// 1 Mi rows.
func PandasProps(mem memory.Allocator) *parquet.WriterProperties {
	return parquet.NewWriterProperties(
		parquet.WithVersion(parquet.V2_6),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(true),
		parquet.WithMaxRowGroupLength(MaxRowGroup),
		parquet.WithAllocator(mem),
	)
}

// NewWriter starts a Parquet file of schema sc on w with the given writer
// properties (compression, row group length). Close finishes it.
func NewWriter(w io.Writer, sc *arrow.Schema, props *parquet.WriterProperties) (*Writer, error) {
	return NewWriterOptions(w, sc, Options{Props: props})
}

// NewWriterOptions starts a Parquet file of schema sc on w written as o
// says. Close finishes it.
func NewWriterOptions(w io.Writer, sc *arrow.Schema, o Options) (*Writer, error) {
	props := o.Props
	if o.Pandas != "" {
		md := sc.Metadata()
		keys, vals := []string{"pandas"}, []string{o.Pandas}
		for i, k := range md.Keys() {
			if k != "pandas" {
				keys, vals = append(keys, k), append(vals, md.Values()[i])
			}
		}
		sc = arrow.NewSchema(sc.Fields(), new(arrow.NewMetadata(keys, vals)))
		if props == nil {
			props = PandasProps(memory.DefaultAllocator)
		}
	}
	if props == nil {
		props = parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy))
	}
	fields := make(schema.FieldList, sc.NumFields())
	for i, f := range sc.Fields() {
		n, err := leafNode(f)
		if err != nil {
			return nil, err
		}
		fields[i] = n
	}
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, fields, -1)
	if err != nil {
		return nil, err
	}
	meta := metadata.NewKeyValueMetadata()
	md := sc.Metadata()
	for i, k := range md.Keys() {
		meta.Append(k, md.Values()[i])
	}
	stored, err := EncodeSchema(sc)
	if err != nil {
		return nil, err
	}
	meta.Append("ARROW:schema", stored)
	out := &footerWriter{w: w}
	fw, err := file.NewParquetWriterWithError(out, root, file.WithWriterProps(props), file.WithWriteMetadata(meta))
	if err != nil {
		return nil, err
	}
	return &Writer{fw: fw, out: out, sc: sc, maxRows: props.MaxRowGroupLength()}, nil
}

// leafNode is the Parquet column pyarrow writes for one Arrow field:
// int64 (no logical type), uint64 and uint32 (unsigned integer logical
// types), float64, utf8 and large_utf8 (strings), null (an INT32 column of
// the null logical type), list<int64> (a list whose element is named
// "element") and dictionary<int, int64> (the int64 values).
func leafNode(f arrow.Field) (schema.Node, error) {
	rep := parquet.Repetitions.Required
	if f.Nullable {
		rep = parquet.Repetitions.Optional
	}
	switch t := f.Type.(type) {
	case *arrow.Int64Type:
		return schema.NewPrimitiveNode(f.Name, rep, parquet.Types.Int64, -1, -1)
	case *arrow.Uint64Type:
		return schema.NewPrimitiveNodeLogical(f.Name, rep, schema.NewIntLogicalType(64, false), parquet.Types.Int64, -1, -1)
	case *arrow.Uint32Type:
		return schema.NewPrimitiveNodeLogical(f.Name, rep, schema.NewIntLogicalType(32, false), parquet.Types.Int32, -1, -1)
	case *arrow.Float64Type:
		return schema.NewPrimitiveNode(f.Name, rep, parquet.Types.Double, -1, -1)
	case *arrow.StringType, *arrow.LargeStringType:
		return schema.NewPrimitiveNodeLogical(f.Name, rep, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1)
	case *arrow.NullType:
		return schema.NewPrimitiveNodeLogical(f.Name, rep, schema.NullLogicalType{}, parquet.Types.Int32, -1, -1)
	case *arrow.ListType:
		if t.Elem().ID() == arrow.INT64 {
			erep := parquet.Repetitions.Required
			if t.ElemField().Nullable {
				erep = parquet.Repetitions.Optional
			}
			elem, err := schema.NewPrimitiveNode("element", erep, parquet.Types.Int64, -1, -1)
			if err != nil {
				return nil, err
			}
			return schema.ListOfWithName(f.Name, elem, rep, -1)
		}
	case *arrow.DictionaryType:
		if t.ValueType.ID() == arrow.INT64 {
			return schema.NewPrimitiveNode(f.Name, rep, parquet.Types.Int64, -1, -1)
		}
	}
	return nil, fmt.Errorf("parquet column %s: type %s is not written (int64, uint64, uint32, float64, utf8, large_utf8, null, list<int64> or dictionary<int64>)", f.Name, f.Type)
}

// EncodeSchema is the Arrow IPC schema message, base64-encoded, that
// Parquet files keep under "ARROW:schema".
func EncodeSchema(sc *arrow.Schema) (string, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(sc))
	if err := w.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// Write appends rec, starting a new row group when the current one would
// pass the maximum row group length. The columns are encoded after Write
// returns: an encoding error is returned by a later Write or by Close.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if !rec.Schema().Equal(w.sc) {
		return fmt.Errorf("record batch schema %s differs from the file's %s", rec.Schema(), w.sc)
	}
	if err := w.failed(); err != nil {
		return err
	}
	for lo := int64(0); lo < rec.NumRows(); {
		if w.rg == nil || w.rgRows >= w.maxRows {
			if err := w.endRowGroup(); err != nil {
				return err
			}
			if err := w.startRowGroup(); err != nil {
				return err
			}
		}
		hi := min(rec.NumRows(), lo+w.maxRows-w.rgRows)
		for i, a := range rec.Columns() {
			w.cols[i] <- array.NewSlice(a, lo, hi) // the worker releases it
		}
		w.rgRows += hi - lo
		lo = hi
	}
	return nil
}

// failed is the first error of a column worker, or nil.
func (w *Writer) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// startRowGroup appends a row group and starts its column workers.
func (w *Writer) startRowGroup() error {
	rg, err := w.fw.AppendBufferedRowGroupChecked()
	if err != nil {
		return err
	}
	w.rg, w.cols = rg, make([]chan arrow.Array, len(w.sc.Fields()))
	for i := range w.cols {
		cw, err := rg.Column(i)
		if err != nil {
			w.cols = w.cols[:i]
			w.endRowGroup()
			return err
		}
		ch := make(chan arrow.Array, 4)
		w.cols[i] = ch
		f := w.sc.Field(i)
		w.wg.Go(func() {
			for a := range ch {
				if w.failed() != nil {
					a.Release() // the file is lost: drain
					continue
				}
				if err := writeArray(cw, a, f.Nullable); err != nil {
					w.mu.Lock()
					if w.err == nil {
						w.err = fmt.Errorf("parquet column %s: %w", f.Name, err)
					}
					w.mu.Unlock()
				}
			}
		})
	}
	return nil
}

// endRowGroup waits for the column workers to encode what they were given
// and closes the row group.
func (w *Writer) endRowGroup() error {
	if w.rg == nil {
		return nil
	}
	for _, ch := range w.cols {
		close(ch)
	}
	w.wg.Wait()
	err := w.rg.Close()
	w.rg, w.rgRows, w.cols = nil, 0, nil
	if ferr := w.failed(); ferr != nil {
		return ferr
	}
	return err
}

// A ColumnFunc writes one column of a row group of n rows to its column
// chunk writer (WriteLeaf, WriteStrings, WriteLists); ones are n definition
// levels of 1, shared by the columns (read only).
type ColumnFunc func(cw file.ColumnChunkWriter, ones []int16) error

// WriteColumns writes a row group of n rows whose columns (one per field,
// in order) are written by cols, at once, one goroutine each (up to
// GOMAXPROCS): a buffered row group gives every column chunk its own page
// buffer, which the row group's Close copies to the file in column order,
// so the bytes are those of writing the columns one after another. It lets
// a caller write its columns without building Arrow arrays of them first;
// it ends the row group Write was filling, if any.
func (w *Writer) WriteColumns(n int, cols []ColumnFunc) error {
	if len(cols) != w.sc.NumFields() {
		return fmt.Errorf("parquet: row group of %d columns, the schema has %d", len(cols), w.sc.NumFields())
	}
	if err := w.endRowGroup(); err != nil {
		return err
	}
	rgw, err := w.fw.AppendBufferedRowGroupChecked()
	if err != nil {
		return fmt.Errorf("writing parquet: %w", err)
	}
	cws := make([]file.ColumnChunkWriter, len(cols))
	for i := range cols {
		if cws[i], err = rgw.Column(i); err != nil {
			return fmt.Errorf("writing parquet column %q: %w", w.sc.Field(i).Name, err)
		}
	}
	ones := make([]int16, n)
	for i := range ones {
		ones[i] = 1
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, col := range cols {
		g.Go(func() error {
			if err := col(cws[i], ones); err != nil {
				return fmt.Errorf("writing parquet column %q: %w", w.sc.Field(i).Name, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := rgw.Close(); err != nil {
		return fmt.Errorf("writing parquet: %w", err)
	}
	return nil
}

// Close ends the last row group and writes the footer, its page encoding
// statistics in pyarrow's order (footer.go). It does not close the
// underlying writer beyond what file.Writer does (callers hand it a writer
// whose Close does nothing when the file must stay open).
func (w *Writer) Close() error {
	if err := w.endRowGroup(); err != nil {
		w.fw.Close()
		return err
	}
	w.out.hold = true
	if err := w.fw.Close(); err != nil {
		return fmt.Errorf("writing parquet: %w", err)
	}
	if err := w.out.finish(); err != nil {
		return fmt.Errorf("writing parquet: %w", err)
	}
	return nil
}

// writeArray writes one column slice: definition levels (1 set, 0 NULL)
// when the column is optional (a list's levels: listLevels), and the values
// (WriteLeaf).
func writeArray(cw file.ColumnChunkWriter, a arrow.Array, nullable bool) error {
	defer a.Release()
	if !nullable && a.NullN() > 0 {
		return fmt.Errorf("%d NULL cells in a column declared not nullable", a.NullN())
	}
	if l, ok := a.(*array.List); ok {
		leaf, def, rep, err := listLevels(l, nullable)
		if err != nil {
			return err
		}
		defer leaf.Release()
		return WriteLeaf(cw, leaf, def, rep)
	}
	var def []int16
	if nullable {
		def = make([]int16, a.Len())
		for i := range def {
			if a.IsValid(i) {
				def[i] = 1
			}
		}
	}
	return WriteLeaf(cw, a, def, nil)
}

// listLevels is the leaf (the elements) and the levels of a list<int64>
// slice whose elements are not NULL. For an optional list a NULL list has
// definition level 0 and an empty one 1 (a required list: empty 0); an
// element has the level of an empty list plus one, plus one more when the
// element is optional; the repetition level is 1 for every element but a
// list's first.
func listLevels(l *array.List, nullable bool) (arrow.Array, []int16, []int16, error) {
	empty := int16(0)
	if nullable {
		empty = 1
	}
	elem := empty + 1
	if l.DataType().(*arrow.ListType).ElemField().Nullable {
		elem++
	}
	offs := l.Offsets()
	lo, hi := int64(offs[0]), int64(offs[l.Len()])
	leaf := array.NewSlice(l.ListValues(), lo, hi)
	if leaf.NullN() > 0 {
		leaf.Release()
		return nil, nil, nil, fmt.Errorf("%d NULL list elements (not written)", leaf.NullN())
	}
	def, rep := make([]int16, 0, hi-lo), make([]int16, 0, hi-lo)
	for i := 0; i < l.Len(); i++ {
		switch k := int(offs[i+1] - offs[i]); {
		case l.IsNull(i):
			def, rep = append(def, 0), append(rep, 0)
		case k == 0:
			def, rep = append(def, empty), append(rep, 0)
		default:
			for j := range k {
				def, rep = append(def, elem), append(rep, int16(min(j, 1)))
			}
		}
	}
	return leaf, def, rep, nil
}
