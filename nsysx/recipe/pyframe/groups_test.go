package pyframe

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
)

// groupsFrame is a frame of n rows over three row groups' worth of kinds:
// a String index, Int64, Float64 with NaN, nullable Int64.
func groupsFrame(n int) *Frame {
	key := make([]string, n)
	ints := make([]int64, n)
	floats := make([]float64, n)
	valid := make([]bool, n)
	for i := range key {
		key[i] = "name " + strconv.Itoa(i%5003)
		ints[i] = int64(i * 7 % 1013)
		floats[i] = float64(i) / 3
		if i%997 == 0 {
			floats[i] = math.NaN()
		}
		valid[i] = i%101 != 0
	}
	return &Frame{Cols: []*Column{
		NewInts("Count", Int64, ints, nil),
		NewFloats("Mean", floats, nil),
		NewInts("Max", Int64, append([]int64(nil), ints...), valid),
		NewStrings("Text", key, nil),
	}, Index: NamedIndex, IndexCols: []string{"Text"}}
}

// rowsOf is rows [s, e) of f.
func rowsOf(f *Frame, s, e int) *Frame {
	rows := make([]int, e-s)
	for i := range rows {
		rows[i] = s + i
	}
	out := &Frame{Index: f.Index, IndexCols: f.IndexCols}
	for _, c := range f.Cols {
		out.Cols = append(out.Cols, c.Pick(rows))
	}
	return out
}

// TestWriteParquetGroups: a frame of more than two row groups written as
// groups of MaxRowGroup rows (each a separate frame) is byte for byte
// WriteParquet's file of the whole frame, and its CSV, cut anywhere, is
// WriteCSV's; a group that would move the row group boundaries is refused.
func TestWriteParquetGroups(t *testing.T) {
	n := 2*MaxRowGroup + 321
	f := groupsFrame(n)
	var whole, parts bytes.Buffer
	if err := WriteParquet(&whole, f); err != nil {
		t.Fatal(err)
	}
	head := rowsOf(f, 0, 0)
	err := WriteParquetGroups(&parts, head, func(yield func(*Frame) error) error {
		for s := 0; s < n; s += MaxRowGroup {
			if err := yield(rowsOf(f, s, min(n, s+MaxRowGroup))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(whole.Bytes(), parts.Bytes()) {
		t.Errorf("row groups: %d bytes, whole frame %d bytes: they differ", parts.Len(), whole.Len())
	}
	var csvWhole, csvParts bytes.Buffer
	small := rowsOf(f, 0, 5000)
	if err := WriteCSV(&csvWhole, small); err != nil {
		t.Fatal(err)
	}
	err = WriteCSVGroups(&csvParts, head, func(yield func(*Frame) error) error {
		for _, cut := range [][2]int{{0, 7}, {7, 7}, {7, 4000}, {4000, 5000}} {
			if err := yield(rowsOf(small, cut[0], cut[1])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || csvWhole.String() != csvParts.String() {
		t.Errorf("csv groups: %v; same text: %v", err, csvWhole.String() == csvParts.String())
	}
	err = WriteParquetGroups(&bytes.Buffer{}, head, func(yield func(*Frame) error) error {
		if err := yield(rowsOf(small, 0, 10)); err != nil {
			return err
		}
		return yield(rowsOf(small, 10, 20))
	})
	if err == nil || !strings.Contains(err.Error(), "row group of 10 rows after 10 rows") {
		t.Errorf("short row group before another: %v, want an error", err)
	}
}
