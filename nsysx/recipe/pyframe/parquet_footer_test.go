package pyframe

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// TestParquetEncodingStatsOrder: a chunk whose dictionary overflows has
// data pages of two encodings; its footer lists them by encoding (PLAIN
// then RLE_DICTIONARY), as pyarrow writes them (the nsys export
// testdata/profiles/train_pqtdir/NVTX_EVENTS.parquet has that order), in
// every chunk of a file of many such columns (arrow-go's own order is that
// of a Go map, each way half the time).
func TestParquetEncodingStatsOrder(t *testing.T) {
	const n, cols = 200_000, 12 // 200k distinct int64 overflow the 1 MB dictionary
	f := &Frame{Index: RangeIndex}
	for c := range cols {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(i*(c+1)) + 7
		}
		f.Cols = append(f.Cols, NewInts(fmt.Sprint("c", c), Int64, v, nil))
	}
	r, err := file.OpenParquetFile(writeFrame(t, f), false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rg := r.MetaData().RowGroup(0)
	for c := range cols {
		cc, err := rg.ColumnChunk(c)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(cc.EncodingStats())
		if want := "[{PLAIN DICTIONARY_PAGE} {PLAIN DATA_PAGE} {RLE_DICTIONARY DATA_PAGE}]"; got != want {
			t.Fatalf("column %d: encoding stats %s, want %s", c, got, want)
		}
	}
}

// TestParquetDirectRowsAsArrow: String and list columns written directly
// (parquetio.WriteStrings, WriteLists, in chunks) are byte for byte what the
// Arrow path writes, with NULLs, empty strings and lists, rows that span
// chunks and a dictionary that overflows into PLAIN pages.
func TestParquetDirectRowsAsArrow(t *testing.T) {
	const n = 120_000
	v, valid := make([]string, n), make([]bool, n)
	lists, lvalid := make([][]int64, n), make([]bool, n)
	for i := range lists {
		lvalid[i] = i%13 != 5
		for k := range i % 4 {
			lists[i] = append(lists[i], int64(i*k))
		}
	}
	for i := range v {
		switch {
		case i%11 == 3:
		case i%7 == 0:
			valid[i] = true
		case i%3 == 0:
			v[i], valid[i] = fmt.Sprint("repeated ", i%5), true
		default:
			v[i], valid[i] = fmt.Sprintf("range %d of a longer text, to fill the dictionary", i), true
		}
	}
	f := &Frame{Index: RangeIndex, Cols: []*Column{
		NewStrings("Text", v, valid),
		NewStrings("Dense", slices.Clone(v), nil),
		{Name: "Stack", Type: ListInt64, Lists: lists, Valid: lvalid},
		{Name: "Dense Stack", Type: ListInt64, Lists: lists},
	}}
	write := func(arrow bool) []byte {
		viaArrow = arrow
		defer func() { viaArrow = false }()
		var b bytes.Buffer
		if err := WriteParquet(&b, f); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if got, want := write(false), write(true); !bytes.Equal(got, want) {
		t.Fatalf("the direct writers wrote %d bytes that differ from the Arrow path's %d", len(got), len(want))
	}
}
