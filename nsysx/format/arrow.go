package format

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/nsysx/nsysx/nsysx"
)

// WriteArrow writes the visible columns of a report result as an Arrow IPC
// file (the random-access "file" format, uncompressed), for pyarrow, polars,
// DuckDB or apache-arrow. Columns are named and typed as ResultSchema says;
// values are raw: durations and timestamps in ns, sizes in bytes,
// percentages as 0-100 numbers. A SKIPPED result, or one without visible
// columns, is an error.
func WriteArrow(w io.Writer, r *nsysx.Result) error {
	return writeResult(w, r, "arrow", memory.DefaultAllocator)
}

// binaryUnits gives, per tag category, the unit of the raw values when the
// tag names none ("dur" alone); gid, addr and unknown categories have none.
var binaryUnits = map[string]string{"dur": "ns", "ts": "ns", "mem": "B", "thru": "B", "ratio": "%"}

// BinaryName is a result column's name in Arrow and Parquet outputs: the
// label followed by the unit of its raw values, as nsys headers read
// ("Total Time:dur_ns" gives "Total Time (ns)", "Time:ratio_%" "Time (%)",
// "Bytes:mem_B" "Bytes (B)", "Throughput:thru_B" "Throughput (B/s)").
// Values are never converted, so the unit is the tag's own.
func BinaryName(c *nsysx.ResultCol) string {
	tag, _, _ := strings.Cut(c.Tag(), ":")
	cat, u, _ := strings.Cut(tag, "_")
	cat = strings.ToLower(cat)
	def, ok := binaryUnits[cat]
	if !ok {
		return c.Label()
	}
	if u == "" {
		u = def
	}
	if cat == "thru" {
		u += "/s"
	}
	return c.Label() + " (" + u + ")"
}

// columnType picks a column's Arrow type from its cells: utf8 if any cell is
// text, else float64 if any is a real, else int64. A column without
// non-NULL cells is int64 when its tag says it holds a quantity, utf8
// otherwise.
func columnType(c *nsysx.ResultCol) arrow.DataType {
	var ints, floats bool
	for i := 0; i < c.Len(); i++ {
		switch c.Value(i).Kind {
		case nsysx.TextKind:
			return arrow.BinaryTypes.String
		case nsysx.FloatKind:
			floats = true
		case nsysx.IntKind:
			ints = true
		}
	}
	switch {
	case floats:
		return arrow.PrimitiveTypes.Float64
	case ints || c.Tag() != "":
		return arrow.PrimitiveTypes.Int64
	}
	return arrow.BinaryTypes.String
}

// ResultSchema is the Arrow schema of a result's binary outputs: one nullable
// field per visible column (BinaryName, typed from the cells), and the
// metadata "report", "title" and, when set, "args".
func ResultSchema(r *nsysx.Result) *arrow.Schema {
	var fields []arrow.Field
	seen := map[string]bool{}
	for _, c := range r.Visible() {
		name := BinaryName(c)
		for n := 2; seen[name]; n++ {
			name = BinaryName(c) + " " + strconv.Itoa(n)
		}
		seen[name] = true
		fields = append(fields, arrow.Field{Name: name, Type: columnType(c), Nullable: true})
	}
	keys, vals := []string{"report", "title"}, []string{r.Report, r.Title}
	if r.Args != "" {
		keys, vals = append(keys, "args"), append(vals, r.Args)
	}
	md := arrow.NewMetadata(keys, vals)
	return arrow.NewSchema(fields, &md)
}

// writeResult writes r as a "parquet" or "arrow" file in batches of
// nsysx.BatchRows rows.
func writeResult(w io.Writer, r *nsysx.Result, format string, mem memory.Allocator) error {
	if r.Skipped != "" {
		return fmt.Errorf("%s was skipped: %s", r.Report, r.Skipped)
	}
	cols := r.Visible()
	if len(cols) == 0 {
		return errors.New(r.Report + " has no columns to write")
	}
	sc := ResultSchema(r)
	rw, err := nsysx.NewRecordWriter(w, sc, format, mem)
	if err != nil {
		return err
	}
	return rw.WriteRows(r.Len(), func(b *array.RecordBuilder, lo, hi int) {
		for i, c := range cols {
			appendCells(b.Field(i), c, lo, hi)
		}
	})
}

// appendCells appends cells [lo, hi) of c to a builder of columnType(c).
func appendCells(fb array.Builder, c *nsysx.ResultCol, lo, hi int) {
	fb.Reserve(hi - lo)
	for i := lo; i < hi; i++ {
		v := c.Value(i)
		if v.IsNull() {
			fb.AppendNull()
			continue
		}
		switch b := fb.(type) {
		case *array.Int64Builder:
			b.UnsafeAppend(v.I)
		case *array.Float64Builder:
			b.UnsafeAppend(v.AsFloat())
		case *array.StringBuilder:
			b.Append(v.String())
		}
	}
}

// Record converts the visible columns of a result into one Arrow record
// batch, named and typed as ResultSchema says (raw values: ns, bytes,
// 0-100 percentages), for Arrow-based tools in Go. The caller releases it.
// A SKIPPED or failed result is an error.
func Record(r *nsysx.Result) (arrow.RecordBatch, error) {
	if err := r.Err(); err != nil {
		return nil, err
	}
	if r.Skipped != "" {
		return nil, fmt.Errorf("%s was skipped: %s", r.Report, r.Skipped)
	}
	cols := r.Visible()
	b := array.NewRecordBuilder(memory.DefaultAllocator, ResultSchema(r))
	defer b.Release()
	for i, c := range cols {
		appendCells(b.Field(i), c, 0, r.Len())
	}
	return b.NewRecordBatch(), nil
}
