// Package pqcompare compares two Parquet files as the recipe golden tests
// need: the file layout pandas + pyarrow produce (format version, row
// groups, compression, dictionary pages), the Parquet schema, the stored
// Arrow schema (names, order, types, nullability), the pandas metadata
// JSON and every value. It reads both files with arrow-go only, so it is
// independent of the writer it checks.
//
// Typical use in a recipe test:
//
//	if err := pqcompare.Files(golden, filepath.Join(t.TempDir(), "rank_stats.parquet")); err != nil {
//		t.Fatal(err)
//	}
package pqcompare

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// MaxDiffs is how many differences an error lists.
const MaxDiffs = 8

// parsed is one file, read.
type parsed struct {
	path    string
	pf      *file.Reader
	arrow   *arrow.Schema // the stored ARROW:schema, nil if absent
	pandas  any           // the parsed pandas JSON, nil if absent
	table   arrow.Table
	numRows int64
}

// Files compares the Parquet file got with golden and returns nil when they
// are equal, or an error listing the first differences (what, column, row,
// want, got). The pandas metadata is compared as parsed JSON with the
// values of "creator" ignored (they name the writing library); floats are
// compared bit for bit after NaN and NULL are made the same.
func Files(golden, got string) error {
	w, err := load(golden)
	if err != nil {
		return err
	}
	defer w.close()
	g, err := load(got)
	if err != nil {
		return err
	}
	defer g.close()
	d := &diffs{}
	compareLayout(d, w, g)
	compareSchema(d, w, g)
	comparePandas(d, w, g)
	if d.n == 0 {
		compareValues(d, w, g)
	}
	return d.err(golden, got)
}

func load(path string) (*parsed, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("pqcompare: %s: %w", path, err)
	}
	p := &parsed{path: path, pf: pf, numRows: pf.NumRows()}
	kv := pf.MetaData().KeyValueMetadata()
	if v := kv.FindValue("ARROW:schema"); v != nil {
		if p.arrow, err = decodeSchema(*v); err != nil {
			pf.Close()
			return nil, fmt.Errorf("pqcompare: %s: ARROW:schema: %w", path, err)
		}
	}
	if v := kv.FindValue("pandas"); v != nil {
		if err := json.Unmarshal([]byte(*v), &p.pandas); err != nil {
			pf.Close()
			return nil, fmt.Errorf("pqcompare: %s: pandas metadata: %w", path, err)
		}
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	if err == nil {
		p.table, err = fr.ReadTable(context.Background())
	}
	if err != nil {
		pf.Close()
		return nil, fmt.Errorf("pqcompare: %s: %w", path, err)
	}
	return p, nil
}

func (p *parsed) close() {
	p.table.Release()
	p.pf.Close()
}

// StoredSchema is the Arrow schema stored in path's ARROW:schema
// metadata, as written (a pandas categorical stays a dictionary type,
// which a pqarrow read decodes).
func StoredSchema(path string) (*arrow.Schema, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("pqcompare: %s: %w", path, err)
	}
	defer pf.Close()
	v := pf.MetaData().KeyValueMetadata().FindValue("ARROW:schema")
	if v == nil {
		return nil, fmt.Errorf("pqcompare: %s: no ARROW:schema metadata", path)
	}
	s, err := decodeSchema(*v)
	if err != nil {
		return nil, fmt.Errorf("pqcompare: %s: ARROW:schema: %w", path, err)
	}
	return s, nil
}

func decodeSchema(b64 string) (*arrow.Schema, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, err
	}
	r, err := ipc.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.Schema(), nil
}

// diffs collects difference lines, keeping the first MaxDiffs.
type diffs struct {
	lines []string
	n     int
}

func (d *diffs) add(format string, args ...any) {
	d.n++
	if len(d.lines) < MaxDiffs {
		d.lines = append(d.lines, fmt.Sprintf(format, args...))
	}
}

func (d *diffs) err(golden, got string) error {
	if d.n == 0 {
		return nil
	}
	more := ""
	if d.n > len(d.lines) {
		more = fmt.Sprintf("\n  ... and %d more", d.n-len(d.lines))
	}
	return fmt.Errorf("pqcompare: %s differs from %s (%d differences):\n  %s%s",
		got, golden, d.n, strings.Join(d.lines, "\n  "), more)
}

// compareLayout checks what pyarrow's writer settings decide.
func compareLayout(d *diffs, w, g *parsed) {
	wm, gm := w.pf.MetaData(), g.pf.MetaData()
	if wm.Version() != gm.Version() {
		d.add("format version: want %v, got %v", wm.Version(), gm.Version())
	}
	if wm.NumRowGroups() != gm.NumRowGroups() {
		d.add("row groups: want %d, got %d", wm.NumRowGroups(), gm.NumRowGroups())
		return
	}
	if w.numRows != g.numRows {
		d.add("rows: want %d, got %d", w.numRows, g.numRows)
	}
	if wk, gk := wm.KeyValueMetadata().Keys(), gm.KeyValueMetadata().Keys(); strings.Join(wk, ",") != strings.Join(gk, ",") {
		d.add("key-value metadata keys: want %q, got %q", wk, gk)
	}
	for r := 0; r < wm.NumRowGroups(); r++ {
		wr, gr := wm.RowGroup(r), gm.RowGroup(r)
		if wr.NumColumns() != gr.NumColumns() {
			return // reported by compareSchema
		}
		for c := 0; c < wr.NumColumns(); c++ {
			wc, err1 := wr.ColumnChunk(c)
			gc, err2 := gr.ColumnChunk(c)
			if err1 != nil || err2 != nil {
				d.add("row group %d column %d: unreadable chunk metadata", r, c)
				continue
			}
			name := wc.PathInSchema().String()
			if wc.Compression() != gc.Compression() {
				d.add("column %s: compression want %v, got %v", name, wc.Compression(), gc.Compression())
			}
			if wc.HasDictionaryPage() != gc.HasDictionaryPage() {
				d.add("column %s: dictionary page want %v, got %v", name, wc.HasDictionaryPage(), gc.HasDictionaryPage())
			}
		}
	}
}
