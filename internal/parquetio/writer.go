// Package parquetio writes flat Arrow record batches (int64, float64 and
// utf8 columns) as a Parquet file with the low-level column writers of
// arrow-go's parquet/file, without its pqarrow package: pqarrow imports
// Arrow Flight, and with it gRPC, for the two functions that encode the
// stored Arrow schema, which this package does with arrow/ipc directly
// (docs/export.md says why the library keeps gRPC out of its dependencies).
package parquetio

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
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
	sc      *arrow.Schema
	rg      file.BufferedRowGroupWriter
	rgRows  int64
	maxRows int64
	cols    []chan arrow.Array // the current row group's column workers
	wg      sync.WaitGroup
	mu      sync.Mutex
	err     error // a column worker's first error
}

// NewWriter starts a Parquet file of schema sc on w with the given writer
// properties (compression, row group length). Close finishes it.
func NewWriter(w io.Writer, sc *arrow.Schema, props *parquet.WriterProperties) (*Writer, error) {
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
	fw, err := file.NewParquetWriterWithError(w, root, file.WithWriterProps(props), file.WithWriteMetadata(meta))
	if err != nil {
		return nil, err
	}
	return &Writer{fw: fw, sc: sc, maxRows: props.MaxRowGroupLength()}, nil
}

// leafNode is the Parquet column of one flat Arrow field.
func leafNode(f arrow.Field) (schema.Node, error) {
	rep := parquet.Repetitions.Required
	if f.Nullable {
		rep = parquet.Repetitions.Optional
	}
	switch f.Type.ID() {
	case arrow.INT64:
		return schema.NewPrimitiveNode(f.Name, rep, parquet.Types.Int64, -1, -1)
	case arrow.FLOAT64:
		return schema.NewPrimitiveNode(f.Name, rep, parquet.Types.Double, -1, -1)
	case arrow.STRING:
		return schema.NewPrimitiveNodeLogical(f.Name, rep, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1)
	}
	return nil, fmt.Errorf("parquet column %s: type %s is not written (int64, float64 or utf8)", f.Name, f.Type)
}

// EncodeSchema is the Arrow IPC schema message, base64-encoded, that
// Parquet files keep under "ARROW:schema" (the recipe writer stores it too).
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

// Close ends the last row group and writes the footer. It does not close
// the underlying writer beyond what file.Writer does (callers hand it a
// writer whose Close does nothing when the file must stay open).
func (w *Writer) Close() error {
	if err := w.endRowGroup(); err != nil {
		w.fw.Close()
		return err
	}
	return w.fw.Close()
}

// writeArray writes one column slice: definition levels (1 set, 0 NULL)
// when the column is optional, and the values of the non-NULL cells.
func writeArray(cw file.ColumnChunkWriter, a arrow.Array, nullable bool) error {
	defer a.Release()
	var def []int16
	if nullable {
		def = make([]int16, a.Len())
		for i := range def {
			if a.IsValid(i) {
				def[i] = 1
			}
		}
	} else if a.NullN() > 0 {
		return fmt.Errorf("%d NULL cells in a column declared not nullable", a.NullN())
	}
	var err error
	switch a := a.(type) {
	case *array.Int64:
		_, err = cw.(*file.Int64ColumnChunkWriter).WriteBatch(valid(a, a.Int64Values()), def, nil)
	case *array.Float64:
		_, err = cw.(*file.Float64ColumnChunkWriter).WriteBatch(valid(a, a.Float64Values()), def, nil)
	case *array.String:
		vs := make([]parquet.ByteArray, 0, a.Len()-a.NullN())
		data, offs := a.ValueBytes(), a.ValueOffsets()
		base := offs[0]
		for i := 0; i < a.Len(); i++ {
			if a.IsValid(i) {
				vs = append(vs, data[offs[i]-base:offs[i+1]-base])
			}
		}
		_, err = cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(vs, def, nil)
	default:
		err = fmt.Errorf("type %s is not written", a.DataType())
	}
	return err
}

// valid keeps the values of a's non-NULL cells.
func valid[T any](a arrow.Array, vs []T) []T {
	if a.NullN() == 0 {
		return vs
	}
	out := make([]T, 0, len(vs)-a.NullN())
	for i, v := range vs {
		if a.IsValid(i) {
			out = append(out, v)
		}
	}
	return out
}
